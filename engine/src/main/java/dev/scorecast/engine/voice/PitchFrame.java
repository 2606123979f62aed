package dev.scorecast.engine.voice;

/**
 * One analysed frame: {@code timeSeconds} is the centre of its window, {@code hz} the estimated
 * fundamental (0 when unvoiced), {@code aperiodicity} YIN's normalised difference at that period
 * (0 = perfectly periodic, about 1 = noise).
 */
public record PitchFrame(double timeSeconds, double hz, double aperiodicity, boolean voiced) {

    /** Distance from {@code referenceHz} in cents (positive = sharp). */
    public double centsFrom(double referenceHz) {
        return 1200 * Math.log(hz / referenceHz) / Math.log(2);
    }

    /** Equal-tempered frequency of a MIDI note number (A4 = 69 = 440 Hz). */
    public static double midiToHz(double midi) {
        return 440 * Math.pow(2, (midi - 69) / 12);
    }
}
