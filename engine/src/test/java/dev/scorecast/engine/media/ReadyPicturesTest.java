package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ReadyPicturesTest {

    private static VideoFrame frame(int value) {
        VideoFrame frame = new VideoFrame(1, 1);
        Arrays.fill(frame.rgb(), (byte) value);
        frame.stamp(99, 9.0);
        return frame;
    }

    @Test
    void picturesComeOutInTheOrderQueuedWithTheirIndexAndTime() {
        ReadyPictures ready = new ReadyPictures();
        ready.add(new byte[] {1, 1, 1}, 7, 0.25);
        ready.add(new byte[] {2, 2, 2}, 9, 0.3);
        VideoFrame out = frame(0);
        assertTrue(ready.pollInto(out));
        assertArrayEquals(new byte[] {1, 1, 1}, out.rgb());
        assertEquals(7, out.index());
        assertEquals(0.25, out.timeSeconds());
        assertTrue(ready.pollInto(out));
        assertArrayEquals(new byte[] {2, 2, 2}, out.rgb());
        assertEquals(9, out.index());
        assertTrue(ready.isEmpty());
    }

    @Test
    void aPictureIsCopiedWhenQueuedSoTheDecodersBufferMayBeReused() {
        ReadyPictures ready = new ReadyPictures();
        byte[] decoded = {1, 1, 1};
        ready.add(decoded, 0, 0);
        decoded[0] = 5;
        ready.add(decoded, 1, 0.04);
        VideoFrame out = frame(0);
        ready.pollInto(out);
        assertArrayEquals(new byte[] {1, 1, 1}, out.rgb());
        ready.pollInto(out);
        assertArrayEquals(new byte[] {5, 1, 1}, out.rgb());
    }

    @Test
    void withNothingQueuedTheFrameStaysAsItWas() {
        ReadyPictures ready = new ReadyPictures();
        VideoFrame out = frame(4);
        assertTrue(ready.isEmpty());
        assertFalse(ready.pollInto(out));
        assertArrayEquals(new byte[] {4, 4, 4}, out.rgb());
        assertEquals(99, out.index());
    }

    @Test
    void clearingDropsWhatIsQueued() {
        ReadyPictures ready = new ReadyPictures();
        ready.add(new byte[] {1, 1, 1}, 0, 0);
        ready.clear();
        assertTrue(ready.isEmpty());
        ready.add(new byte[] {2, 2, 2}, 3, 0.1); // into a reused buffer
        VideoFrame out = frame(0);
        assertTrue(ready.pollInto(out));
        assertArrayEquals(new byte[] {2, 2, 2}, out.rgb());
        assertFalse(ready.pollInto(out));
    }
}
