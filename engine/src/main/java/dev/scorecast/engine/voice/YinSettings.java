package dev.scorecast.engine.voice;

import dev.scorecast.engine.error.InvalidParameter;

/**
 * How {@link Yin} tracks pitch. Frames start every {@code hopSeconds}; each compares a window of
 * {@code windowSeconds} with itself shifted by every lag from {@code 1 / maxHz} to {@code 1 / minHz}.
 * A frame is voiced when its best normalised difference (aperiodicity, 0 = perfectly periodic) is
 * at most {@code voicedThreshold} and its level reaches {@code silenceDbfs}.
 */
public record YinSettings(
        double hopSeconds,
        double windowSeconds,
        double minHz,
        double maxHz,
        double threshold,
        double voicedThreshold,
        double silenceDbfs) {

    /**
     * 20 ms frames and windows; 60-1100 Hz covers bass to soprano; 0.1 is the YIN paper's
     * absolute threshold; 0.3 as the voicing limit accepts breathy vowels but not hiss.
     */
    public static final YinSettings DEFAULT = new YinSettings(0.020, 0.020, 60, 1100, 0.1, 0.3, -50);

    public YinSettings {
        if (!(hopSeconds > 0 && hopSeconds <= 1)) {
            throw new InvalidParameter("hopSeconds", "must be in (0, 1] seconds, was " + hopSeconds);
        }
        if (!(windowSeconds > 0 && windowSeconds <= 1)) {
            throw new InvalidParameter("windowSeconds", "must be in (0, 1] seconds, was " + windowSeconds);
        }
        if (!(minHz >= 20 && minHz < maxHz)) {
            throw new InvalidParameter("minHz", "must be at least 20 Hz and below maxHz, was " + minHz);
        }
        if (!(maxHz <= 8000)) {
            throw new InvalidParameter("maxHz", "must be at most 8000 Hz, was " + maxHz);
        }
        if (!(threshold > 0 && threshold < 1)) {
            throw new InvalidParameter("threshold", "must be in (0, 1), was " + threshold);
        }
        if (!(voicedThreshold >= threshold && voicedThreshold <= 1)) {
            throw new InvalidParameter("voicedThreshold", "must be in [threshold, 1], was " + voicedThreshold);
        }
        if (!(silenceDbfs < 0)) {
            throw new InvalidParameter("silenceDbfs", "must be negative, was " + silenceDbfs);
        }
    }

    /** The same settings with another hop, e.g. a finer one for pitch marking. */
    public YinSettings withHop(double seconds) {
        return new YinSettings(seconds, windowSeconds, minHz, maxHz, threshold, voicedThreshold, silenceDbfs);
    }
}
