package dev.scorecast.engine.core;

/**
 * The one sample rate of every sound Scorecast makes, mixes, analyses and delivers: 48 kHz, video's
 * rate (an AAC or Opus track beside a picture, and every frame time a whole number of samples at
 * 25, 30 and 60 fps). Decoders resample to it on the way in; nothing else runs at another rate.
 */
public final class AudioRate {
    /** Samples a second, per channel. */
    public static final int HZ = 48_000;

    private AudioRate() {}
}
