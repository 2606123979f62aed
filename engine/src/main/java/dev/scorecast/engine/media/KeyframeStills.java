package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_DISCARD;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVFrame;

/**
 * Still pictures of a video at chosen times, each the keyframe at or before its time, for previews
 * (the studio's thumbnail strip). A keyframe decodes on its own, so a picture costs one seek and
 * one picture's decoding, whatever the video's length: a strip of 32 along a two-hour film decodes
 * 32 pictures, where reading the film through decoded all of them.
 *
 * <p>Bounded: one decoding thread, whatever the machine (the caller's pool decides how many run at
 * once); a deadline checked before every seek and every packet; at most {@link #MAX_PACKETS_PER_STILL}
 * packets read looking for one keyframe. A file that cannot seek is read once from the start, its
 * keyframes alone decoded, within the same deadline. Not thread-safe; native decoding pins the
 * carrier thread, so call it from a platform thread.
 */
public final class KeyframeStills {
    /** Packets read past a seek without finding a keyframe before the search gives up for that time. */
    static final int MAX_PACKETS_PER_STILL = 2_000;
    /**
     * Pixels decoded past a keyframe on the way to one picture's time (about 10 pictures of 1080p,
     * 260 of 320 x 240): a picture lands on its time when a keyframe is that near before it, and
     * otherwise on the latest picture decoded, so a strip costs about the same whatever the file's
     * keyframe spacing. Decoding also runs on from one picture to the next when that is cheaper
     * than seeking back to a keyframe.
     */
    static final long FORWARD_PIXELS = 20_000_000L;

    static final int MIN_FORWARD_PACKETS = 8;

    /** One picture: the time it shows (seconds from the start of the video) and its upright RGB bytes. */
    public record Still(double timeSeconds, byte[] rgb) {}

    /** The pictures, all of {@code width} x {@code height}, in the order of the times asked for. */
    public record Stills(int width, int height, List<Still> pictures) {}

    private KeyframeStills() {}

    /**
     * The keyframe at or before each of {@code times} (seconds, ascending), shrunk so its longer side
     * is {@code longSidePixels}. A time before the first keyframe gets the first one.
     *
     * @param ticker the time the deadline is measured on
     * @throws DeadlinePassed when {@code deadline} passes first
     * @throws UnsupportedMedia when the file cannot be opened or has no decodable video, or no picture at all
     */
    public static Stills at(
            Path video, MediaLimits limits, int longSidePixels, double[] times, Duration deadline, Ticker ticker) {
        Objects.requireNonNull(video, "video");
        long end = ticker.nanos() + deadline.toNanos();
        Stills stills = read(video, limits, longSidePixels, end, ticker, reader -> reader.bySeeking(times));
        // A file that cannot seek (or whose seeks find no keyframe) is read again from its start.
        return stills != null
                ? stills
                : read(video, limits, longSidePixels, end, ticker, reader -> reader.fromTheStart(times));
    }

    private static Stills read(
            Path video,
            MediaLimits limits,
            int longSidePixels,
            long end,
            Ticker ticker,
            Function<Reader, List<Still>> how) {
        InputFile in = InputFile.open(video, limits);
        try {
            int videoIndex = in.firstVideoStream();
            if (videoIndex < 0) {
                throw new UnsupportedMedia("file", "The file has no video stream; upload a video file.");
            }
            in.readOnly(videoIndex);
            AVStream stream = in.stream(videoIndex);
            AVCodecParameters par = stream.codecpar();
            int[] size = FfmpegFrameSource.codedSize(par, longSidePixels);
            try (StreamDecoder decoder = FfmpegFrameSource.openDecoder(stream, 1, limits);
                    PictureScaler scaler = new PictureScaler(size[0], size[1], VideoProbe.rotation(par));
                    VideoPackets packets = new VideoPackets(in, videoIndex)) {
                var reader = new Reader(
                        decoder,
                        scaler,
                        packets,
                        av_q2d(stream.time_base()),
                        PresentationClock.origin(in.context(), stream),
                        end,
                        ticker,
                        1 / PresentationClock.nominalFps(stream),
                        (long) par.width() * par.height());
                List<Still> stills = how.apply(reader);
                return stills == null ? null : new Stills(scaler.width(), scaler.height(), stills);
            }
        } finally {
            in.close();
        }
    }

    /** The deadline passed before every picture was decoded. */
    public static final class DeadlinePassed extends RuntimeException {
        public DeadlinePassed() {
            super("the pictures were not decoded within their deadline");
        }
    }

    private static final class Reader {
        private final StreamDecoder decoder;
        private final PictureScaler scaler;
        private final VideoPackets packets;
        private final double secondsPerTick;
        private final double originSeconds;
        private final long endNanos;
        private final Ticker ticker;
        private final double frameSeconds;
        /** Packets decoded past a keyframe for one picture: {@link #FORWARD_PIXELS} of this file's pictures. */
        private final int forwardPackets;
        /** Whether the decoder holds the pictures since the last keyframe sent and takes more packets. */
        private boolean live;

        Reader(
                StreamDecoder decoder,
                PictureScaler scaler,
                VideoPackets packets,
                double secondsPerTick,
                double originSeconds,
                long endNanos,
                Ticker ticker,
                double frameSeconds,
                long pixelsPerPicture) {
            this.frameSeconds = frameSeconds;
            this.forwardPackets = (int) Math.max(MIN_FORWARD_PACKETS, FORWARD_PIXELS / Math.max(1, pixelsPerPicture));
            this.decoder = decoder;
            this.scaler = scaler;
            this.packets = packets;
            this.secondsPerTick = secondsPerTick;
            this.originSeconds = originSeconds;
            this.endNanos = endNanos;
            this.ticker = ticker;
        }

        /** One seek a time, or decoding on where that is cheaper; null when the file cannot seek, or a seek finds no keyframe. */
        List<Still> bySeeking(double[] times) {
            List<Still> stills = new ArrayList<>(times.length);
            Still previous = null;
            for (double time : times) {
                checkDeadline();
                if (previous != null && previous.timeSeconds() >= time) {
                    stills.add(previous);
                    continue;
                }
                boolean onward =
                        live && previous != null && (time - previous.timeSeconds()) / frameSeconds <= forwardPackets;
                if (!onward) {
                    long target = Math.round((time + originSeconds) / secondsPerTick);
                    if (!packets.seekBefore(target)) {
                        return null;
                    }
                    decoder.flush();
                    AVPacket key = nextKeyframe();
                    if (key == null) {
                        return null;
                    }
                    if (!start(key)) {
                        return null;
                    }
                }
                Still still = advance(time, onward ? previous : null);
                if (still == null) {
                    return null;
                }
                stills.add(still);
                previous = still;
            }
            return stills;
        }

        /** Reads the file once from the start, decoding keyframes only, keeping the latest at or before each time. */
        List<Still> fromTheStart(double[] times) {
            List<Still> stills = new ArrayList<>(times.length);
            Still latest = null;
            int next = 0;
            for (AVPacket key; next < times.length && (key = nextKeyframeUnbounded()) != null; ) {
                double keyTime = seconds(key.pts() != AV_NOPTS_VALUE ? key.pts() : key.dts());
                if (latest != null) {
                    while (next < times.length && keyTime > times[next] + 1e-9) {
                        stills.add(latest);
                        next++;
                    }
                }
                if (next >= times.length) {
                    av_packet_free(key);
                    break;
                }
                // The keyframe's own picture; reading on for it could pass the next keyframe.
                Still still = start(key) ? advance(Double.NEGATIVE_INFINITY, null) : null;
                decoder.flush();
                live = false;
                if (still != null) {
                    latest = still;
                }
            }
            if (latest == null) {
                throw new UnsupportedMedia(
                        "file", "No picture of the video could be decoded; re-encode it as H.264 and upload again.");
            }
            while (stills.size() < times.length) {
                stills.add(latest);
            }
            return stills;
        }

        private AVPacket nextKeyframe() {
            for (int read = 0; read < MAX_PACKETS_PER_STILL; read++) {
                checkDeadline();
                AVPacket next = packets.next();
                if (next == null) {
                    return null;
                }
                if (isKeyframe(next)) {
                    return next;
                }
                av_packet_free(next);
            }
            return null;
        }

        private AVPacket nextKeyframeUnbounded() {
            while (true) {
                checkDeadline();
                AVPacket next = packets.next();
                if (next == null || isKeyframe(next)) {
                    return next;
                }
                av_packet_free(next);
            }
        }

        /** Sends the keyframe to a flushed decoder and frees it; false when the decoder refuses it. */
        private boolean start(AVPacket key) {
            try {
                live = decoder.send(key) >= 0;
                return live;
            } finally {
                av_packet_free(key);
            }
        }

        /**
         * Decodes on until a picture at or after {@code target} comes out, sending at most
         * {@link #forwardPackets} more packets; then the latest picture decoded stands for the time
         * ({@code before}, when none came). Null when nothing could be decoded.
         */
        private Still advance(double target, Still before) {
            byte[] latest = null;
            double latestTime = 0;
            int sent = 0;
            while (true) {
                int ret = decoder.receive();
                if (ret >= 0) {
                    AVFrame picture = decoder.frame();
                    if (picture.best_effort_timestamp() == AV_NOPTS_VALUE) {
                        continue;
                    }
                    if (latest == null) {
                        latest = new byte[scaler.width() * scaler.height() * 3];
                    }
                    scaler.scale(picture, latest);
                    latestTime = Math.max(0, seconds(picture.best_effort_timestamp()));
                    if (latestTime >= target - 1e-6) {
                        break;
                    }
                } else if (ret == Ffmpeg.EAGAIN && live) {
                    checkDeadline();
                    AVPacket next = sent < forwardPackets ? packets.next() : null;
                    if (next == null) {
                        // The file's end, or the budget spent: drain what the decoder holds.
                        decoder.send(null);
                        live = false;
                    } else {
                        sent++;
                        try {
                            decoder.send(next);
                        } finally {
                            av_packet_free(next);
                        }
                    }
                } else {
                    live = false; // drained, or an error: the latest picture stands
                    break;
                }
            }
            return latest != null ? new Still(latestTime, latest) : before;
        }

        private double seconds(long pts) {
            return pts == AV_NOPTS_VALUE ? 0 : pts * secondsPerTick - originSeconds;
        }

        private void checkDeadline() {
            if (ticker.nanos() - endNanos > 0) {
                throw new DeadlinePassed();
            }
        }

        private static boolean isKeyframe(AVPacket packet) {
            return (packet.flags() & AV_PKT_FLAG_KEY) != 0 && (packet.flags() & AV_PKT_FLAG_DISCARD) == 0;
        }
    }
}
