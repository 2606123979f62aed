package dev.scorecast.engine.live;

/**
 * What the listener steers a performance to: the experience (null before one has played), the intensity and whether the
 * sung layer is wanted. The performance holds the latest and replaces it on each control; the parts are told what they
 * need of it (the feed the intensity to arrange at, the singer the relative tempo), so none of them keeps its own copy.
 */
record Intent(Experience experience, double intensity, boolean vocals) {
    /** A new performance: nothing chosen yet, the middle intensity, no vocals. */
    static final Intent NONE = new Intent(null, 0.5, false);

    /** The intent an experience starts with: {@code start}'s experience, intensity and vocals. */
    static Intent of(Control.Start start) {
        return new Intent(start.experience(), start.intensity(), start.vocals());
    }

    Intent withExperience(Experience e) {
        return new Intent(e, intensity, vocals);
    }

    Intent withIntensity(double value) {
        return new Intent(experience, value, vocals);
    }

    Intent withVocals(boolean on) {
        return new Intent(experience, intensity, on);
    }

    /** The intensity's share of the tempo: 0.8 to 1.2 of the section's. */
    double relativeTempo() {
        return 0.8 + 0.4 * intensity;
    }
}
