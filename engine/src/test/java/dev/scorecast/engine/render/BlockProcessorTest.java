package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.scorecast.engine.dsp.BlockProcessor;
import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.dsp.TruePeakLimiter;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The {@link BlockProcessor} contract for the stages shared by the offline and live paths: the
 * same samples however the audio is cut into blocks (one call, or blocks of any size at any offset
 * of a larger array), and nothing outside a block touched.
 */
class BlockProcessorTest {
    private static final int FRAMES = 48_000;

    /** Noise with a loud stretch in the middle (so the limiter works) . */
    private static float[][] signal() {
        Random r = new Random(7);
        float[][] x = new float[2][FRAMES];
        for (int i = 0; i < FRAMES; i++) {
            float level = i > 20_000 && i < 30_000 ? 1.6f : 0.2f;
            x[0][i] = (float) (r.nextGaussian() * level);
            x[1][i] = (float) (r.nextGaussian() * level);
        }
        return x;
    }

    private static float[][] whole(BlockProcessor p, float[][] x, int rampAt) {
        float[][] y = {x[0].clone(), x[1].clone()};
        p.process(y, 0, rampAt);
        change(p);
        p.process(y, rampAt, FRAMES - rampAt);
        return y;
    }

    /** Processes in blocks of random size (0 included), each copied into a bigger array at a random offset. */
    private static float[][] blocks(BlockProcessor p, float[][] x, int rampAt, long seed) {
        Random r = new Random(seed);
        float[][] y = new float[2][FRAMES];
        int pos = 0;
        boolean changed = false;
        while (pos < FRAMES) {
            if (!changed && pos == rampAt) {
                change(p);
                changed = true;
            }
            int limit = changed ? FRAMES : rampAt;
            int n = Math.min(limit - pos, r.nextInt(5000));
            int offset = r.nextInt(100);
            float[][] buf = new float[2][offset + n + 37];
            for (int c = 0; c < 2; c++) {
                Arrays.fill(buf[c], 9f);
                System.arraycopy(x[c], pos, buf[c], offset, n);
            }
            p.process(buf, offset, n);
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < offset; i++) {
                    assertEquals(9f, buf[c][i], "before the block");
                }
                for (int i = offset + n; i < buf[c].length; i++) {
                    assertEquals(9f, buf[c][i], "after the block");
                }
                System.arraycopy(buf[c], offset, y[c], pos, n);
            }
            pos += n;
        }
        return y;
    }

    private static void change(BlockProcessor p) {
        if (p instanceof GainRamp g) {
            g.setTarget(0.25); // a ramp that starts at a block boundary and crosses others
        }
    }

    private static void sameInAnyBlocks(Supplier<BlockProcessor> make) {
        float[][] x = signal();
        float[][] expected = whole(make.get(), x, 12_345);
        for (long seed = 1; seed <= 3; seed++) {
            float[][] got = blocks(make.get(), x, 12_345, seed);
            assertArrayEquals(expected[0], got[0]);
            assertArrayEquals(expected[1], got[1]);
        }
    }

    @Test
    void theGainRampGivesTheSameSamplesInAnyBlocks() {
        sameInAnyBlocks(() -> new GainRamp(0.8, 0.3));
    }

    @Test
    void theLimiterGivesTheSameSamplesInAnyBlocks() {
        sameInAnyBlocks(() -> new TruePeakLimiter(-1, 48_000));
        assertEquals(TruePeakLimiter.LATENCY, new TruePeakLimiter(-1, 48_000).latencyFrames());
    }

    @Test
    void aCopiedRampCarriesOnAsTheOriginal() {
        GainRamp a = new GainRamp(1, 0);
        a.setTarget(0, 1000);
        float[][] x = signal();
        float[][] ya = {x[0].clone(), x[1].clone()};
        a.process(ya, 0, 300);
        GainRamp b = a.copy();
        float[][] yb = {ya[0].clone(), ya[1].clone()};
        a.process(ya, 300, 2000);
        b.process(yb, 300, 2000);
        assertArrayEquals(ya[0], yb[0]);
        assertEquals(0, b.current());
        assertEquals(true, b.settled());
    }
}
