package dev.scorecast.engine.instruments;

import java.util.SplittableRandom;

/**
 * A small virtual-analog patch (a synthesizer voice): band-limited saw and square oscillators (PolyBLEP) stacked in
 * detuned unison with an optional sine sub an octave down, a resonant low-pass (a topology-preserving
 * state-variable filter) whose cutoff follows the key and an exponential envelope, a tanh drive, and
 * a decay of the level for plucked sounds. It renders one note into samples; the synthesizer then
 * plays those as any sampled instrument, which costs the render loops nothing more than a sample.
 *
 * @param saws       unison saw oscillators (0 or more)
 * @param squares    unison square oscillators
 * @param detuneCents spread of the unison from lowest to highest oscillator
 * @param sub        level of a sine an octave down (0..1)
 * @param cutoffHz   the filter's resting cutoff at middle C, following the key by {@code keyTrack} (0..1)
 * @param envHz      how far the filter envelope opens above the resting cutoff at its peak
 * @param envSeconds the filter envelope's decay time constant
 * @param resonance  0 (none) to 0.9 (nearly ringing)
 * @param drive      0 (clean) to 1 (hot tanh saturation)
 * @param ampDecay   level decay time constant in seconds for plucks; 0 holds the level (a sustaining sound)
 */
public record AnalogPatch(
        int saws,
        int squares,
        double detuneCents,
        double sub,
        double cutoffHz,
        double keyTrack,
        double envHz,
        double envSeconds,
        double resonance,
        double drive,
        double ampDecay) {

    public AnalogPatch {
        if (saws < 0 || squares < 0 || saws + squares == 0 && sub <= 0 || saws + squares > 16) {
            throw new IllegalArgumentException("an analog patch needs 1 to 16 oscillators or a sub");
        }
        if (!(cutoffHz > 0) || resonance < 0 || resonance > 0.95 || drive < 0 || drive > 1) {
            throw new IllegalArgumentException("cutoff > 0, resonance 0..0.95, drive 0..1");
        }
    }

    /**
     * {@code seconds} of MIDI key {@code key} at {@code rate}, brightness scaled by {@code brightness}
     * (1 for a hard note, less for a soft one: the filter opens less). Peak about 0.9.
     */
    public float[] render(int key, double brightness, double seconds, int rate, long seed) {
        int n = (int) Math.round(seconds * rate);
        double freq = 440 * Math.pow(2, (key - 69) / 12.0);
        int voices = saws + squares;
        double[] phase = new double[voices];
        double[] inc = new double[voices];
        SplittableRandom random = new SplittableRandom(seed);
        for (int v = 0; v < voices; v++) {
            double spread = voices == 1 ? 0 : (v / (double) (voices - 1) - 0.5) * detuneCents;
            inc[v] = freq * Math.pow(2, spread / 1200) / rate;
            phase[v] = random.nextDouble(); // free-running oscillators: no phase-locked click at the start
        }
        double subPhase = 0;
        double subInc = freq / 2 / rate;
        double keyFactor = Math.pow(freq / 261.63, keyTrack);
        double norm = 1 / Math.sqrt(Math.max(1, voices));
        double k = 2 - 2 * resonance;
        double ic1 = 0, ic2 = 0;
        double driveGain = 1 + 6 * drive;
        double driveNorm = Math.tanh(driveGain);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            double t = i / (double) rate;
            double x = 0;
            for (int v = 0; v < voices; v++) {
                double p = phase[v];
                double dt = inc[v];
                x += v < saws ? saw(p, dt) : square(p, dt);
                p += dt;
                phase[v] = p - Math.floor(p);
            }
            x *= norm;
            if (sub > 0) {
                x += sub * Math.sin(2 * Math.PI * subPhase);
                subPhase += subInc;
                subPhase -= Math.floor(subPhase);
            }
            double cutoff = (cutoffHz * keyFactor + envHz * Math.exp(-t / envSeconds)) * brightness;
            cutoff = Math.max(20, Math.min(0.45 * rate, cutoff));
            double g = Math.tan(Math.PI * cutoff / rate);
            double a1 = 1 / (1 + g * (g + k));
            double a2 = g * a1;
            double a3 = g * a2;
            double v3 = x - ic2;
            double v1 = a1 * ic1 + a2 * v3;
            double v2 = ic2 + a2 * ic1 + a3 * v3;
            ic1 = 2 * v1 - ic1;
            ic2 = 2 * v2 - ic2;
            double y = drive > 0 ? Math.tanh(driveGain * v2) / driveNorm : v2;
            if (ampDecay > 0) {
                y *= Math.exp(-t / ampDecay);
            }
            out[i] = (float) y;
        }
        float peak = SampleDecoder.peak(out);
        if (peak > 0) {
            float scale = 0.9f / peak;
            for (int i = 0; i < n; i++) {
                out[i] *= scale;
            }
        }
        return out;
    }

    /** A saw from -1 to 1 with the PolyBLEP correction at its reset, which removes most of the aliasing. */
    private static double saw(double p, double dt) {
        return 2 * p - 1 - blep(p, dt);
    }

    private static double square(double p, double dt) {
        double s = p < 0.5 ? 1 : -1;
        return s + blep(p, dt) - blep((p + 0.5) % 1.0, dt);
    }

    private static double blep(double p, double dt) {
        if (p < dt) {
            double u = p / dt;
            return u + u - u * u - 1;
        }
        if (p > 1 - dt) {
            double u = (p - 1) / dt;
            return u * u + u + u + 1;
        }
        return 0;
    }
}
