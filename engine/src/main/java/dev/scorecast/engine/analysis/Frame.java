package dev.scorecast.engine.analysis;

/**
 * One picture as the detectors see it: its pixels, a few whole-picture measures and how much it
 * differs from the picture before. Every measure is a fraction of full scale, in [0, 1]. The
 * analyzer reuses one instance for the whole pass, so a detector must copy anything it keeps;
 * {@link #history()} keeps the compact facts of recent frames for looking back.
 */
public final class Frame {
    long ordinal;
    long index;
    double timeSeconds;
    double intervalSeconds = Double.NaN;
    final int width;
    final int height;
    byte[] rgb;
    byte[] luma;
    double meanLuma;
    double litFraction;
    double unlitFraction;
    double colorfulness;
    double warmth;
    double contentDelta;
    double lumaDelta;
    final float[] thumbnail;
    final FrameHistory history;

    Frame(int width, int height, FrameHistory history) {
        this.width = width;
        this.height = height;
        this.history = history;
        this.thumbnail = new float[history.thumbnailLength()];
    }

    /** Position among the frames this analysis has seen, from 0; {@link #history()} is keyed by it. */
    public long ordinal() {
        return ordinal;
    }

    /** The source's index of this picture (corrupt pictures it skipped still count). */
    public long index() {
        return index;
    }

    public double timeSeconds() {
        return timeSeconds;
    }

    /** Seconds since the previous frame; NaN for the first. */
    public double intervalSeconds() {
        return intervalSeconds;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Packed RGB, 3 bytes per pixel; valid until the next frame. */
    public byte[] rgb() {
        return rgb;
    }

    /** Luma (BT.601 weights), one byte per pixel; valid until the next frame. */
    public byte[] luma() {
        return luma;
    }

    public double meanLuma() {
        return meanLuma;
    }

    /** Share of pixels brighter than a quarter of full scale; near 0 for a black frame. */
    public double litFraction() {
        return litFraction;
    }

    /** Share of pixels darker than three quarters of full scale; near 0 for a white frame. */
    public double unlitFraction() {
        return unlitFraction;
    }

    /** Hasler-Suesstrunk colourfulness scaled so that 150 (beyond "extremely colourful") is 1. */
    public double colorfulness() {
        return colorfulness;
    }

    /** 0.5 neutral, towards 1 when red outweighs blue, towards 0 the other way. */
    public double warmth() {
        return warmth;
    }

    /**
     * Mean change of hue, saturation and value against the previous frame (hue weighted by
     * chroma, so the meaningless hue of grey and dark pixels does not count); 0 for the first.
     */
    public double contentDelta() {
        return contentDelta;
    }

    /** Mean absolute luma change against the previous frame; 0 for the first. */
    public double lumaDelta() {
        return lumaDelta;
    }

    /** A coarse picture of luma and two colour differences; see {@link FrameHistory#thumbnailLength()}. */
    public float[] thumbnail() {
        return thumbnail;
    }

    public FrameHistory history() {
        return history;
    }

    public Tone tone() {
        return Tone.of(meanLuma, litFraction, unlitFraction);
    }
}
