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
 * <p>The parts: a {@link PassOverChoice} decides what the decoder passes over of each packet, a
 * {@link PassOverLedger} counts from the packets' timestamps what it passed over, a {@link FirstGap}
 * keeps a segment's first gap decoded on the way, {@link SegmentBounds} say where a segment starts
 * and stops, a {@link PresentationClock} times the pictures and {@link ReadyPictures} holds those
 * ready to deliver. This class decodes, and asks the screen.
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
    // Decoder errors can repeat without a frame in between; past this many in a row the stream is hopeless.
    private static final int MAX_ERRORS_IN_A_ROW = 10_000;

    private final InputFile in;
    private final StreamDecoder decoder;
    private final PictureScaler scaler;
    private final VideoPackets packets;
    private final GapFiller filler;
    private final double durationSeconds;
    private final double maxSeconds;
    private final PresentationClock clock;
    private final PassOverChoice choice = new PassOverChoice();
    private final PassOverLedger ledger = new PassOverLedger();
    private final FirstGap firstGap = new FirstGap();
    private final ReadyPictures ready = new ReadyPictures();
    /** Packets read to learn timestamps before the decoder needed them; sent before reading on. */
    private final ArrayDeque<AVPacket> ahead = new ArrayDeque<>();

    private final VideoFrame candidate;
    /** The picture delivered last, which the screen compares the next with. */
    private final VideoFrame last;

    private GapScreen screen;
    private SegmentBounds bounds = SegmentBounds.WHOLE_FILE;
    /** Whether pictures are passed over at all: not without a screen, nor once a stream shows it cannot be. */
    private boolean referencesOnly;

    private long lastDeliveredIndex = -1;
    private long nextIndex;
    private long gapsDecoded;
    private long picturesPassedOver;
    private long skipped;
    private int errorsInARow;
    private boolean draining;
    private boolean ended;

    private FfmpegFrameSource(
            InputFile in,
            int videoIndex,
            StreamDecoder decoder,
            PictureScaler scaler,
            GapFiller filler,
            MediaLimits limits,
            GapScreen screen) {
        this.in = in;
        this.screen = screen;
        this.referencesOnly = screen != null;
        this.candidate = new VideoFrame(scaler.width(), scaler.height());
        this.last = new VideoFrame(scaler.width(), scaler.height());
        decoder.passOver(referencesOnly ? choice.outsideGaps() : PassOver.NOTHING);
        this.decoder = decoder;
        this.scaler = scaler;
        this.filler = filler;
        this.packets = new VideoPackets(in, videoIndex);
        AVStream stream = in.stream(videoIndex);
        this.clock = PresentationClock.of(in.context(), stream);
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
                throw new UnsupportedMedia(
                        "file",
                        in.firstAudioStream() >= 0
                                ? "The file has no video stream, only audio; upload a video file."
                                : "The file has no video stream; upload a video file.");
            }
            in.readOnly(videoIndex);
            AVStream stream = in.stream(videoIndex);
            decoder = openDecoder(stream, threads, limits);
            AVCodecParameters par = stream.codecpar();
            int[] size = codedSize(par, longSidePixels);
            scaler = new PictureScaler(size[0], size[1], VideoProbe.rotation(par));
            GapFiller filler = screen == null
                    ? null
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
        return StreamDecoder.open(
                stream,
                Map.of(
                        "threads", Integer.toString(threads),
                        "skip_loop_filter", "all",
                        "max_pixels", Long.toString(limits.maxPixels())),
                "video",
                FIX);
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
        return ready.pollInto(frame);
    }

    /** Decodes until a picture is ready to deliver (with the gap before it, where the screen asks) or the video ends. */
    private void decodeNext() {
        while (!ended) {
            int ret = decoder.receive();
            if (ret >= 0) {
                errorsInARow = 0;
                AVFrame picture = decoder.frame();
                long pts = picture.best_effort_timestamp();
                if (bounds.before(pts)) {
                    continue; // the segment before delivers it
                }
                boolean corrupt = (picture.flags() & FRAME_FLAG_CORRUPT) != 0 || picture.decode_error_flags() != 0;
                if (firstGap.holds(pts)) {
                    if (!corrupt) {
                        byte[] rgb = new byte[candidate.rgb().length];
                        scaler.scale(picture, rgb);
                        firstGap.keep(pts, rgb);
                    }
                    continue; // delivered only if the screen asks for the gap
                }
                if (corrupt) {
                    nextIndex++;
                    skipped++;
                    continue;
                }
                int undecoded = passedOverBefore(pts);
                double seconds = clock.secondsOf(pts);
                if (seconds > maxSeconds) {
                    ended = true; // the probe checked the container's duration; frames beyond it are not believed
                    return;
                }
                scaler.scale(picture, candidate.rgb());
                candidate.stamp(nextIndex + undecoded, seconds);
                if (screen != null
                        && lastDeliveredIndex >= 0
                        && screen.decodeGap(last, candidate, undecoded)
                        && undecoded > 0) {
                    fillGap(pts);
                    undecoded = ledger.pendingBefore(pts); // what the gap could not give
                }
                firstGap.endIfReached(pts); // answered for, or passed by
                if (bounds.reachesStop(pts)) {
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
        long afterPts = ledger.lastDeliveredPts();
        if (firstGap.isBetween(afterPts, pts)) {
            firstGap.forEachPicture(this::acceptFromGap);
            return;
        }
        Map.Entry<Long, Long> keyframe = ledger.keyframeAtOrBefore(afterPts);
        List<GapFiller.Picture> pictures = filler.fill(
                keyframe == null ? AV_NOPTS_VALUE : keyframe.getKey(),
                keyframe == null ? AV_NOPTS_VALUE : keyframe.getValue(),
                afterPts,
                pts);
        if (pictures == null) {
            decodeEverything();
            return;
        }
        pictures.forEach(filled -> acceptFromGap(filled.pts(), filled.rgb()));
    }

    /** Accepts a picture of the gap being filled, after the last accepted one; pictures the gap could not give stay passed over. */
    private void acceptFromGap(long pts, byte[] rgb) {
        accept(pts, ledger.pendingBefore(pts), clock.secondsOf(pts), rgb);
    }

    /**
     * Queues a picture for delivery as the next after the last, {@code undecoded} pictures passed over
     * between them, and remembers it as the one the screen compares the next with.
     */
    private void accept(long pts, int undecoded, double seconds, byte[] rgb) {
        long index = nextIndex + undecoded;
        clock.delivered(seconds);
        picturesPassedOver += undecoded;
        nextIndex = index + 1;
        ready.add(rgb, index, seconds);
        System.arraycopy(rgb, 0, last.rgb(), 0, rgb.length);
        last.stamp(index, seconds);
        lastDeliveredIndex = index;
        ledger.delivered(pts);
    }

    /**
     * How many pictures, by the packets' timestamps, lie between the last delivered picture and
     * the one at {@code pts} and were not decoded. Reads packets ahead until one decodes after
     * {@code pts} (decoding timestamps never exceed presentation ones, so no earlier picture can
     * follow), keeping them for the decoder.
     */
    private int passedOverBefore(long pts) {
        long lastDeliveredPts = ledger.lastDeliveredPts();
        if (!referencesOnly || pts == AV_NOPTS_VALUE || lastDeliveredPts == AV_NOPTS_VALUE || pts <= lastDeliveredPts) {
            return 0;
        }
        while (!packets.ended() && !ledger.readThrough(pts) && referencesOnly) {
            AVPacket next = readVideoPacket();
            if (next != null) {
                ahead.addLast(next);
            }
        }
        if (!referencesOnly) {
            return 0;
        }
        return ledger.pendingBefore(pts);
    }

    /**
     * Passes over every B picture from now on, outside the gaps the screen has decoded, instead of
     * the non-reference ones only; for a stream {@link BidirectionalCheck} found fit for it.
     */
    void passOverBidirectional(boolean bidirectional) {
        choice.bidirectional(bidirectional);
    }

    /** Ends the source before the picture at {@code stopPts}: the first segment, on a source just opened. */
    void endBefore(long stopPts) {
        bounds = bounds.endingBefore(stopPts);
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
        ready.clear();
        ledger.clear();
        draining = false;
        ended = false;
        errorsInARow = 0;
        lastDeliveredIndex = -1;
        clock.restart();
        nextIndex = firstIndex;
        bounds = new SegmentBounds(startPts, stopPts);
        firstGap.openAfter(startPts);
        choice.restart();
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
                decoder.passOver(passOver(next));
            }
            int ret = decoder.send(next);
            if (ret < 0 && ret != Ffmpeg.EAGAIN) {
                skipped++;
            }
        } finally {
            av_packet_free(next);
        }
    }

    /** What the decoder passes over of {@code packet}, about to be sent: nothing of the first gap's pictures. */
    private PassOver passOver(AVPacket packet) {
        long pts = packet.pts();
        boolean discarded = (packet.flags() & AV_PKT_FLAG_DISCARD) != 0;
        PassOver chosen = choice.forPacket(
                pts, discarded, (packet.flags() & AV_PKT_FLAG_KEY) != 0, lastDeliveredIndex < 0, bounds);
        // Only where every B picture is passed over: otherwise the first gap holds reference B
        // pictures this decoder delivers anyway, and it is not one gap but several.
        if (choice.outsideGaps() == PassOver.BIDIRECTIONAL && !discarded) {
            firstGap.sent(pts);
        }
        return !discarded && firstGap.holds(pts) ? PassOver.NOTHING : chosen;
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
        // An edit list's cut packet gives no picture.
        ledger.read(
                packet.pts(),
                packet.dts(),
                (packet.flags() & AV_PKT_FLAG_DISCARD) != 0,
                (packet.flags() & AV_PKT_FLAG_KEY) != 0);
    }

    private void clearAhead() {
        for (AVPacket p; (p = ahead.pollFirst()) != null; ) {
            av_packet_free(p);
        }
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

    private static double duration(AVFormatContext ctx, AVStream stream) {
        if (ctx.duration() != AV_NOPTS_VALUE && ctx.duration() > 0) {
            return ctx.duration() / (double) AV_TIME_BASE;
        }
        if (stream.duration() != AV_NOPTS_VALUE && stream.duration() > 0) {
            return stream.duration() * av_q2d(stream.time_base());
        }
        return Double.NaN;
    }
}
