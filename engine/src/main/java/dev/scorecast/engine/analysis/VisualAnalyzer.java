package dev.scorecast.engine.analysis;

import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.FrameSource;
import dev.scorecast.engine.media.SegmentedFrameSource;
import dev.scorecast.engine.media.VideoFrame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleConsumer;

/**
 * The picture half of the analysis: transitions (hard cuts, fades, dissolves), scenes and the
 * motion curve, from one decode pass at a small size. Every detector sees every frame as it is
 * decoded, so memory stays flat with the video's length apart from a few numbers per
 * {@link #HOP_SECONDS}. Thread-safe: each call has its own state. A call on a file is seconds of
 * native decoding; run it on a platform thread.
 */
public final class VisualAnalyzer {
    /** Seconds between values of {@link VisualAnalysis#motion()}. */
    public static final double HOP_SECONDS = AnalysisAssembler.HOP_SECONDS;

    private static final int PROGRESS_EVERY_FRAMES = 30;

    private VisualAnalyzer() {}

    /** {@link #analyze(Path, VisualOptions, DoubleConsumer)} without progress reports. */
    public static VisualAnalysis analyze(Path video, VisualOptions options) {
        return analyze(video, options, fraction -> {});
    }

    /**
     * Decodes {@code video} with FFmpeg and analyses its picture.
     *
     * @param progress receives the fraction done, 0 to 1, every second of video or so
     * @throws UnsupportedMedia when the file cannot be decoded or not a single picture decodes
     * @throws dev.scorecast.engine.error.Unprocessable when it breaks {@code options.limits()}
     */
    public static VisualAnalysis analyze(Path video, VisualOptions options, DoubleConsumer progress) {
        Objects.requireNonNull(video, "video");
        Objects.requireNonNull(options, "options");
        try (FrameSource source = options.everyPicture()
                ? FfmpegFrameSource.open(video, options.limits(), options.longSidePixels())
                : SegmentedFrameSource.open(video, options.limits(), options.longSidePixels(), ChangeScreen::new)) {
            return analyze(source, options, progress);
        }
    }

    /** Analyses the pictures {@code source} delivers; the source stays open. */
    public static VisualAnalysis analyze(FrameSource source, VisualOptions options, DoubleConsumer progress) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(progress, "progress");
        VideoFrame picture = new VideoFrame(source.width(), source.height());
        FrameHistory history = new FrameHistory(source.width(), source.height(), FrameHistory.DEFAULT_CAPACITY);
        FrameMeasurer measurer = new FrameMeasurer(source.width(), source.height(), history);
        HardCutDetector hardCuts = new HardCutDetector(options.cutRatio(), options.minCutContentChange());
        FadeDetector fades = new FadeDetector();
        DissolveDetector dissolves = new DissolveDetector();
        MotionDetector motion = new MotionDetector(HOP_SECONDS, options.minCutContentChange());
        LookDetector look = new LookDetector(HOP_SECONDS);
        List<FrameDetector> detectors = List.of(hardCuts, fades, dissolves, motion, look);

        double containerSeconds = source.durationSeconds();
        long frames = 0;
        double lastSeconds = 0;
        double lastInterval = Double.NaN;
        while (source.read(picture)) {
            Frame frame = measurer.measure(picture);
            for (FrameDetector detector : detectors) {
                detector.accept(frame);
            }
            frames++;
            lastSeconds = frame.timeSeconds();
            if (frame.intervalSeconds() > 0) {
                lastInterval = frame.intervalSeconds();
            }
            if (frames % PROGRESS_EVERY_FRAMES == 0 && containerSeconds > 0) {
                progress.accept(Math.min(1, lastSeconds / containerSeconds));
            }
        }
        if (frames == 0) {
            throw new UnsupportedMedia(
                    "file",
                    "Not one picture of the video could be decoded, so it is probably damaged; "
                            + "re-encode it as H.264 and upload again.");
        }
        detectors.forEach(FrameDetector::finish);

        double durationSeconds = containerSeconds > 0
                ? containerSeconds
                : lastSeconds + (Double.isNaN(lastInterval) ? 1 / 30.0 : lastInterval);
        List<Cut> cuts = MinSceneLength.apply(
                Transitions.resolve(hardCuts.transitions(), fades.transitions(), dissolves.transitions()),
                options.minSceneSeconds());
        int hops = Math.max(1, (int) Math.ceil(durationSeconds / HOP_SECONDS - 1e-9));
        double[] motionCurve = round(motion.curve(hops));
        SceneBuilder.Curves curves = new SceneBuilder.Curves(
                motionCurve,
                look.brightness(hops),
                look.colorfulness(hops),
                look.warmth(hops),
                motion.camera(hops),
                motion.subject(hops),
                motion.flicker(hops));
        List<Scene> scenes = SceneBuilder.build(cuts, durationSeconds, HOP_SECONDS, curves);
        progress.accept(1);
        // Passed-over pictures are intact; they count as read, so the figure means the same with either way of
        // decoding.
        return new VisualAnalysis(
                cuts,
                scenes,
                HOP_SECONDS,
                motionCurve,
                frames + source.framesPassedOver(),
                source.framesSkipped(),
                warnings(frames, source.framesSkipped()));
    }

    private static List<String> warnings(long decoded, long skipped) {
        List<String> warnings = new ArrayList<>();
        if (skipped > 0) {
            warnings.add(skipped + " damaged video frame" + (skipped == 1 ? " was" : "s were")
                    + " skipped; cuts and motion near " + (skipped == 1 ? "it" : "them") + " may be missed.");
        }
        if (decoded == 1) {
            warnings.add("The video holds a single picture, so it has no cuts and no motion.");
        }
        return List.copyOf(warnings);
    }

    private static double[] round(double[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = Math.round(values[i] * 1000) / 1000.0;
        }
        return out;
    }
}
