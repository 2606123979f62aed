package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_DATA_DISPLAYMATRIX;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_side_data_get;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_get;
import static org.bytedeco.ffmpeg.global.avutil.av_display_rotation_get;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avcodec.AVPacketSideData;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionaryEntry;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.IntPointer;

/**
 * Says whether an upload is a video we can work with, and what it is.
 *
 * <p>Accepting a file takes more than a readable header: the first video frame must decode, so
 * random bytes, truncated uploads and streams FFmpeg cannot decode are refused at upload time
 * rather than halfway through a job. Thread-safe: every call opens its own FFmpeg contexts. Each
 * call is a few milliseconds of native work, which pins a virtual thread's carrier for that time.
 */
public final class VideoProbe {

    // Bounds the work spent looking for the first picture and a second packet; a real video
    // delivers both within a few dozen packets, even with B-frames and interleaved audio.
    private static final int MAX_PACKETS = 2000;
    // Rates beyond this are timestamp noise (e.g. a 1/90000 time base taken for a frame rate).
    private static final double MAX_FPS = 1000;

    private VideoProbe() {}

    /**
     * Probes {@code file}.
     *
     * @throws UnsupportedMedia when the file is not a video we can decode: not media, an image, a
     *                          playlist, audio only, an unknown codec, or a first frame that does not decode
     * @throws Unprocessable    when it is a video but breaks {@code limits}
     */
    public static VideoInfo probe(Path file, MediaLimits limits) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(limits, "limits");
        try (InputFile in = InputFile.open(file, limits)) {
            AVFormatContext ctx = in.context();
            int videoIndex = in.firstVideoStream();
            if (videoIndex < 0) {
                throw new UnsupportedMedia(
                        "file",
                        in.firstAudioStream() >= 0
                                ? "The file has no video stream, only audio; upload a video file."
                                : "The file has no video stream; upload a video file.");
            }
            AVStream video = in.stream(videoIndex);
            AVCodecParameters par = video.codecpar();
            String codec = StreamDecoder.codecName(par.codec_id());

            double duration = duration(ctx, video);
            if (duration > limits.maxDuration().toMillis() / 1000.0) {
                throw new Unprocessable(
                        "file",
                        "The video lasts " + minutes(duration) + ", longer than the limit of "
                                + minutes(limits.maxDuration().toMillis() / 1000.0) + "; trim it and upload again.");
            }

            decodeFirstFrame(in, videoIndex, codec, limits);

            double fps = fps(video, duration);
            long frames = video.nb_frames() > 0 ? video.nb_frames() : Math.round(duration * fps);

            int audioIndex = in.firstAudioStream();
            AVCodecParameters audio =
                    audioIndex < 0 ? null : in.stream(audioIndex).codecpar();
            String majorBrand = metadata(ctx, "major_brand");
            return new VideoInfo(
                    Demuxers.friendlyName(Ffmpeg.string(ctx.iformat().name()), majorBrand, file),
                    codec,
                    duration,
                    par.width(),
                    par.height(),
                    fps,
                    frames,
                    rotation(par),
                    audio != null,
                    audio == null ? null : StreamDecoder.codecName(audio.codec_id()),
                    audio == null ? 0 : audio.ch_layout().nb_channels(),
                    audio == null ? 0 : audio.sample_rate());
        }
    }

    /**
     * Decodes the first picture, then reads on until a second video packet shows that this is a
     * moving picture and not one still image in a video container (PNG in MKV, AVIF/HEIC in mp4).
     */
    private static void decodeFirstFrame(InputFile in, int videoIndex, String codec, MediaLimits limits) {
        Map<String, String> options = Map.of(
                "max_pixels",
                Long.toString(limits.maxPixels()),
                // One picture is not worth a thread pool per probe, and frame threads delay the first output.
                "threads",
                "1");
        String fix = "re-encode it as H.264 and upload again";
        AVPacket packet = av_packet_alloc();
        try (StreamDecoder decoder = StreamDecoder.open(in.stream(videoIndex), options, "video", fix)) {
            boolean decoded = false;
            boolean ended = false;
            int videoPackets = 0;
            for (int n = 0; n < MAX_PACKETS && !(decoded && videoPackets >= 2); n++) {
                // Any read error counts as the end, as in the ffmpeg CLI: a truncated tail is not fatal here.
                if (av_read_frame(in.context(), packet) < 0) {
                    ended = true;
                    break;
                }
                try {
                    if (packet.stream_index() == videoIndex) {
                        videoPackets++;
                        // A corrupt packet before the first keyframe is normal after a cut; keep trying.
                        if (!decoded && decoder.send(packet) >= 0) {
                            decoded = receivePicture(decoder, limits);
                        }
                    }
                } finally {
                    av_packet_unref(packet);
                }
            }
            if (!decoded && ended && decoder.send(null) >= 0) {
                decoded = receivePicture(decoder, limits);
            }
            if (!decoded) {
                throw new UnsupportedMedia(
                        "file",
                        "The file's video stream (" + codec
                                + ") cannot be decoded, so it is probably damaged or truncated; upload it again or "
                                + fix + ".");
            }
            if (ended && videoPackets <= 1) {
                throw new UnsupportedMedia(
                        "file",
                        "The file holds a single picture (" + codec
                                + "), so it is an image, not a video; upload a video.");
            }
        } finally {
            av_packet_free(packet);
        }
    }

    private static boolean receivePicture(StreamDecoder decoder, MediaLimits limits) {
        if (decoder.receive() < 0) {
            return false;
        }
        AVFrame frame = decoder.frame();
        // The bitstream may disagree with the container; the decoder's picture is the truth.
        InputFile.checkPictureSize(frame.width(), frame.height(), limits);
        return true;
    }

    private static double duration(AVFormatContext ctx, AVStream video) {
        double seconds = 0;
        if (ctx.duration() != AV_NOPTS_VALUE && ctx.duration() > 0) {
            seconds = ctx.duration() / (double) AV_TIME_BASE;
        } else if (video.duration() != AV_NOPTS_VALUE && video.duration() > 0) {
            seconds = video.duration() * av_q2d(video.time_base());
        }
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UnsupportedMedia(
                    "file", "The video's duration cannot be determined; re-save it as MP4 and upload again.");
        }
        return seconds;
    }

    private static double fps(AVStream video, double duration) {
        for (AVRational rate : new AVRational[] {video.avg_frame_rate(), video.r_frame_rate()}) {
            if (rate.den() > 0 && rate.num() > 0 && av_q2d(rate) <= MAX_FPS) {
                return av_q2d(rate);
            }
        }
        if (video.nb_frames() > 1) {
            return video.nb_frames() / duration;
        }
        throw new UnsupportedMedia(
                "file", "The video's frame rate cannot be determined; re-encode it as H.264 MP4 and upload again.");
    }

    /**
     * The display matrix lives in the stream parameters' coded side data since FFmpeg 6.1 (it used
     * to be stream side data, and before that a "rotate" tag). FFmpeg gives the angle
     * counter-clockwise; we report the clockwise turn to apply, as the ffmpeg CLI's autorotate does.
     */
    static int rotation(AVCodecParameters par) {
        AVPacketSideData sd =
                av_packet_side_data_get(par.coded_side_data(), par.nb_coded_side_data(), AV_PKT_DATA_DISPLAYMATRIX);
        if (sd == null || sd.isNull() || sd.size() < 9 * Integer.BYTES) {
            return 0;
        }
        double counterClockwise = av_display_rotation_get(new IntPointer(sd.data()));
        if (Double.isNaN(counterClockwise)) {
            return 0;
        }
        // Mirrored or skewed matrices have no quarter-turn answer; the nearest one is close enough.
        long quarterTurns = Math.round(-counterClockwise / 90.0);
        return Math.floorMod(quarterTurns * 90, 360);
    }

    private static String metadata(AVFormatContext ctx, String key) {
        AVDictionaryEntry entry = av_dict_get(ctx.metadata(), key, null, 0);
        return entry == null || entry.isNull() ? null : Ffmpeg.string(entry.value());
    }

    private static String minutes(double seconds) {
        long s = Math.round(seconds);
        return s < 60 ? s + " s" : String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
}
