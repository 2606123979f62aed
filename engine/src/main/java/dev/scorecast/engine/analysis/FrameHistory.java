package dev.scorecast.engine.analysis;

/**
 * The compact facts of the most recent frames (times, measures, thumbnails), so that detectors can
 * look back, and decide about a frame a little after it arrived, without each keeping copies.
 * Frames are addressed by {@link Frame#ordinal()}; only the last {@link #capacity()} are kept, which
 * keeps memory flat whatever the video's length.
 */
public final class FrameHistory {
    /** Frames kept: over 4 s at 60 fps, enough for the longest dissolve and fade we look for. */
    static final int DEFAULT_CAPACITY = 256;
    // Thumbnail cells are about this many analysis pixels across.
    private static final int CELL_PIXELS = 5;

    private final int capacity;
    private final int thumbnailWidth;
    private final int thumbnailHeight;
    private final double[] timeSeconds;
    private final long[] index;
    private final double[] contentDelta;
    private final double[] lumaDelta;
    private final double[] meanLuma;
    private final Tone[] tone;
    private final float[][] thumbnails;
    private long newest = -1;

    FrameHistory(int frameWidth, int frameHeight, int capacity) {
        this.capacity = capacity;
        this.thumbnailWidth = Math.max(1, Math.round(frameWidth / (float) CELL_PIXELS));
        this.thumbnailHeight = Math.max(1, Math.round(frameHeight / (float) CELL_PIXELS));
        this.timeSeconds = new double[capacity];
        this.index = new long[capacity];
        this.contentDelta = new double[capacity];
        this.lumaDelta = new double[capacity];
        this.meanLuma = new double[capacity];
        this.tone = new Tone[capacity];
        this.thumbnails = new float[capacity][thumbnailLength()];
    }

    int capacity() {
        return capacity;
    }

    public int thumbnailWidth() {
        return thumbnailWidth;
    }

    public int thumbnailHeight() {
        return thumbnailHeight;
    }

    /** Three planes of {@code thumbnailWidth x thumbnailHeight} cells: luma, blue minus luma, red minus luma. */
    int thumbnailLength() {
        return 3 * thumbnailWidth * thumbnailHeight;
    }

    void record(Frame frame) {
        if (frame.ordinal != newest + 1) {
            throw new IllegalStateException("frames must arrive in order: " + frame.ordinal + " after " + newest);
        }
        int slot = slot(frame.ordinal);
        timeSeconds[slot] = frame.timeSeconds;
        index[slot] = frame.index;
        contentDelta[slot] = frame.contentDelta;
        lumaDelta[slot] = frame.lumaDelta;
        meanLuma[slot] = frame.meanLuma;
        tone[slot] = frame.tone();
        System.arraycopy(frame.thumbnail, 0, thumbnails[slot], 0, frame.thumbnail.length);
        newest = frame.ordinal;
    }

    /** The latest frame's ordinal, -1 before the first. */
    public long newest() {
        return newest;
    }

    /** The earliest ordinal still held. */
    public long oldest() {
        return Math.max(0, newest - capacity + 1);
    }

    public boolean holds(long ordinal) {
        return ordinal >= oldest() && ordinal <= newest;
    }

    public double timeSeconds(long ordinal) {
        return timeSeconds[checked(ordinal)];
    }

    public long index(long ordinal) {
        return index[checked(ordinal)];
    }

    public double contentDelta(long ordinal) {
        return contentDelta[checked(ordinal)];
    }

    public double lumaDelta(long ordinal) {
        return lumaDelta[checked(ordinal)];
    }

    public double meanLuma(long ordinal) {
        return meanLuma[checked(ordinal)];
    }

    public Tone tone(long ordinal) {
        return tone[checked(ordinal)];
    }

    /** The frame's thumbnail; read only, and overwritten once the frame falls out of the history. */
    public float[] thumbnail(long ordinal) {
        return thumbnails[checked(ordinal)];
    }

    /** The held frame whose time is nearest {@code seconds} (the earlier one on a tie), or -1 when none is held. */
    public long nearest(double seconds) {
        if (newest < 0) {
            return -1;
        }
        long lo = oldest();
        long hi = newest;
        while (lo < hi) { // first frame at or after seconds
            long mid = (lo + hi) >>> 1;
            if (timeSeconds(mid) < seconds) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if (lo > oldest() && seconds - timeSeconds(lo - 1) <= timeSeconds(lo) - seconds) {
            return lo - 1;
        }
        return lo;
    }

    private int checked(long ordinal) {
        if (!holds(ordinal)) {
            throw new IndexOutOfBoundsException("frame " + ordinal + " is not held (" + oldest() + ".." + newest + ")");
        }
        return slot(ordinal);
    }

    private int slot(long ordinal) {
        return (int) (ordinal % capacity);
    }
}
