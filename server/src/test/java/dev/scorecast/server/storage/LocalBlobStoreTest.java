package dev.scorecast.server.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.TooLarge;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalBlobStoreTest {
    @TempDir
    Path dir;

    @Test
    void writtenBlobsReadBackWithTheirSizeAndChecksum() throws IOException {
        var store = new LocalBlobStore(dir.resolve("blobs"));
        byte[] content = "123456789".getBytes(StandardCharsets.US_ASCII);
        var stored = store.write("a/b.bin", new ByteArrayInputStream(content), 100, "file", true);
        assertEquals(9, stored.size());
        // CRC-32C's check value for "123456789" (RFC 3720).
        assertEquals("e3069283", stored.crc32c());
        try (InputStream in = store.open("a/b.bin")) {
            assertArrayEquals(content, in.readAllBytes());
        }
    }

    @Test
    void aBlobOverItsLimitLeavesNothingBehind() throws IOException {
        var store = new LocalBlobStore(dir.resolve("blobs"));
        assertThrows(
                TooLarge.class,
                () -> store.write("big.bin", new ByteArrayInputStream(new byte[101]), 100, "chunk", false));
        assertFalse(store.exists("big.bin"));
        try (Stream<Path> files = Files.walk(dir.resolve("blobs"))) {
            assertEquals(0, files.filter(Files::isRegularFile).count(), "no temporary file is left");
        }
    }

    @Test
    void movingInTakesTheFileAndReplacesAnOlderBlob() throws IOException {
        var store = new LocalBlobStore(dir.resolve("blobs"));
        store.write("out/video.mp4", new ByteArrayInputStream(new byte[] {1, 2, 3}), 100, "file", false);
        Path made = Files.write(dir.resolve("video.mp4"), new byte[] {9, 8, 7, 6});

        store.moveIn("out/video.mp4", made);

        assertFalse(Files.exists(made), "the file left its old place");
        try (InputStream in = store.open("out/video.mp4")) {
            assertArrayEquals(new byte[] {9, 8, 7, 6}, in.readAllBytes());
        }
    }

    @Test
    void keysThatCouldLeaveTheStoreAreRefused() throws IOException {
        var store = new LocalBlobStore(dir.resolve("blobs"));
        Path made = Files.write(dir.resolve("x"), new byte[] {1});
        for (String key : new String[] {"../x", "/etc/passwd", "a/../../x", "A/b", ""}) {
            assertThrows(IllegalArgumentException.class, () -> store.moveIn(key, made), key);
        }
        assertTrue(Files.exists(made));
    }
}
