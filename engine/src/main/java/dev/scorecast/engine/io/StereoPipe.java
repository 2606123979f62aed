package dev.scorecast.engine.io;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Hands stereo frames from the one thread that makes them to the one thread that reads them,
 * through a bounded queue of blocks (memory stays at {@code capacityBlocks} blocks whatever the
 * length): the master's encoders start on its first second instead of after its last.
 *
 * <p>The maker calls {@link #write} for each block and then {@link #end()}, or {@link #abandon()}
 * when what it wrote is not the recording after all (a reader then gets {@link Abandoned}). A
 * reader that stops early {@link #close() closes} its end, and the maker's writes are dropped
 * instead of waiting for room that will never come.
 */
public final class StereoPipe implements StereoSource {

    /** What a reader gets when the maker abandons the recording. */
    public static final class Abandoned extends RuntimeException {
        Abandoned() {
            super("the recording being read was abandoned by its maker", null, false, false);
        }
    }

    private static final float[][] END = new float[2][0];
    private static final float[][] ABANDONED = new float[2][0];

    private final int rateHz;
    private final long frames;
    private final BlockingQueue<float[][]> queue;
    private volatile boolean closed;
    private float[][] current = new float[2][0];
    private int at;
    private boolean ended;

    public StereoPipe(int rateHz, long frames, int capacityBlocks) {
        this.rateHz = rateHz;
        this.frames = frames;
        this.queue = new ArrayBlockingQueue<>(capacityBlocks + 1);
    }

    @Override
    public int rateHz() {
        return rateHz;
    }

    @Override
    public long frames() {
        return frames;
    }

    /** The maker's next {@code n} frames of {@code block}, copied. */
    public void write(float[][] block, int n) {
        put(new float[][] {Arrays.copyOf(block[0], n), Arrays.copyOf(block[1], n)});
    }

    /** The maker wrote the whole recording. */
    public void end() {
        put(END);
    }

    /** What the maker wrote is not the recording: the reader stops with {@link Abandoned}. */
    public void abandon() {
        queue.clear();
        queue.offer(ABANDONED);
    }

    private void put(float[][] block) {
        try {
            while (!closed) {
                if (queue.offer(block, 100, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing audio to its encoder", e);
        }
    }

    @Override
    public void readStereo(float[][] out, int n) {
        int done = 0;
        while (done < n) {
            if (at == current[0].length) {
                if (ended) {
                    Arrays.fill(out[0], done, n, 0f);
                    Arrays.fill(out[1], done, n, 0f);
                    return;
                }
                current = take();
                at = 0;
                if (current == ABANDONED) {
                    throw new Abandoned();
                }
                ended = current == END;
                continue;
            }
            int m = Math.min(n - done, current[0].length - at);
            System.arraycopy(current[0], at, out[0], done, m);
            System.arraycopy(current[1], at, out[1], done, m);
            at += m;
            done += m;
        }
    }

    private float[][] take() {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for audio to encode", e);
        }
    }

    /** The reader is done (or gave up): later writes are dropped. */
    @Override
    public void close() {
        closed = true;
        queue.clear();
    }
}
