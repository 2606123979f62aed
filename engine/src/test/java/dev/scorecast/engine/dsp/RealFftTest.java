package dev.scorecast.engine.dsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RealFftTest {

    @Test
    void matchesAPlainDft() {
        for (int size : new int[] {4, 8, 64, 512}) {
            Random random = new Random(size);
            double[] x = new double[size];
            for (int i = 0; i < size; i++) {
                x[i] = random.nextGaussian();
            }
            double[] expected = new double[size / 2 + 1];
            for (int k = 0; k <= size / 2; k++) {
                double re = 0;
                double im = 0;
                for (int n = 0; n < size; n++) {
                    re += x[n] * Math.cos(2 * Math.PI * k * n / size);
                    im -= x[n] * Math.sin(2 * Math.PI * k * n / size);
                }
                expected[k] = Math.hypot(re, im);
            }
            double[] actual = new double[size / 2 + 1];
            new RealFft(size).magnitudes(x.clone(), actual);
            assertArrayEquals(expected, actual, 1e-9, "size " + size);
        }
    }

    @Test
    void sizeMustBeAPowerOfTwo() {
        assertThrows(InvalidParameter.class, () -> new RealFft(48));
        assertThrows(InvalidParameter.class, () -> new RealFft(2));
        assertThrows(InvalidParameter.class, () -> new Fft(3));
    }
}
