package dev.scorecast.engine.dsp;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Arrays;

/**
 * Changes the sample rate of a mono stream by a rational factor: conceptually upsample by
 * {@code up}, low-pass, keep every {@code down}-th sample, computing only the kept samples. The
 * low-pass is a Kaiser-windowed sinc whose pass band ends at 80 % of the lower Nyquist frequency
 * and whose stop band (70 dB down) starts at it, so nothing folds back into the output band. The
 * filter's delay is compensated: output sample {@code n} is the signal at {@code n / outRateHz}
 * seconds, as is input sample {@code n} at {@code n / inRateHz}.
 *
 * <p>Streaming: {@link #push} as blocks arrive, then {@link #finish}; the output is the same as
 * {@link #resample} on the whole signal. Not thread-safe; the filter tables could be shared but are
 * small (a few KB for 48 to 16 kHz).
 */
public final class PolyphaseResampler {

    private static final double PASS_FRACTION = 0.8;
    private static final double STOP_ATTENUATION_DB = 70;

    private final int up;
    private final int down;
    private final int tapsPerPhase;
    private final int center; // of the prototype filter, in upsampled samples
    private final float[][] phases;
    // Input not yet consumed, preceded by the tapsPerPhase samples the next output still needs.
    private float[] pending;
    private float[][] split; // decimation's per-phase copies of the input, reused
    private float[] shifted;
    private int pendingCount;
    private long pendingStart; // input index of pending[0]
    private long nextOutput;
    private long inputCount;

    public PolyphaseResampler(int inRateHz, int outRateHz) {
        if (inRateHz < 1 || inRateHz > 1_000_000) {
            throw new InvalidParameter("inRateHz", "must be in [1, 1000000] Hz, was " + inRateHz);
        }
        if (outRateHz < 1 || outRateHz > 1_000_000) {
            throw new InvalidParameter("outRateHz", "must be in [1, 1000000] Hz, was " + outRateHz);
        }
        int g = gcd(inRateHz, outRateHz);
        this.up = outRateHz / g;
        this.down = inRateHz / g;
        if (up > 1000) { // each phase is a filter of its own
            throw new InvalidParameter(
                    "outRateHz",
                    inRateHz + " to " + outRateHz + " Hz needs a filter bank of " + up
                            + " phases; pick rates with a larger common divisor");
        }
        double upsampledRate = (double) inRateHz * up;
        double nyquist = Math.min(inRateHz, outRateHz) / 2.0;
        double transitionHz = nyquist * (1 - PASS_FRACTION);
        double cutoff = nyquist * (1 + PASS_FRACTION) / 2 / upsampledRate; // cycles per upsampled sample
        double beta = 0.1102 * (STOP_ATTENUATION_DB - 8.7);
        int length =
                (int) Math.ceil((STOP_ATTENUATION_DB - 8) / (2.285 * 2 * Math.PI * transitionHz / upsampledRate)) + 1;
        this.tapsPerPhase = (length + up - 1) / up;
        int total = tapsPerPhase * up;
        this.center = (total - 1) / 2;
        this.phases = design(total, cutoff, beta);
        this.pending = new float[tapsPerPhase + 4096];
        // The first outputs look back before the signal: pretend it was preceded by silence.
        this.pendingStart = -tapsPerPhase;
        this.pendingCount = tapsPerPhase;
    }

    /** Resamples a whole signal. Pure. */
    public static float[] resample(float[] in, int inRateHz, int outRateHz) {
        PolyphaseResampler r = new PolyphaseResampler(inRateHz, outRateHz);
        float[] head = r.push(in, 0, in.length);
        float[] tail = r.finish();
        float[] out = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }

    /** Takes the next {@code length} input samples; returns the output samples they complete. */
    public float[] push(float[] in, int offset, int length) {
        ensureRoom(length);
        System.arraycopy(in, offset, pending, pendingCount, length);
        pendingCount += length;
        inputCount += length;
        return produce(false);
    }

    /** Ends the input (as if followed by silence) and returns the remaining output; push no more after it. */
    public float[] finish() {
        return produce(true);
    }

    private float[] produce(boolean last) {
        long end; // one past the last output this call can make
        if (last) {
            end = (inputCount * up + down - 1) / down;
            // The signal is followed by silence: enough of it for the last output's filter to see.
            long newestNeeded = Math.floorDiv((end - 1) * down + center, up);
            int silence = (int) Math.max(0, newestNeeded - (pendingStart + pendingCount - 1));
            ensureRoom(silence);
            Arrays.fill(pending, pendingCount, pendingCount + silence, 0f);
            pendingCount += silence;
        } else {
            // Outputs whose newest input sample, floor((n * down + center) / up), has arrived.
            long newestArrived = pendingStart + pendingCount - 1;
            end = Math.floorDiv((newestArrived + 1) * up - center - 1, down) + 1;
        }
        int count = (int) Math.max(0, end - nextOutput);
        float[] out = new float[count];
        if (up == 1) {
            decimate(out);
        } else {
            interpolate(out);
        }
        nextOutput += count;
        discardConsumed();
        return out;
    }

    /**
     * Integer decimation, tap by tap over all outputs of the block: the input is split into its
     * {@code down} phases so that every tap reads a contiguous run, a multiply-add over two
     * arrays that the JIT vectorises (a per-output dot product would not be).
     */
    private void decimate(float[] out) {
        int count = out.length;
        if (count == 0) {
            return;
        }
        int base = (int) (nextOutput * down + center - pendingStart); // the newest input of the first output
        int phaseLength = count + base / down + 1;
        if (split == null || split[0].length < phaseLength) {
            split = new float[down][phaseLength];
        }
        for (int r = 0; r < down; r++) {
            float[] phase = split[r];
            for (int q = 0, i = r; q < phaseLength && i < pendingCount; q++, i += down) {
                phase[q] = pending[i];
            }
        }
        float[] taps = phases[0];
        if (shifted == null || shifted.length < count) {
            shifted = new float[count];
        }
        for (int k = 0; k < tapsPerPhase; k++) {
            int index = base - k;
            // A copy per tap, so that the multiply-add reads both arrays at the same index: the
            // JIT vectorises that form and not one with an offset between the arrays.
            System.arraycopy(split[index % down], index / down, shifted, 0, count);
            float c = taps[k];
            for (int i = 0; i < count; i++) {
                out[i] += c * shifted[i];
            }
        }
    }

    /** The general case, one dot product per output. */
    private void interpolate(float[] out) {
        for (int i = 0; i < out.length; i++) {
            long t = (nextOutput + i) * down + center;
            long newest = Math.floorDiv(t, up);
            float[] taps = phases[(int) (t - newest * up)];
            int base = (int) (newest - pendingStart); // never below tapsPerPhase - 1: see discardConsumed
            double y = 0;
            for (int k = 0; k < tapsPerPhase; k++) {
                y += taps[k] * pending[base - k];
            }
            out[i] = (float) y;
        }
    }

    private void ensureRoom(int more) {
        if (pendingCount + more > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingCount + more));
        }
    }

    /** Drops input that no future output reaches back to. */
    private void discardConsumed() {
        long oldestNeeded = Math.floorDiv(nextOutput * down + center, up) - tapsPerPhase + 1;
        int drop = Math.clamp(oldestNeeded - pendingStart, 0, pendingCount);
        System.arraycopy(pending, drop, pending, 0, pendingCount - drop);
        pendingCount -= drop;
        pendingStart += drop;
    }

    /** phases[p][k] = prototype[p + k * up] * up: the up-fold gain makes up for the inserted zeros. */
    private float[][] design(int total, double cutoff, double beta) {
        float[][] bank = new float[up][tapsPerPhase];
        double norm = InterSampleFilter.bessel0(beta);
        for (int n = 0; n < total; n++) {
            double t = n - center;
            double r = t / (center + 1.0);
            double window = InterSampleFilter.bessel0(beta * Math.sqrt(Math.max(0, 1 - r * r))) / norm;
            double h = 2 * cutoff * InterSampleFilter.sinc(2 * cutoff * t) * window * up;
            bank[n % up][n / up] = (float) h;
        }
        return bank;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
