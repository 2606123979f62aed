package dev.scorecast.server.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.server.config.ServerConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The S3 blob store against a real S3 server (S3Proxy in its own process): the contract the local store keeps. */
class S3BlobStoreTest {
    private static final String BUCKET = "scorecast-blobs";

    @TempDir
    static Path dir;

    static S3Proxy proxy;
    static S3BlobStore store;

    @BeforeAll
    static void startStore() {
        proxy = S3Proxy.start(dir.resolve("s3"), BUCKET);
        var env = new HashMap<>(proxy.env(BUCKET, "test/prefix"));
        env.put("SCORECAST_DATA", dir.resolve("data").toString());
        var config = ServerConfig.from(env);
        store = S3BlobStore.open(config.storage(), Scratch.under(dir.resolve("scratch")));
    }

    @AfterAll
    static void stopStore() {
        if (store != null) {
            store.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aSmallBlobIsOnePutAndReadsBack() throws IOException {
        byte[] content = "123456789".getBytes(StandardCharsets.US_ASCII);
        var stored = store.write("a/b.bin", new ByteArrayInputStream(content), 100, "file", true);
        assertEquals(9, stored.size());
        assertEquals("e3069283", stored.crc32c());
        assertEquals("15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225", stored.sha256());
        try (InputStream in = store.open("a/b.bin")) {
            assertArrayEquals(content, in.readAllBytes());
        }
        assertEquals(9, store.size("a/b.bin"));
        assertTrue(store.exists("a/b.bin"));
        assertTrue(
                Files.isRegularFile(proxy.objectFile(BUCKET, "test/prefix/a/b.bin")),
                "keys live under the configured prefix");
    }

    /** 2.5 parts streamed from a generator: multipart, never more than a part in memory, byte-exact on the way back. */
    @Test
    void aLargeBlobIsAMultipartUploadThatReadsBackExactly() throws IOException {
        long size = S3BlobStore.PART_BYTES * 5L / 2 + 17;
        var expectedCrc = new CRC32C();
        var stored = store.write("big/source", generated(size, 7, expectedCrc), size, "file_size", false);
        assertEquals(size, stored.size());
        assertEquals(Checksums.hex(expectedCrc), stored.crc32c());
        assertEquals(size, store.size("big/source"));
        var readCrc = new CRC32C();
        long read = 0;
        try (InputStream in = store.open("big/source")) {
            byte[] buffer = new byte[1 << 16];
            int n;
            while ((n = in.read(buffer)) != -1) {
                readCrc.update(buffer, 0, n);
                read += n;
            }
        }
        assertEquals(size, read);
        assertEquals(expectedCrc.getValue(), readCrc.getValue());
        Path copy;
        try (var staged = store.stage("big/source")) {
            copy = staged.path();
            assertEquals(size, Files.size(copy));
        }
        assertFalse(Files.exists(copy), "closing a staged copy removes it");
    }

    @Test
    void aBlobOverItsLimitLeavesNoObject() {
        long limit = S3BlobStore.PART_BYTES + 10;
        assertThrows(
                TooLarge.class,
                () -> store.write("over/limit", generated(limit + 1, 3, new CRC32C()), limit, "file_size", false));
        assertFalse(store.exists("over/limit"), "an aborted multipart upload is never an object");
        assertThrows(
                TooLarge.class,
                () -> store.write("over/small", new ByteArrayInputStream(new byte[11]), 10, "chunk", false));
        assertFalse(store.exists("over/small"));
    }

    @Test
    void missingBlobsAndTreesBehaveAsOnDisk() throws IOException {
        var missing = assertThrows(UncheckedIOException.class, () -> store.open("no/such"));
        assertTrue(missing.getCause() instanceof NoSuchFileException);
        assertThrows(UncheckedIOException.class, () -> store.stage("no/such"));
        store.write("tree/x/1", new ByteArrayInputStream(new byte[] {1}), 10, "f", false);
        store.write("tree/x/2", new ByteArrayInputStream(new byte[] {2}), 10, "f", false);
        store.write("tree/xy", new ByteArrayInputStream(new byte[] {3}), 10, "f", false);
        // The orphan sweep's view: keys under the tree without the store's prefix, each with when it was written.
        var listed = new TreeMap<String, Instant>();
        store.list("tree", listed::put);
        assertEquals(List.of("tree/x/1", "tree/x/2", "tree/xy"), List.copyOf(listed.keySet()));
        assertTrue(listed.values().stream()
                .allMatch(at -> Math.abs(Duration.between(at, Instant.now()).toMinutes()) < 5));
        store.deleteTree("tree/x");
        assertFalse(store.exists("tree/x/1"));
        assertFalse(store.exists("tree/x/2"));
        assertTrue(store.exists("tree/xy"), "a tree is its prefix and a slash, not any key that starts alike");
        store.delete("tree/xy");
        store.delete("tree/xy");
        assertFalse(store.exists("tree/xy"));
        Path file = Files.writeString(dir.resolve("output.json"), "{}");
        store.moveIn("moved/output.json", file);
        assertFalse(Files.exists(file));
        assertEquals(2, store.size("moved/output.json"));
        store.checkReachable();
        store.removeLeftovers();
    }

    @Test
    void aPresignedUrlServesTheBlobWithoutCredentials() throws Exception {
        store.write("out/video.mp4", new ByteArrayInputStream(new byte[] {9, 8, 7}), 10, "f", false);
        URI url = store.presignedGet("out/video.mp4", Duration.ofMinutes(5), "video/mp4", "video.mp4")
                .orElseThrow();
        // The store's own answer to its presigned link, not Scorecast's API: /openapi.json does not describe it.
        try (var http = HttpClient.newHttpClient()) {
            var response = http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, response.statusCode(), () -> new String(response.body()));
            assertArrayEquals(new byte[] {9, 8, 7}, response.body());
            assertEquals(
                    "video/mp4", response.headers().firstValue("Content-Type").orElse(""));
        }
    }

    /** {@code size} pseudo-random bytes made as they are read, counted into {@code crc}. */
    private static InputStream generated(long size, long seed, CRC32C crc) {
        var random = new Random(seed);
        return new InputStream() {
            long left = size;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                byte[] chunk = new byte[n];
                random.nextBytes(chunk);
                System.arraycopy(chunk, 0, b, off, n);
                crc.update(chunk, 0, n);
                left -= n;
                return n;
            }
        };
    }
}
