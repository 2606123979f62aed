package dev.scorecast.engine.dsp;

import java.util.Arrays;

/**
 * An algorithmic room for send effects: a feedback delay network of eight lines (29.7 to 73.1 ms
 * times {@code size}, mutually prime in samples) mixed by a Householder matrix (every line feeds
 * every other, energy-preserving), each with a one-pole low-pass so high frequencies die sooner
 * ({@code damping} 0 = bright, 0.9 = dark), and a per-line loss that sets the decay time: the
 * tail falls 60 dB in {@code decaySeconds} at low frequencies. The input, summed to mono, goes
 * through a pre-delay and four series all-pass diffusers first (so a drum hit blooms instead of
 * fluttering); the even lines make the left output and the odd lines the right, so the tail is
 * wide and decorrelated.
 *
 * <p>In place and <b>wet only</b>: the block is replaced by the reverb's output, as a send's
 * return. It is linear and time-invariant, so the reverb of a sum is the sum of the reverbs; that
 * is what lets every stem carry its own share of the room exactly.
 */
public final class FdnReverb implements BlockProcessor {

    private static final double[] LINE_MS = {29.7, 37.1, 41.1, 43.7, 53.3, 59.3, 67.1, 73.1};
    /** Schroeder's diffuser lengths, scaled from his 29.76 kHz to milliseconds. */
    private static final double[] DIFFUSER_MS = {4.77, 3.60, 12.74, 9.31};

    private static final double DIFFUSION = 0.7;
    private static final int N = LINE_MS.length;
    /** Output scaling: the eight lines summed four to a side. */
    private static final float OUT = 0.35f;

    /** The eight lines share one write position; each is a power-of-two ring read {@code delay[k]} behind it. */
    private final float[][] lines = new float[N][];

    private final int[] delay = new int[N];
    private final int mask;
    private final double[] loss = new double[N];
    private final double[] lowState = new double[N];
    private final double damping;
    private final float[][] diffusers = new float[DIFFUSER_MS.length][];
    private final int[] diffPos = new int[DIFFUSER_MS.length];
    private final float[] preDelay;
    private int prePos;
    private int write;

    public FdnReverb(double decaySeconds, double damping, double preDelayMs, double size, int rate) {
        if (!(decaySeconds >= 0.1 && decaySeconds <= 20)) {
            throw new IllegalArgumentException("reverb decay must be 0.1 to 20 s, was " + decaySeconds);
        }
        if (!(damping >= 0 && damping < 1)) {
            throw new IllegalArgumentException("reverb damping must be 0 to below 1, was " + damping);
        }
        if (!(preDelayMs >= 0 && preDelayMs <= 500) || !(size >= 0.25 && size <= 4)) {
            throw new IllegalArgumentException("reverb pre-delay 0 to 500 ms, size 0.25 to 4");
        }
        int previous = 0;
        int longest = 0;
        for (int i = 0; i < N; i++) {
            int len = nextPrime(Math.max(previous + 1, (int) Math.round(LINE_MS[i] * size * rate / 1000)));
            previous = len;
            delay[i] = len;
            longest = Math.max(longest, len);
            loss[i] = Math.pow(10, -3.0 * len / (decaySeconds * rate));
        }
        int ring = Integer.highestOneBit(longest) << 1;
        for (int i = 0; i < N; i++) {
            lines[i] = new float[ring];
        }
        this.mask = ring - 1;
        for (int i = 0; i < diffusers.length; i++) {
            diffusers[i] = new float[nextPrime((int) Math.round(DIFFUSER_MS[i] * rate / 1000))];
        }
        this.damping = damping;
        this.preDelay = new float[Math.max(1, (int) Math.round(preDelayMs * rate / 1000))];
    }

    @Override
    public void process(float[][] channels, int offset, int frames) {
        float[] l = channels[0];
        float[] r = channels.length > 1 ? channels[1] : channels[0];
        // Everything the inner loop touches in locals, so the JIT keeps it in registers.
        final double damp = damping;
        final int m = mask;
        final float[] b0 = lines[0], b1 = lines[1], b2 = lines[2], b3 = lines[3];
        final float[] b4 = lines[4], b5 = lines[5], b6 = lines[6], b7 = lines[7];
        final int d0 = delay[0], d1 = delay[1], d2 = delay[2], d3 = delay[3];
        final int d4 = delay[4], d5 = delay[5], d6 = delay[6], d7 = delay[7];
        final double g0 = loss[0], g1 = loss[1], g2 = loss[2], g3 = loss[3];
        final double g4 = loss[4], g5 = loss[5], g6 = loss[6], g7 = loss[7];
        double f0 = lowState[0], f1 = lowState[1], f2 = lowState[2], f3 = lowState[3];
        double f4 = lowState[4], f5 = lowState[5], f6 = lowState[6], f7 = lowState[7];
        int w = write;
        for (int i = offset, end = offset + frames; i < end; i++) {
            float in = 0.5f * (l[i] + r[i]);
            float x = preDelay[prePos];
            preDelay[prePos] = in;
            if (++prePos == preDelay.length) {
                prePos = 0;
            }
            // diffusers: all-pass, y = -g x + d; d' = x + g y
            for (int k = 0; k < diffusers.length; k++) {
                float[] d = diffusers[k];
                int p = diffPos[k];
                float y = (float) (-DIFFUSION * x + d[p]);
                d[p] = (float) (x + DIFFUSION * y);
                diffPos[k] = p + 1 == d.length ? 0 : p + 1;
                x = y;
            }
            // each line: read, one-pole low-pass (damping), loss
            f0 += (1 - damp) * (b0[(w - d0) & m] - f0);
            f1 += (1 - damp) * (b1[(w - d1) & m] - f1);
            f2 += (1 - damp) * (b2[(w - d2) & m] - f2);
            f3 += (1 - damp) * (b3[(w - d3) & m] - f3);
            f4 += (1 - damp) * (b4[(w - d4) & m] - f4);
            f5 += (1 - damp) * (b5[(w - d5) & m] - f5);
            f6 += (1 - damp) * (b6[(w - d6) & m] - f6);
            f7 += (1 - damp) * (b7[(w - d7) & m] - f7);
            double o0 = f0 * g0, o1 = f1 * g1, o2 = f2 * g2, o3 = f3 * g3;
            double o4 = f4 * g4, o5 = f5 * g5, o6 = f6 * g6, o7 = f7 * g7;
            // Householder feedback: every line gets its own output minus a quarter of the sum
            double s = 0.25 * (o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7);
            int at = w & m;
            b0[at] = (float) (o0 - s + x);
            b1[at] = (float) (o1 - s + x);
            b2[at] = (float) (o2 - s - x);
            b3[at] = (float) (o3 - s - x);
            b4[at] = (float) (o4 - s + x);
            b5[at] = (float) (o5 - s + x);
            b6[at] = (float) (o6 - s - x);
            b7[at] = (float) (o7 - s - x);
            w++;
            l[i] = OUT * (float) (o0 - o2 + o4 - o6);
            if (r != l) {
                r[i] = OUT * (float) (o1 - o3 + o5 - o7);
            }
        }
        write = w & m;
        lowState[0] = flush(f0);
        lowState[1] = flush(f1);
        lowState[2] = flush(f2);
        lowState[3] = flush(f3);
        lowState[4] = flush(f4);
        lowState[5] = flush(f5);
        lowState[6] = flush(f6);
        lowState[7] = flush(f7);
    }

    private static double flush(double v) {
        return Math.abs(v) < 1e-25 ? 0 : v;
    }

    public void reset() {
        for (float[] b : lines) {
            Arrays.fill(b, 0);
        }
        for (float[] d : diffusers) {
            Arrays.fill(d, 0);
        }
        Arrays.fill(preDelay, 0);
        Arrays.fill(lowState, 0);
        write = 0;
    }

    private static int nextPrime(int n) {
        int p = Math.max(2, n);
        while (!isPrime(p)) {
            p++;
        }
        return p;
    }

    private static boolean isPrime(int n) {
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
