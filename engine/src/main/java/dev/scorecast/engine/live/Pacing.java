package dev.scorecast.engine.live;

/**
 * When a performance's blocks are due in real time: block k at {@code epoch + k} frames, rendered the look-ahead before
 * that and, once a listener has joined music that plays, the lead of a burst sooner still. A performance that fell far
 * behind gives part of the debt up by moving its epoch on. The render loop asks it which frames are due; the sung layer
 * asks it by when a line must be sung, so both always count from the same epoch and lead.
 *
 * <p>Render loop only, except {@link #wantBurst()}, which a listener joining calls from its own thread. {@link #copy()}
 * for a fork.
 */
final class Pacing {
    private static final int RATE = Performance.RATE;
    /**
     * The most blocks of real time a performance that fell behind (a stall, a machine past its capacity) renders to
     * catch up, about 2 s; the rest of the debt is given up: the stream goes on from where it was, as if it had started
     * that much later. Rendering a longer debt at once held its loop from every other performance, and handed its
     * listeners more than their queues hold ({@link Listener#CAPACITY}, about 5 s), so that the server dropped them as
     * too slow (issue 15's soak, on an overloaded machine: streams 30 to 60 s behind, listeners cut off).
     */
    static final int MAX_CATCH_UP_BLOCKS = 96;
    /** The most blocks a turn renders beyond what real time asks for, while the lead grows: other performances wait for them. */
    static final int BURST_BLOCKS_PER_TURN = 8;

    private final int blockFrames;
    private final int lookaheadFrames;
    /** The lead a burst raises the performance to (0: no burst). */
    private final int burstFrames;
    /** Real time of frame 0; moved on when the performance has fallen further behind than {@link #MAX_CATCH_UP_BLOCKS}. */
    private long epochNanos;
    /**
     * Frames rendered ahead of real time beyond the look-ahead. A listener joining raises it to the burst, a few blocks per
     * turn (faster than real time, so its buffer fills at once and a plain player can start); it is never lowered, which
     * would leave a gap: the performance stays that far ahead, and joining listeners get that much of the last audio at once.
     */
    private long leadFrames;
    /** Set by a listener joining (callers' side): the lead is raised towards the burst from the next turn. */
    private volatile boolean burstWanted;
    /** Frames of real time given up so far (see {@link #MAX_CATCH_UP_BLOCKS}). */
    private long skippedFrames;

    Pacing(LiveSettings settings, long epochNanos) {
        this(settings.blockFrames(), settings.lookaheadFrames(), settings.burstFrames(), epochNanos);
    }

    private Pacing(int blockFrames, int lookaheadFrames, int burstFrames, long epochNanos) {
        this.blockFrames = blockFrames;
        this.lookaheadFrames = lookaheadFrames;
        this.burstFrames = burstFrames;
        this.epochNanos = epochNanos;
    }

    /** The same pacing for a fork: same epoch and lead, a burst still growing grows on. */
    Pacing copy() {
        Pacing c = new Pacing(blockFrames, lookaheadFrames, burstFrames, epochNanos);
        c.leadFrames = leadFrames;
        c.burstWanted = burstWanted;
        c.skippedFrames = skippedFrames;
        return c;
    }

    /** A listener joined music that plays (or music started under listeners): the lead rises to the burst, if there is one. */
    void wantBurst() {
        if (burstFrames > 0) {
            burstWanted = true;
        }
    }

    /**
     * The frame up to which blocks are due at {@code nowNanos}, for a performance that has rendered up to {@code frame}:
     * real time plus the look-ahead and the lead. Gives up what is owed beyond {@link #MAX_CATCH_UP_BLOCKS}, and raises
     * the lead by a few blocks when a burst is wanted.
     */
    long due(long nowNanos, long frame) {
        long behind = (nowNanos - epochNanos) * RATE / 1_000_000_000L - frame;
        long most = (long) MAX_CATCH_UP_BLOCKS * blockFrames;
        if (behind > most) {
            long skip = behind - most;
            epochNanos += skip * 1_000_000_000L / RATE;
            skippedFrames += skip;
        }
        long due = (nowNanos - epochNanos) * RATE / 1_000_000_000L + lookaheadFrames;
        if (burstWanted) {
            burstWanted = false;
            long target = burstFrames;
            if (leadFrames < target) {
                // Up to a few blocks more per turn: the burst leaves within a few turns without holding the loop.
                leadFrames = Math.min(target, leadFrames + (long) BURST_BLOCKS_PER_TURN * blockFrames);
                burstWanted = leadFrames < target;
            }
        }
        return due + leadFrames;
    }

    /** Whether a performance that has rendered up to {@code frame} is behind real time (a block due should have been heard). */
    boolean late(long nowNanos, long frame) {
        return frame < (nowNanos - epochNanos) * RATE / 1_000_000_000L;
    }

    /**
     * The real time at which the loop may render the block holding {@code frame}, at the earliest: a block before real
     * time plus the look-ahead and the lead reach it. What must be ready for that frame is due then.
     */
    long renderedFrom(double frame) {
        return epochNanos + Math.round((frame - lookaheadFrames - leadFrames - blockFrames) * 1e9 / RATE);
    }

    /** Frames rendered ahead of real time beyond the look-ahead (the lead a burst left). */
    long leadFrames() {
        return leadFrames;
    }

    /** The lead in whole blocks, rounded up. */
    int leadBlocks() {
        return (int) ((leadFrames + blockFrames - 1) / blockFrames);
    }

    /** Frames of real time given up after falling too far behind (see {@link #MAX_CATCH_UP_BLOCKS}). */
    long skippedFrames() {
        return skippedFrames;
    }
}
