package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A performance driven one block per turn in virtual time (no engine, no real clock), with what
 * it emitted: the left channel of its WAV stream and the transport after every block, so a test
 * can place any beat on the frame where it was played.
 */
final class BlockRun {
    final Performance performance;
    private final Listener listener;
    private final int blockFrames;
    private float[] left = new float[1 << 16];
    private int frames;
    private int headers;
    /** Frame and beat at the start of each block, the beats per frame within it, and the tempo after it. */
    private final List<double[]> blocks = new ArrayList<>();

    private Transport last;

    BlockRun(LiveContext context) {
        this(new Performance(context, 0), context.blockFrames());
    }

    private BlockRun(Performance performance, int blockFrames) {
        this.performance = performance;
        this.blockFrames = blockFrames;
        this.listener = new Listener(LiveEncoder.Format.WAV);
        performance.attach(listener);
        this.last = performance.transport();
    }

    /** Nanoseconds of virtual time at which the next block is due. */
    long nextDue() {
        return (long) Math.ceil((performance.frame() + blockFrames) * 1e9 / Performance.RATE);
    }

    /** Renders one block. */
    void turn() throws InterruptedException {
        long due = nextDue();
        Transport before = last;
        if (performance.pump(due) != 1) {
            throw new IllegalStateException("one block per turn expected");
        }
        last = performance.transport();
        blocks.add(new double[] {
            before.frame(), before.beat(), (last.beat() - before.beat()) / (last.frame() - before.frame()), last.tempo()
        });
        drain();
    }

    void send(Control control) {
        performance.send(control);
    }

    /** Hands this run's listener to a fork of its performance made at the next turn, and continues with the fork. */
    BlockRun fork() throws Exception {
        var forked = new CompletableFuture<Performance>();
        performance.send(new Control.Fork(List.of(listener), forked));
        turn();
        Performance copy = forked.getNow(null);
        if (copy == null) {
            throw new IllegalStateException("the fork did not happen at the turn");
        }
        BlockRun run = new BlockRun(copy, blockFrames, listener, this);
        performance.close();
        performance.pump(0);
        return run;
    }

    private BlockRun(Performance copy, int blockFrames, Listener listener, BlockRun from) {
        this.performance = copy;
        this.blockFrames = blockFrames;
        this.listener = listener;
        this.left = from.left;
        this.frames = from.frames;
        this.blocks.addAll(from.blocks);
        this.last = copy.transport();
    }

    /**
     * The frame at which {@code beat} was played. The transport gives beats to a thousandth (half a
     * millisecond), so where the tempo held steady around it the frame comes from a straight line
     * fitted through the blocks of the two seconds around it; in a tempo glide, from the block itself.
     */
    double frameOf(double beat) {
        for (int k = 0; k < blocks.size(); k++) {
            double[] b = blocks.get(k);
            double end = b[1] + b[2] * blockFrames;
            if (beat >= b[1] && beat < end && b[2] > 0) {
                double fitted = fitted(k, beat);
                return Double.isNaN(fitted) ? b[0] + (beat - b[1]) / b[2] : fitted;
            }
        }
        throw new IllegalArgumentException("beat " + beat + " was not played yet");
    }

    private double fitted(int k, double beat) {
        double tempo = blocks.get(k)[3];
        double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int j = Math.max(1, k - 45); j <= Math.min(blocks.size() - 1, k + 45); j++) {
            if (blocks.get(j)[3] != tempo || blocks.get(j - 1)[3] != tempo) {
                continue;
            }
            double x = blocks.get(j)[1];
            double y = blocks.get(j)[0];
            n++;
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        if (n < 20) {
            return Double.NaN;
        }
        double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
        return (sy - slope * sx) / n + slope * beat;
    }

    double beat() {
        return last.beat();
    }

    long frame() {
        return last.frame();
    }

    /** The left channel emitted so far. */
    float[] left() {
        return Arrays.copyOf(left, frames);
    }

    private void drain() throws InterruptedException {
        byte[] chunk;
        while ((chunk = listener.next(0)) != null && chunk.length > 0) {
            // The WAV header comes first, once: a fork moves the listener on without another.
            if (chunk.length == 44 && new String(chunk, 0, 4, StandardCharsets.US_ASCII).equals("RIFF")) {
                if (headers++ > 0) {
                    throw new AssertionError("a second WAV header in the middle of the stream");
                }
                continue;
            }
            ByteBuffer b = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN);
            while (b.remaining() >= 4) {
                if (frames == left.length) {
                    left = Arrays.copyOf(left, 2 * left.length);
                }
                left[frames++] = b.getShort() / 32768f;
                b.getShort();
            }
        }
    }
}
