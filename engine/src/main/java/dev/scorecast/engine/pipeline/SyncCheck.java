package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.music.Score.Accent;
import dev.scorecast.engine.render.Stem;
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
 * the largest; the step's start is then placed to the millisecond on the power itself
 * ({@link #onset}). It is heard when that rise is at least {@link #MIN_RISE_DB}. A general onset detector
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
    public record Point(
            double target,
            String kind,
            int section,
            Double measured,
            Double errorSeconds,
            Double riseDb,
            boolean withinFrame) {}

    /**
     * @param wav 16-bit PCM at any rate that is a multiple of 1000 Hz
     * @param fps the video's frame rate: an error up to one frame period counts as in sync
     */
    /**
     * Measures each accent where it is struck: on the stem of a group that strikes accents (the
     * drums' crash and kick, the effects' impact) where it is the clearest step up, not masked by
     * the rest of the band, then checks it in the mix: the master must rise there too (at least {@link #MIN_RISE_DB}
     * within {@link #PEAK_MS}), or the accent is reported as not heard. In a dense mix the master's
     * own steepest rise near a cut may be a groove kick or a pad's attack 60 ms away; the struck
     * stems have the accent as their one clear step (the band leaves the 200 ms before it clear).
     * An accent the striking stems do not mark (no drums or effects there) is measured on the master.
     *
     * @param master 16-bit PCM master, sample-aligned with the stems
     * @param stems  the rendered stems; those of BEATS and FX carry the accents
     */
    public static List<Point> measure(Path master, List<Stem> stems, List<Accent> accents, double fps) {
        double[] mix = millisecondPower(master);
        List<double[]> striking = new ArrayList<>();
        for (Stem stem : stems) {
            if (stem.group() == InstrumentGroup.BEATS || stem.group() == InstrumentGroup.FX) {
                striking.add(millisecondPower(stem.wav()));
            }
        }
        double frame = 1 / fps;
        List<Point> points = new ArrayList<>();
        for (Accent accent : accents) {
            Step onMix = step(mix, accent.time());
            // The stem where the accent is the clearest step carries it: the effects' impact
            // where the drums' cymbals still ring, the drums where no impact is played.
            Step step = onMix;
            Step best = null;
            for (double[] power : striking) {
                Step candidate = step(power, accent.time());
                if (candidate.ms() >= 0 && (best == null || candidate.riseDb() > best.riseDb())) {
                    best = candidate;
                }
            }
            if (best != null) {
                step = best;
            }
            Double measured = null;
            double rise = step == onMix ? step.riseDb() : mixRise(mix, step.ms());
            if (step.ms() >= 0 && rise >= MIN_RISE_DB) {
                measured = step.ms() / 1000.0;
            } else if (step != onMix) {
                rise = Math.max(rise, onMix.riseDb());
            }
            Double error = measured == null ? null : round(measured - accent.time());
            points.add(new Point(
                    round(accent.time()),
                    accent.kind(),
                    accent.section(),
                    measured,
                    error,
                    Double.isFinite(rise) ? Math.round(rise * 10) / 10.0 : null,
                    error != null && Math.abs(error) <= frame + 1e-9));
        }
        return List.copyOf(points);
    }

    /** Where a power curve steps up near {@code target} (ms, -1 if nowhere clearly) and by how much (dB). */
    private record Step(int ms, double riseDb) {}

    private static Step step(double[] power, double target) {
        int centre = (int) Math.round(target * 1000);
        int search = (int) Math.round(SEARCH_SECONDS * 1000);
        int from = Math.max(0, centre - search);
        int to = Math.min(power.length - AFTER_MS, centre + search);
        double[] rise = new double[Math.max(0, to - from + 1)];
        double largest = Double.NEGATIVE_INFINITY;
        for (int ms = from; ms <= to; ms++) {
            rise[ms - from] = riseDb(power, ms);
            largest = Math.max(largest, rise[ms - from]);
        }
        // The accent is where the sound first steps up clearly: the earliest peak of the rise
        // curve within RIVAL_DB of the largest. A later, similar rise is the same sound
        // blooming (a crash cymbal swells for a tenth of a second), not a second onset.
        for (int k = 0; k < rise.length; k++) {
            if (rise[k] >= Math.max(MIN_RISE_DB, largest - RIVAL_DB) && isPeak(rise, k)) {
                return new Step(onset(power, from + k), rise[k]);
            }
        }
        return new Step(-1, largest); // nothing clear enough: how much it did rise
    }

    /**
     * The millisecond the step near {@code peak} starts: the first one (of two in a row) whose
     * power is halfway, in dB, between the level before the step and the level of its first
     * {@link #AFTER_MS} ms, and at most 12 dB under the latter. The rise curve alone peaks anywhere over a plateau as wide as the
     * after-window is longer than the attack (a crash's burst fits in it from 10 ms early on),
     * and its earliest peak then lies early by up to that much; the power itself jumps within a
     * millisecond or two of the attack.
     */
    static int onset(double[] power, int peak) {
        int beforeEnd = Math.max(0, peak - AFTER_MS);
        double before = 0;
        int n = 0;
        for (int k = Math.max(0, beforeEnd - BEFORE_MS); k < beforeEnd; k++, n++) {
            before += power[k];
        }
        before = n == 0 ? 0 : before / n;
        double after = 0;
        for (int k = peak; k < Math.min(power.length, peak + AFTER_MS); k++) {
            after += power[k];
        }
        after /= AFTER_MS;
        // Halfway in dB, but never more than 12 dB under the step's level: over a near-silent
        // gap halfway is low enough for the last of a release to pass for the attack.
        double threshold = Math.max(Math.sqrt((before + 1e-12) * (after + 1e-12)), after / 16);
        for (int k = beforeEnd; k <= Math.min(power.length - 2, peak + PEAK_MS); k++) {
            if (power[k] >= threshold && power[k + 1] >= threshold) {
                return k;
            }
        }
        return peak;
    }

    /** The master's largest rise within {@link #PEAK_MS} of {@code ms}: how much the mix steps up where the accent is struck. */
    private static double mixRise(double[] mix, int ms) {
        double best = Double.NEGATIVE_INFINITY;
        for (int k = Math.max(0, ms - PEAK_MS); k <= Math.min(mix.length - AFTER_MS, ms + PEAK_MS); k++) {
            best = Math.max(best, riseDb(mix, k));
        }
        return best;
    }

    /** Measured on the master alone (no stems). */
    public static List<Point> measure(Path wav, List<Accent> accents, double fps) {
        return measure(wav, List.of(), accents, fps);
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

    /** Mean power of the mono mix per millisecond, streamed, so a long file costs 8 bytes per millisecond. Any WAV {@link WavReader} reads. */
    static double[] millisecondPower(Path wav) {
        try (WavReader in = WavReader.open(wav, "sync", "the sync check")) {
            int perMs = in.rateHz() / 1000;
            double[] power = new double[(int) (in.frames() / perMs)];
            float[][] block = new float[2][BLOCK_FRAMES];
            long frameIndex = 0;
            double sum = 0;
            long frames = in.frames();
            while (frameIndex < frames) {
                int n = (int) Math.min(BLOCK_FRAMES, frames - frameIndex);
                in.readStereo(block, n);
                for (int i = 0; i < n; i++, frameIndex++) {
                    float mono = (block[0][i] + block[1][i]) / 2;
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
