package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One connected listener: a bounded queue of encoded chunks that the render loop offers to and the
 * listener's own (HTTP) thread takes from. When the queue is full the listener is too slow (or
 * gone) and is dropped at once: the loop never waits for anyone.
 */
public final class Listener {
    /** About five seconds of 21 ms blocks: room for a slow network, not for a stalled one. */
    static final int CAPACITY = 256;

    private static final byte[] END = new byte[0];

    private final LiveEncoder.Format format;
    private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(CAPACITY + 1);
    private volatile boolean closed;
    private volatile String reason;
    volatile Outlet outlet;
    private volatile long firstFrame = -1;

    Listener(LiveEncoder.Format format) {
        this.format = format;
    }

    public LiveEncoder.Format format() {
        return format;
    }

    /**
     * The performance frame of the first block this listener got (exact for WAV; for the coded
     * formats, the block whose encoding completed the first chunk). -1 until then.
     */
    public long firstFrame() {
        return firstFrame;
    }

    void firstAudio(long frame) {
        if (firstFrame < 0) {
            firstFrame = frame;
        }
    }

    /** From the render loop: false when the listener had to be dropped. */
    boolean offer(byte[] chunk) {
        if (closed) {
            return false;
        }
        if (queue.size() >= CAPACITY || !queue.offer(chunk)) {
            close("too slow: more than " + CAPACITY + " chunks waiting");
            return false;
        }
        return true;
    }

    /**
     * The next chunk, waiting up to {@code millis}; an empty array when nothing came in time, null
     * once the listener is closed and drained.
     */
    public byte[] next(long millis) throws InterruptedException {
        byte[] chunk = queue.poll(millis, TimeUnit.MILLISECONDS);
        if (chunk == END || chunk == null && closed && queue.isEmpty()) {
            return null;
        }
        return chunk == null ? new byte[0] : chunk;
    }

    public boolean closed() {
        return closed;
    }

    /** Why the listener was closed, or null. */
    public String reason() {
        return reason;
    }

    /** Ends the listener: its thread gets what is queued, then null. */
    public void close(String why) {
        if (!closed) {
            reason = why;
            closed = true;
            Outlet o = outlet;
            if (o != null) {
                o.remove(this);
            }
            queue.offer(END);
        }
    }
}
