package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.audio.OnsetDetector;
import dev.scorecast.engine.analysis.audio.OnsetRules;
import dev.scorecast.engine.analysis.audio.PcmWavReader;
import dev.scorecast.engine.music.Score.Accent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures, on the rendered audio, where each planned accent actually sounds: the onset nearest
 * to its target within {@link #SEARCH_SECONDS}. The plan's numbers say where an accent should be;
 * this says where a listener hears it, which is what the sync report promises.
 */
public final class SyncCheck {
    /** Onsets further than this from a target are not taken as its accent. */
    static final double SEARCH_SECONDS = 0.15;
    private static final int BLOCK_FRAMES = 8192;

    private SyncCheck() {}

    /** One accent: where it was planned, where it was heard (null if no onset near), and whether that is within a frame. */
    public record Point(double target, String kind, int section, Double measured, Double errorSeconds, boolean withinFrame) {}

    /**
     * @param wav 16-bit PCM, any rate that is a multiple of 100 Hz
     * @param fps the video's frame rate: an error up to one frame period counts as in sync
     */
    public static List<Point> measure(Path wav, List<Accent> accents, double fps) {
        List<Double> onsets;
        try (PcmWavReader in = PcmWavReader.open(wav)) {
            OnsetDetector detector = new OnsetDetector(in.sampleRateHz());
            float[][] block = new float[in.channels()][BLOCK_FRAMES];
            float[] mono = new float[BLOCK_FRAMES];
            int n;
            while ((n = in.read(block, BLOCK_FRAMES)) > 0) {
                for (int i = 0; i < n; i++) {
                    float sum = 0;
                    for (float[] channel : block) {
                        sum += channel[i];
                    }
                    mono[i] = sum / block.length;
                }
                detector.accept(mono, 0, n);
            }
            onsets = detector.finish(OnsetRules.DEFAULT);
        }
        double frame = 1 / fps;
        List<Point> points = new ArrayList<>();
        for (Accent accent : accents) {
            Double nearest = null;
            for (double onset : onsets) {
                if (Math.abs(onset - accent.time()) <= SEARCH_SECONDS
                        && (nearest == null || Math.abs(onset - accent.time()) < Math.abs(nearest - accent.time()))) {
                    nearest = onset;
                }
            }
            Double error = nearest == null ? null : round(nearest - accent.time());
            points.add(new Point(round(accent.time()), accent.kind(), accent.section(), nearest == null ? null : round(nearest), error,
                    error != null && Math.abs(error) <= frame + 1e-9));
        }
        return List.copyOf(points);
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10_000) / 10_000.0;
    }
}
