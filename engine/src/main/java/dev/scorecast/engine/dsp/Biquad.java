package dev.scorecast.engine.dsp;

/**
 * A second-order IIR section's coefficients, normalised so that {@code a0 = 1}:
 * {@code y[n] = b0 x[n] + b1 x[n-1] + b2 x[n-2] - a1 y[n-1] - a2 y[n-2]}.
 */
public record Biquad(double b0, double b1, double b2, double a1, double a2) {

    /** Gain in dB at {@code frequencyHz} for a filter running at {@code sampleRateHz}. */
    public double gainDb(double frequencyHz, double sampleRateHz) {
        double w = 2 * Math.PI * frequencyHz / sampleRateHz;
        double cos1 = Math.cos(w);
        double sin1 = Math.sin(w);
        double cos2 = Math.cos(2 * w);
        double sin2 = Math.sin(2 * w);
        double numRe = b0 + b1 * cos1 + b2 * cos2;
        double numIm = -(b1 * sin1 + b2 * sin2);
        double denRe = 1 + a1 * cos1 + a2 * cos2;
        double denIm = -(a1 * sin1 + a2 * sin2);
        return 10 * Math.log10((numRe * numRe + numIm * numIm) / (denRe * denRe + denIm * denIm));
    }
}
