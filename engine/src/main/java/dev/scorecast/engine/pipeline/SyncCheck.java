package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.audio.PcmWavReader;
import dev.scorecast.engine.music.Score.Accent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures, on the rendered audio, where each planned accent actually sounds. The plan's numbers
 * say where an accent should be; this says where a listener hears it, which is what the sync
 * report promises.
 *
 * <p>An accent is a step up in level: within {@link #SEARCH_SECONDS} of its target, the rise is
 * how much the power of the next {@link #AFTER_MS} ms exceeds that of the {@link #BEFORE_MS} ms
 * before a moment, and the accent is the earliest peak of that rise within {@link #RIVAL_DB} of
 * the largest. It is heard when that rise is at least {@link #MIN_RISE_DB}. A general onset detector
 * is the wrong tool here: tuned to ignore busy backgrounds, it misses a taiko under sustained
 * strings that raises the level by 5 dB, which no listener misses.
 */
public final class SyncCheck {
    /** How far from its target an accent is looked for. */
    static final double SEARCH_SECONDS = 0.15;
    static final int AFTER_MS = 30;
    static final int BEFORE_MS = 50;
    /** The smallest rise taken as an accent: a clearly audible step, above the swing of a busy groove's own beats. */
    static final double MIN_RISE_DB = 3;
    /** A rise this close to the largest in the window is as much an accent as it. */
    static final double RIVAL_DB = 3;
    /** The rise curve peaks where a step is; this far either side it must not be higher. */
    static final int PEAK_MS = 15;
    private static final int BLOCK_FRAMES = 8192;

    private SyncCheck() {}

    /** One accent: where it was planned, where it was heard (null if no rise near), the rise, and whether that is within a frame. */
    public record Point(double target, String kind, int section, Double measured, Double errorSeconds, Double riseDb,
                        boolean withinFrame) {}

    /**
     * @param wav 16-bit PCM at any rate that is a multiple of 1000 Hz
     * @param fps the video's frame rate: an error up to one frame period counts as in sync
     */
    public static List<Point> measure(Path wav, List<Accent> accents, double fps) {
        double[] power = millisecondPower(wav);
        double frame = 1 / fps;
        int search = (int) Math.round(SEARCH_SECONDS * 1000);
        List<Point> points = new ArrayList<>();
        for (Accent accent : accents) {
            int target = (int) Math.round(accent.time() * 1000);
            int from = Math.max(0, target - search);
            int to = Math.min(power.length - AFTER_MS, target + search);
            double[] rise = new double[Math.max(0, to - from + 1)];
            double largest = Double.NEGATIVE_INFINITY;
            for (int ms = from; ms <= to; ms++) {
                rise[ms - from] = riseDb(power, ms);
                largest = Math.max(largest, rise[ms - from]);
            }
            // The accent is where the sound first steps up clearly: the earliest peak of the rise
            // curve within RIVAL_DB of the largest. A later, similar rise is the same sound
            // blooming (a crash cymbal swells for a tenth of a second), not a second onset.
            int best = -1;
            double bestRise = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < rise.length; k++) {
                if (rise[k] >= Math.max(MIN_RISE_DB, largest - RIVAL_DB) && isPeak(rise, k)) {
                    best = from + k;
                    bestRise = rise[k];
                    break;
                }
            }
            if (best < 0) {
                bestRise = largest; // nothing clear enough: report how much it did rise
            }
            boolean heard = best >= 0;
            Double measured = heard ? best / 1000.0 : null;
            Double error = heard ? round(measured - accent.time()) : null;
            points.add(new Point(round(accent.time()), accent.kind(), accent.section(), measured, error,
                    Double.isFinite(bestRise) ? Math.round(bestRise * 10) / 10.0 : null, error != null && Math.abs(error) <= frame + 1e-9));
        }
        return List.copyOf(points);
    }

    /** Whether {@code rise[k]} is the largest within {@link #PEAK_MS} either side: a step, not its slope. */
    private static boolean isPeak(double[] rise, int k) {
        for (int j = Math.max(0, k - PEAK_MS); j <= Math.min(rise.length - 1, k + PEAK_MS); j++) {
            if (rise[j] > rise[k]) {
                return false;
            }
        }
        return true;
    }

    /** Power of the next AFTER_MS over that of the BEFORE_MS before {@code ms}, in dB. */
    static double riseDb(double[] power, int ms) {
        double after = 0;
        for (int k = ms; k < ms + AFTER_MS; k++) {
            after += power[k];
        }
        // Before the first millisecond is silence: music that starts with the video rises from nothing.
        double before = 0;
        for (int k = Math.max(0, ms - BEFORE_MS); k < ms; k++) {
            before += power[k];
        }
        after /= AFTER_MS;
        before /= BEFORE_MS;
        return 10 * Math.log10((after + 1e-12) / (before + 1e-12));
    }

    /** Mean power of the mono mix per millisecond, streamed, so a long file costs 8 bytes per millisecond. */
    static double[] millisecondPower(Path wav) {
        try (PcmWavReader in = PcmWavReader.open(wav)) {
            int perMs = in.sampleRateHz() / 1000;
            double[] power = new double[(int) (in.frames() / perMs)];
            float[][] block = new float[in.channels()][BLOCK_FRAMES];
            long frameIndex = 0;
            double sum = 0;
            int n;
            while ((n = in.read(block, BLOCK_FRAMES)) > 0) {
                for (int i = 0; i < n; i++, frameIndex++) {
                    float mono = 0;
                    for (float[] channel : block) {
                        mono += channel[i];
                    }
                    mono /= block.length;
                    sum += mono * mono;
                    if ((frameIndex + 1) % perMs == 0) {
                        int ms = (int) (frameIndex / perMs);
                        if (ms < power.length) {
                            power[ms] = sum / perMs;
                        }
                        sum = 0;
                    }
                }
            }
            return power;
        }
    }

    private static double round(double seconds) {
        return Math.round(seconds * 10_000) / 10_000.0;
    }
}
