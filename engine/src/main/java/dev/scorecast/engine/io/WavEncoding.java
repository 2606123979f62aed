package dev.scorecast.engine.io;

/**
 * The two sample encodings Scorecast's WAV files use: 16-bit PCM (a video's extracted sound, the
 * master) and 32-bit float (stems and intermediate mixes: no clipping, no rounding). Nothing
 * writes or reads any other kind.
 */
public enum WavEncoding {
    PCM16(1, 16, "16-bit PCM"),
    FLOAT32(3, 32, "32-bit float");

    /** The fmt chunk's format tag: 1 integer PCM, 3 IEEE float. */
    final int formatTag;

    final int bits;
    final String label;

    WavEncoding(int formatTag, int bits, String label) {
        this.formatTag = formatTag;
        this.bits = bits;
        this.label = label;
    }

    public int bytes() {
        return bits / 8;
    }
}
