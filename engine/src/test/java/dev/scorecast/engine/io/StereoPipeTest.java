package dev.scorecast.engine.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One thread writes blocks, another reads them in blocks of its own size. */
class StereoPipeTest {

    @Test
    void framesArriveInOrderWhateverTheBlockSizesAndEndInZeros() throws Exception {
        int frames = 10_000;
        StereoPipe pipe = new StereoPipe(48_000, frames, 2);
        CompletableFuture<Void> maker = CompletableFuture.runAsync(() -> {
            float[][] block = new float[2][777];
            for (int at = 0; at < frames; at += 777) {
                int n = Math.min(777, frames - at);
                for (int i = 0; i < n; i++) {
                    block[0][i] = at + i;
                    block[1][i] = -(at + i);
                }
                pipe.write(block, n);
            }
            pipe.end();
        });
        float[][] out = new float[2][1000];
        for (int at = 0; at < frames + 1000; at += 1000) {
            pipe.readStereo(out, 1000);
            for (int i = 0; i < 1000; i++) {
                float expected = at + i < frames ? at + i : 0;
                assertEquals(expected, out[0][i], "left at " + (at + i));
                assertEquals(-expected, out[1][i], 0f, "right at " + (at + i));
            }
        }
        maker.get(10, TimeUnit.SECONDS);
        assertEquals(frames, pipe.frames());
    }

    @Test
    void anAbandonedRecordingStopsItsReader() {
        StereoPipe pipe = new StereoPipe(48_000, 100, 4);
        pipe.write(new float[][] {{1, 2}, {3, 4}}, 2);
        pipe.abandon();
        float[][] out = new float[2][4];
        assertThrows(StereoPipe.Abandoned.class, () -> pipe.readStereo(out, 4));
    }

    @Test
    void aClosedReaderNeverKeepsTheMakerWaiting() throws Exception {
        StereoPipe pipe = new StereoPipe(48_000, 1_000_000, 1);
        float[][] out = new float[2][10];
        CompletableFuture<Void> maker = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < 100; i++) {
                pipe.write(new float[2][10], 10);
            }
            pipe.end();
        });
        pipe.readStereo(out, 10);
        pipe.close();
        maker.get(10, TimeUnit.SECONDS); // would wait for room forever if the writes were not dropped
        assertArrayEquals(new float[10], out[0]);
    }
}
