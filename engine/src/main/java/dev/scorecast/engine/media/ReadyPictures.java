package dev.scorecast.engine.media;

import java.util.ArrayDeque;

/**
 * Pictures decoded and ready to deliver, in order (a gap's pictures, then the picture after it),
 * each copied into a buffer of its own; the buffers of delivered pictures are reused for the next
 * ones, so a long video allocates a few only. Not thread-safe.
 */
final class ReadyPictures {
    private final ArrayDeque<Ready> ready = new ArrayDeque<>();
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();

    /** Queues a copy of {@code rgb} as the picture at {@code index}, shown at {@code seconds}. */
    void add(byte[] rgb, long index, double seconds) {
        byte[] copy = spare.poll();
        if (copy == null) {
            copy = new byte[rgb.length];
        }
        System.arraycopy(rgb, 0, copy, 0, rgb.length);
        ready.addLast(new Ready(copy, index, seconds));
    }

    boolean isEmpty() {
        return ready.isEmpty();
    }

    /**
     * Moves the first picture queued into {@code frame}, with its index and time.
     *
     * @return false when none is queued, leaving {@code frame} as it was
     */
    boolean pollInto(VideoFrame frame) {
        Ready next = ready.pollFirst();
        if (next == null) {
            return false;
        }
        System.arraycopy(next.rgb(), 0, frame.rgb(), 0, next.rgb().length);
        frame.stamp(next.index(), next.seconds());
        spare.offer(next.rgb());
        return true;
    }

    /** Drops every picture queued: a segment starts. */
    void clear() {
        for (Ready r; (r = ready.pollFirst()) != null; ) {
            spare.offer(r.rgb());
        }
    }

    /** A picture ready to deliver: its place in the whole video and its time. */
    private record Ready(byte[] rgb, long index, double seconds) {}
}
