package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_DISCARD;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * Decodes the first video stream of a file with FFmpeg and delivers its pictures shrunk to a small
 * analysis size (the longer side {@code longSidePixels}, aspect kept, never enlarged) and turned
 * upright per the stream's display matrix.
 *
 * <p>Speed: FFmpeg picks its own decoding threads, and the in-loop deblocking filter is skipped,
 * which makes H.264 decoding about a quarter faster and only softens the picture, which a 160-pixel
 * analysis cannot see. Only video packets are read; other streams are discarded by the demuxer.
 *
 * <p>Reference pictures only: opened with a {@link GapScreen}, the source asks the decoder to pass
 * over pictures that no other picture refers to (FFmpeg's {@code skip_frame=nonref}; for H.264 from
 * phones and x264 that is a third to a half of the pictures, and of the decoding time), or, for a
 * stream {@link BidirectionalCheck} found fit ({@link #passOverBidirectional}), every B picture
 * ({@code skip_frame=bidir}: two thirds of x264's pictures, a little more than half the time). It counts
 * what was passed over from the packets' timestamps, shows the screen each pair of decoded pictures
 * with the count between them, and where the screen asks, has a {@link GapFiller} decode the gap on
 * a decoder of its own, so the caller receives every picture there. A stream whose packets carry
 * no timestamps is decoded in full.
 *
 * <p>Damage: a packet the decoder refuses, or a picture it flags as corrupt, is skipped and
 * counted ({@link #framesSkipped()}); a read error ends the video, as in the ffmpeg CLI.
 * Pictures past the duration limit are not delivered. Not thread-safe; it pins its thread's
 * carrier while decoding, so use a platform thread.
 */
public final class FfmpegFrameSource implements FrameSource {

    /** The analysis size most callers want: 160 x 90 for a 16:9 video. */
    public static final int DEFAULT_LONG_SIDE_PIXELS = 160;

    private static final String FIX = "re-encode it as H.264 and upload again";
    private static final int FRAME_FLAG_CORRUPT = 1; // AV_FRAME_FLAG_CORRUPT; Bytedeco has no constant for it
    private static final double FALLBACK_FPS = 30;
    // Decoder errors can repeat without a frame in between; past this many in a row the stream is hopeless.
    private static final int MAX_ERRORS_IN_A_ROW = 10_000;

    private final InputFile in;
    private final int videoIndex;
    private final StreamDecoder decoder;
    private final PictureScaler scaler;
    private final VideoPackets packets;
    private final GapFiller filler;
    private final double secondsPerTick;
    private final double originSeconds;
    private final double frameSeconds;
    private final double durationSeconds;
    private final double maxSeconds;

    private GapScreen screen;
    /** Timestamps of the video packets read whose pictures have not been delivered or passed over yet. */
    private final TreeSet<Long> pendingPts = new TreeSet<>();
    /** Packets read to learn timestamps before the decoder needed them; sent before reading on. */
    private final ArrayDeque<AVPacket> ahead = new ArrayDeque<>();
    private final VideoFrame candidate;
    private final VideoFrame last;
    /** Pictures decoded and ready to deliver, in order: a gap's pictures, then the picture after it. */
    private final ArrayDeque<Ready> ready = new ArrayDeque<>();
    /** Buffers of delivered pictures, for the next ones. */
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    /** The keyframes read since the start (of the file or segment): presentation time to decoding time. */
    private final TreeMap<Long, Long> keyframes = new TreeMap<>();
    private boolean referencesOnly;
    /** What is passed over outside gaps being filled, while {@link #referencesOnly}. */
    private PassOver outsideGaps = PassOver.NON_REFERENCE;
    private long maxDtsRead = Long.MIN_VALUE;
    private long lastDeliveredPts = AV_NOPTS_VALUE;
    private long lastDeliveredIndex = -1;
    private long gapsDecoded;
    private long picturesPassedOver;
    private boolean draining;
    private boolean ended;
    private long nextIndex;
    private long skipped;
    private int errorsInARow;
    private double lastTimeSeconds = Double.NaN;
    /** Within a segment: pictures before this timestamp belong to the segment before and are dropped. */
    private long segmentStartPts = AV_NOPTS_VALUE;
    /** Within a segment: the picture at this timestamp starts the next segment; the source ends before it. */
    private long segmentStopPts = AV_NOPTS_VALUE;
    /**
     * A segment's first gap, between its keyframe and the picture after it, is decoded as it is read:
     * with no pairs before it, the screen asks for it whenever anything changes, and decoding it
     * here costs its own pictures only, where the filler would decode the keyframe again. Its
     * bounds (the keyframe's time, then the first later one sent), and its pictures once decoded,
     * kept until the screen has answered for it.
     */
    private long firstGapAfterPts = AV_NOPTS_VALUE;
    private long firstGapThroughPts = AV_NOPTS_VALUE;
    private final TreeMap<Long, byte[]> firstGap = new TreeMap<>();
    /** The earliest presentation time among the packets sent to the decoder since the start (of the file or segment). */
    private long earliestPtsSent = Long.MAX_VALUE;
    /** Keyframe packets sent to the decoder since the file was opened. */
    private long keyframesSent;
    /** An edit list cut packets of the file's first GOP: its first picture may be a B picture. */
    private boolean cutStart;

    private FfmpegFrameSource(InputFile in, int videoIndex, StreamDecoder decoder, PictureScaler scaler, GapFiller filler,
                              MediaLimits limits, GapScreen screen) {
        this.in = in;
        this.screen = screen;
        this.referencesOnly = screen != null;
        this.candidate = new VideoFrame(scaler.width(), scaler.height());
        this.last = new VideoFrame(scaler.width(), scaler.height());
        decoder.passOver(referencesOnly ? outsideGaps : PassOver.NOTHING);
        this.videoIndex = videoIndex;
        this.decoder = decoder;
        this.scaler = scaler;
        this.filler = filler;
        this.packets = new VideoPackets(in, videoIndex);
        AVStream stream = in.stream(videoIndex);
        this.secondsPerTick = av_q2d(stream.time_base());
        this.originSeconds = origin(in.context(), stream);
        this.frameSeconds = 1 / nominalFps(stream);
        this.durationSeconds = duration(in.context(), stream);
        this.maxSeconds = limits.maxDuration().toMillis() / 1000.0;
    }

    /**
     * Opens {@code video} for decoding.
     *
     * @param longSidePixels the longer side of the delivered pictures, 16 to 4096
     * @throws UnsupportedMedia when the file cannot be opened, has no video stream or its codec cannot be decoded
     * @throws dev.scorecast.engine.error.Unprocessable when it breaks {@code limits}
     */
    public static FfmpegFrameSource open(Path video, MediaLimits limits, int longSidePixels) {
        return open(video, limits, longSidePixels, null);
    }

    /**
     * Opens {@code video} to decode reference pictures only, and the others where {@code screen}
     * asks for them (see the class comment); with a null screen, every picture.
     */
    public static FfmpegFrameSource open(Path video, MediaLimits limits, int longSidePixels, GapScreen screen) {
        return open(video, limits, longSidePixels, screen, 0);
    }

    /** As {@link #open(Path, MediaLimits, int, GapScreen)}, with {@code threads} decoding threads (0: FFmpeg's choice). */
    static FfmpegFrameSource open(Path video, MediaLimits limits, int longSidePixels, GapScreen screen, int threads) {
        Objects.requireNonNull(video, "video");
        Objects.requireNonNull(limits, "limits");
        if (longSidePixels < 16 || longSidePixels > 4096) {
            throw new IllegalArgumentException("longSidePixels must be 16..4096, not " + longSidePixels);
        }
        InputFile in = InputFile.open(video, limits);
        StreamDecoder decoder = null;
        PictureScaler scaler = null;
        try {
            int videoIndex = in.firstVideoStream();
            if (videoIndex < 0) {
                throw new UnsupportedMedia("file", in.firstAudioStream() >= 0
                        ? "The file has no video stream, only audio; upload a video file."
                        : "The file has no video stream; upload a video file.");
            }
            in.readOnly(videoIndex);
            AVStream stream = in.stream(videoIndex);
            decoder = openDecoder(stream, threads, limits);
            AVCodecParameters par = stream.codecpar();
            int[] size = codedSize(par, longSidePixels);
            scaler = new PictureScaler(size[0], size[1], VideoProbe.rotation(par));
            GapFiller filler = screen == null ? null
                    : new GapFiller(video, limits, videoIndex, size[0], size[1], VideoProbe.rotation(par));
            return new FfmpegFrameSource(in, videoIndex, decoder, scaler, filler, limits, screen);
        } catch (RuntimeException | Error e) {
            if (scaler != null) {
                scaler.close();
            }
            if (decoder != null) {
                decoder.close();
            }
            in.close();
            throw e;
        }
    }

    /**
     * A picture decoder as every source has it; {@link BidirectionalCheck} decodes with the same, so
     * that what it compares is what the analysis would get.
     *
     * @param threads decoding threads, 0 for FFmpeg's choice (one per core plus one)
     */
    static StreamDecoder openDecoder(AVStream stream, int threads, MediaLimits limits) {
        return StreamDecoder.open(stream, Map.of(
                "threads", Integer.toString(threads),
                "skip_loop_filter", "all",
                "max_pixels", Long.toString(limits.maxPixels())), "video", FIX);
    }

    @Override
    public int width() {
        return scaler.width();
    }

    @Override
    public int height() {
        return scaler.height();
    }

    @Override
    public double durationSeconds() {
        return durationSeconds;
    }

    @Override
    public long framesSkipped() {
        return skipped;
    }

    /** Gaps of undecoded pictures the screen had decoded after all. */
    public long gapsDecoded() {
        return gapsDecoded;
    }

    /** How many of those gaps were decoded from their keyframe, rather than on from the gap before. */
    long gapSeeks() {
        return filler == null ? 0 : filler.seeks();
    }

    @Override
    public long framesPassedOver() {
        return picturesPassedOver;
    }

    @Override
    public boolean read(VideoFrame frame) {
        if (frame.width() != width() || frame.height() != height()) {
            throw new IllegalArgumentException("frame is " + frame.width() + "x" + frame.height() + ", source delivers "
                    + width() + "x" + height());
        }
        while (ready.isEmpty() && !ended) {
            decodeNext();
        }
        Ready next = ready.pollFirst();
        if (next == null) {
            return false;
        }
        System.arraycopy(next.rgb(), 0, frame.rgb(), 0, next.rgb().length);
        frame.stamp(next.index(), next.seconds());
        spare.offer(next.rgb());
        return true;
    }

    /** Decodes until a picture is ready to deliver (with the gap before it, where the screen asks) or the video ends. */
    private void decodeNext() {
        while (!ended) {
            int ret = decoder.receive();
            if (ret >= 0) {
                errorsInARow = 0;
                AVFrame picture = decoder.frame();
                long pts = picture.best_effort_timestamp();
                if (segmentStartPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts < segmentStartPts) {
                    continue; // the segment before delivers it (an open GOP's leading pictures, or a seek that landed early)
                }
                if (inFirstGap(pts)) {
                    if ((picture.flags() & FRAME_FLAG_CORRUPT) == 0 && picture.decode_error_flags() == 0) {
                        byte[] rgb = new byte[candidate.rgb().length];
                        scaler.scale(picture, rgb);
                        firstGap.put(pts, rgb);
                    }
                    continue; // delivered only if the screen asks for the gap
                }
                if ((picture.flags() & FRAME_FLAG_CORRUPT) != 0 || picture.decode_error_flags() != 0) {
                    nextIndex++;
                    skipped++;
                    continue;
                }
                int undecoded = passedOverBefore(pts);
                double seconds = presentationSeconds(pts);
                if (seconds > maxSeconds) {
                    ended = true; // the probe checked the container's duration; frames beyond it are not believed
                    return;
                }
                scaler.scale(picture, candidate.rgb());
                candidate.stamp(nextIndex + undecoded, seconds);
                if (screen != null && lastDeliveredIndex >= 0 && screen.decodeGap(last, candidate, undecoded) && undecoded > 0) {
                    fillGap(pts);
                    undecoded = pendingPts.subSet(lastDeliveredPts, false, pts, false).size(); // what the gap could not give
                }
                if (firstGapThroughPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts >= firstGapThroughPts) {
                    endFirstGap(); // answered for, or passed by
                }
                if (segmentStopPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts >= segmentStopPts) {
                    ended = true; // decoded only so the screen could look at the gap before it
                    picturesPassedOver += undecoded;
                    return;
                }
                accept(pts, undecoded, seconds, candidate.rgb());
                return;
            }
            if (ret == AVERROR_EOF) {
                ended = true;
            } else if (ret == Ffmpeg.EAGAIN) {
                feed();
            } else {
                skipped++;
                if (++errorsInARow > MAX_ERRORS_IN_A_ROW) {
                    ended = true;
                }
            }
        }
    }

    /**
     * Has the filler decode the pictures between the last accepted one and the one at {@code pts},
     * and accepts them. When the file cannot be sought, the rest of the video is decoded in full
     * instead, and this gap stays as it is.
     */
    private void fillGap(long pts) {
        gapsDecoded++;
        if (pts == firstGapThroughPts && lastDeliveredPts == firstGapAfterPts) {
            firstGap.forEach(this::acceptFromGap);
            return;
        }
        Map.Entry<Long, Long> keyframe = keyframes.floorEntry(lastDeliveredPts);
        List<GapFiller.Picture> pictures = filler.fill(keyframe == null ? AV_NOPTS_VALUE : keyframe.getKey(),
                keyframe == null ? AV_NOPTS_VALUE : keyframe.getValue(), lastDeliveredPts, pts);
        if (pictures == null) {
            decodeEverything();
            return;
        }
        pictures.forEach(filled -> acceptFromGap(filled.pts(), filled.rgb()));
    }

    /** Accepts a picture of the gap being filled, after the last accepted one; pictures the gap could not give stay passed over. */
    private void acceptFromGap(long pts, byte[] rgb) {
        accept(pts, pendingPts.subSet(lastDeliveredPts, false, pts, false).size(), presentationSeconds(pts), rgb);
    }

    /** Whether the picture at {@code pts} lies in the segment's first gap, decoded as it was read. */
    private boolean inFirstGap(long pts) {
        return firstGapThroughPts != AV_NOPTS_VALUE && pts != AV_NOPTS_VALUE && pts > firstGapAfterPts && pts < firstGapThroughPts;
    }

    private void endFirstGap() {
        firstGap.clear();
        firstGapAfterPts = AV_NOPTS_VALUE;
        firstGapThroughPts = AV_NOPTS_VALUE;
    }

    /**
     * Queues a picture for delivery as the next after the last, {@code undecoded} pictures passed over
     * between them, and remembers it as the one the screen compares the next with.
     */
    private void accept(long pts, int undecoded, double seconds, byte[] rgb) {
        long index = nextIndex + undecoded;
        lastTimeSeconds = seconds;
        picturesPassedOver += undecoded;
        nextIndex = index + 1;
        byte[] copy = spare.poll();
        if (copy == null) {
            copy = new byte[rgb.length];
        }
        System.arraycopy(rgb, 0, copy, 0, rgb.length);
        ready.addLast(new Ready(copy, index, seconds));
        System.arraycopy(rgb, 0, last.rgb(), 0, rgb.length);
        last.stamp(index, seconds);
        lastDeliveredIndex = index;
        if (pts != AV_NOPTS_VALUE) {
            lastDeliveredPts = pts;
            pendingPts.headSet(pts, true).clear();
        }
    }

    /**
     * How many pictures, by the packets' timestamps, lie between the last delivered picture and
     * the one at {@code pts} and were not decoded. Reads packets ahead until one decodes after
     * {@code pts} (decoding timestamps never exceed presentation ones, so no earlier picture can
     * follow), keeping them for the decoder.
     */
    private int passedOverBefore(long pts) {
        if (!referencesOnly || pts == AV_NOPTS_VALUE || lastDeliveredPts == AV_NOPTS_VALUE || pts <= lastDeliveredPts) {
            return 0;
        }
        while (!packets.ended() && maxDtsRead < pts && referencesOnly) {
            AVPacket next = readVideoPacket();
            if (next != null) {
                ahead.addLast(next);
            }
        }
        if (!referencesOnly) {
            return 0;
        }
        return pendingPts.subSet(lastDeliveredPts, false, pts, false).size();
    }

    /**
     * Passes over every B picture from now on, outside the gaps the screen has decoded, instead of
     * the non-reference ones only; for a stream {@link BidirectionalCheck} found fit for it.
     */
    void passOverBidirectional(boolean bidirectional) {
        outsideGaps = bidirectional ? PassOver.BIDIRECTIONAL : PassOver.NON_REFERENCE;
    }

    /** Ends the source before the picture at {@code stopPts}: the first segment, on a source just opened. */
    void endBefore(long stopPts) {
        segmentStopPts = stopPts;
    }

    /**
     * Restarts the source on one segment of the video: from the keyframe at {@code startPts} up to, not including, the picture at {@code stopPts}
     * ({@code AV_NOPTS_VALUE}: to the end), numbering pictures from {@code firstIndex}, looking
     * into gaps with {@code freshScreen} (a screen remembers the pairs before; a segment starts
     * without them). For a source opened with a screen.
     *
     * @return false when the file cannot seek there
     */
    boolean startSegment(long startPts, long startDts, long stopPts, long firstIndex, GapScreen freshScreen) {
        if (screen == null || freshScreen == null) {
            throw new IllegalStateException("segments are for a source that decodes reference pictures only");
        }
        screen = freshScreen;
        decoder.flush();
        clearAhead();
        clearReady();
        pendingPts.clear();
        keyframes.clear();
        draining = false;
        ended = false;
        errorsInARow = 0;
        maxDtsRead = Long.MIN_VALUE;
        lastDeliveredPts = AV_NOPTS_VALUE;
        lastDeliveredIndex = -1;
        lastTimeSeconds = Double.NaN;
        nextIndex = firstIndex;
        segmentStartPts = startPts;
        segmentStopPts = stopPts;
        endFirstGap();
        firstGapAfterPts = startPts;
        earliestPtsSent = Long.MAX_VALUE;
        AVPacket keyframe = packets.seekToKeyframe(startPts, startDts);
        if (keyframe == null) {
            return false;
        }
        record(keyframe);
        ahead.addLast(keyframe);
        return true;
    }

    /** From now on every picture is decoded (a stream without timestamps, or one that cannot seek). */
    private void decodeEverything() {
        referencesOnly = false;
        decoder.passOver(PassOver.NOTHING);
    }

    /** Sends the next video packet to the decoder, or starts draining it at the end of the file. */
    private void feed() {
        if (draining) {
            ended = true; // a drained decoder answers EOF, never EAGAIN; do not spin if one misbehaves
            return;
        }
        AVPacket next = ahead.pollFirst();
        if (next == null) {
            next = readVideoPacket();
        }
        if (next == null) {
            decoder.send(null);
            draining = true;
            return;
        }
        try {
            if (referencesOnly) {
                long pts = next.pts();
                // The first picture shown may be a non-reference one (a file cut without re-encoding
                // starts on a B-frame), and with nothing delivered before it there is no gap to go
                // back into: before the first delivery, a packet shown before every one sent so far is
                // decoded whatever its kind. Decided by timestamps alone, so the same on any machine.
                boolean discarded = (next.flags() & AV_PKT_FLAG_DISCARD) != 0;
                boolean mayBeFirst = lastDeliveredIndex < 0 && !discarded && pts < earliestPtsSent
                        && (segmentStartPts == AV_NOPTS_VALUE || pts >= segmentStartPts);
                if (!discarded) {
                    earliestPtsSent = Math.min(earliestPtsSent, pts);
                }
                // In the first GOP of a file cut without re-encoding, B pictures that are
                // references are decoded too: the file's first picture, a B picture when an edit
                // list hides the head of its GOP, may refer to them. A segment starts on a
                // keyframe. Decided by timestamps and the packets' flags alone, so the same with
                // any number of decoding threads, whatever they have delivered by then.
                if ((next.flags() & AV_PKT_FLAG_KEY) != 0) {
                    keyframesSent++;
                }
                cutStart |= discarded && keyframesSent < 2;
                boolean firstGopOfCut = segmentStartPts == AV_NOPTS_VALUE && cutStart && keyframesSent < 2;
                // A segment's first gap: the first packet after its keyframe that is shown later
                // ends it (the next reference picture); the packets shown between are the gap's.
                // Only where every B picture is passed over: otherwise the gap holds reference B
                // pictures this decoder delivers anyway, and it is not one gap but several.
                if (outsideGaps == PassOver.BIDIRECTIONAL && firstGapAfterPts != AV_NOPTS_VALUE && firstGapThroughPts == AV_NOPTS_VALUE
                        && !discarded && pts > firstGapAfterPts) {
                    firstGapThroughPts = pts;
                }
                boolean firstGapPicture = !discarded && inFirstGap(pts);
                decoder.passOver(mayBeFirst || firstGapPicture ? PassOver.NOTHING : firstGopOfCut ? PassOver.NON_REFERENCE : outsideGaps);
            }
            int ret = decoder.send(next);
            if (ret < 0 && ret != Ffmpeg.EAGAIN) {
                skipped++;
            }
        } finally {
            av_packet_free(next);
        }
    }

    /**
     * The next packet of the video stream as a packet of its own, or null at the end of the file,
     * with its timestamps noted: pictures still to come, and keyframes, which a gap is decoded from.
     */
    private AVPacket readVideoPacket() {
        AVPacket next = packets.next();
        if (next != null) {
            record(next);
        }
        return next;
    }

    private void record(AVPacket packet) {
        if (!referencesOnly) {
            return;
        }
        if (packet.pts() == AV_NOPTS_VALUE) {
            decodeEverything(); // no timestamps: nothing to count passed-over pictures by
            return;
        }
        if ((packet.flags() & AV_PKT_FLAG_DISCARD) == 0) { // an edit list's cut packet gives no picture
            pendingPts.add(packet.pts());
            if ((packet.flags() & AV_PKT_FLAG_KEY) != 0) {
                keyframes.put(packet.pts(), packet.dts());
            }
        }
        maxDtsRead = Math.max(maxDtsRead, packet.dts() != AV_NOPTS_VALUE ? packet.dts() : packet.pts());
    }

    private void clearReady() {
        for (Ready r; (r = ready.pollFirst()) != null; ) {
            spare.offer(r.rgb());
        }
    }

    private void clearAhead() {
        for (AVPacket p; (p = ahead.pollFirst()) != null; ) {
            av_packet_free(p);
        }
    }

    /**
     * Seconds since the start of the file (the container's start, so that picture and sound share
     * one clock). Missing timestamps continue from the last delivered one; times never run backwards.
     */
    private double presentationSeconds(long ts) {
        double seconds;
        if (ts != AV_NOPTS_VALUE) {
            seconds = ts * secondsPerTick - originSeconds;
        } else {
            seconds = Double.isNaN(lastTimeSeconds) ? 0 : lastTimeSeconds + frameSeconds;
        }
        seconds = Math.max(0, seconds);
        if (!Double.isNaN(lastTimeSeconds) && seconds < lastTimeSeconds) {
            seconds = lastTimeSeconds;
        }
        return seconds;
    }

    @Override
    public void close() {
        clearAhead();
        packets.close();
        if (filler != null) {
            filler.close();
        }
        scaler.close();
        decoder.close();
        in.close();
    }

    /** Output size before rotation: the display aspect (sample aspect ratio applied), long side fitted. */
    static int[] codedSize(AVCodecParameters par, int longSidePixels) {
        return fit(par.width(), par.height(), sampleAspect(par.sample_aspect_ratio()), longSidePixels);
    }

    static int[] fit(int codedWidth, int codedHeight, double sampleAspect, int longSidePixels) {
        double displayWidth = codedWidth * sampleAspect;
        double longSide = Math.max(displayWidth, codedHeight);
        double scale = Math.min(1, longSidePixels / longSide);
        int width = Math.max(1, (int) Math.round(displayWidth * scale));
        int height = Math.max(1, (int) Math.round(codedHeight * scale));
        return new int[] {width, height};
    }

    private static double sampleAspect(AVRational sar) {
        if (sar.num() <= 0 || sar.den() <= 0) {
            return 1;
        }
        double aspect = av_q2d(sar);
        return aspect >= 0.1 && aspect <= 10 ? aspect : 1;
    }

    static double origin(AVFormatContext ctx, AVStream stream) {
        if (ctx.start_time() != AV_NOPTS_VALUE) {
            return ctx.start_time() / (double) AV_TIME_BASE;
        }
        if (stream.start_time() != AV_NOPTS_VALUE) {
            return stream.start_time() * av_q2d(stream.time_base());
        }
        return 0;
    }

    static double nominalFps(AVStream stream) {
        for (AVRational rate : new AVRational[] {stream.avg_frame_rate(), stream.r_frame_rate()}) {
            if (rate.num() > 0 && rate.den() > 0 && av_q2d(rate) <= 1000) {
                return av_q2d(rate);
            }
        }
        return FALLBACK_FPS;
    }

    private static double duration(AVFormatContext ctx, AVStream stream) {
        if (ctx.duration() != AV_NOPTS_VALUE && ctx.duration() > 0) {
            return ctx.duration() / (double) AV_TIME_BASE;
        }
        if (stream.duration() != AV_NOPTS_VALUE && stream.duration() > 0) {
            return stream.duration() * av_q2d(stream.time_base());
        }
        return Double.NaN;
    }

    /** A picture ready to deliver: its place in the whole video and its time. */
    private record Ready(byte[] rgb, long index, double seconds) {}
}
