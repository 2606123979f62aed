package dev.scorecast.engine.media;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MP4's index is written into space kept at the front (issue 18: faststart copied the whole
 * file once more to move it there): the result holds the same packets as the faststart file, with
 * the index before the media data, and when the space kept is too small nothing is left behind and
 * {@link Muxer#mux} falls back to faststart.
 */
class MuxerIndexTest {
    @TempDir
    static Path dir;

    private static Path video;
    private static Path master;

    @BeforeAll
    static void inputs() {
        video = TestVideos.make(
                dir,
                "in.mp4",
                "-f lavfi -i testsrc2=size=320x240:rate=30 -t 6 -c:v libx264 -preset veryfast -pix_fmt yuv420p");
        master = TestVideos.make(
                dir, "master.wav", "-f lavfi -i sine=f=440:sample_rate=48000 -t 6 -ac 2 -c:a pcm_s16le");
    }

    @Test
    void theIndexGoesIntoTheSpaceKeptWithTheSamePacketsAsFaststart() throws IOException {
        Path kept = dir.resolve("kept.mp4");
        Path faststart = dir.resolve("faststart.mp4");
        Muxer.write(video, master, kept, Muxer.ESTIMATED_INDEX_SPACE);
        Muxer.write(video, master, faststart, Muxer.FASTSTART);
        assertEquals(packets(faststart), packets(kept));
        String head = new String(firstBytes(kept, 256 * 1024), StandardCharsets.ISO_8859_1);
        assertTrue(head.indexOf("moov") >= 0 && head.indexOf("moov") < head.indexOf("mdat"), "moov before mdat");
        long padding = Files.size(kept) - Files.size(faststart);
        assertTrue(padding > 0 && padding < 64 * 1024, "space kept but unused: " + padding + " bytes");
    }

    @Test
    void tooLittleSpaceLeavesNothingBehind() throws IOException {
        Path out = dir.resolve("small.mp4");
        assertThrows(Muxer.IndexSpaceTooSmall.class, () -> Muxer.write(video, master, out, 200));
        try (var left = Files.list(dir)) {
            assertEquals(
                    List.of(),
                    left.map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith(".small") || n.startsWith("small"))
                            .toList(),
                    "no file or temporary file left");
        }
        Muxer.mux(video, master, out);
        assertEquals(
                packets(dir.resolve("in.mp4"))
                        .lines()
                        .filter(l -> l.startsWith("0,"))
                        .count(),
                packets(out).lines().filter(l -> l.startsWith("0,")).count());
        assertFalse(packets(out).isBlank());
    }

    /** Every packet's stream, timestamps, size and checksum, as FFmpeg's framemd5 lists them. */
    private static String packets(Path file) {
        return TestVideos.run(List.of(
                        "ffmpeg",
                        "-nostdin",
                        "-v",
                        "error",
                        "-i",
                        file.toString(),
                        "-map",
                        "0",
                        "-c",
                        "copy",
                        "-f",
                        "framemd5",
                        "-"))
                .lines()
                .filter(l -> !l.startsWith("#"))
                .reduce("", (a, b) -> a + b + "\n");
    }

    private static byte[] firstBytes(Path file, int n) throws IOException {
        try (var in = Files.newInputStream(file)) {
            return in.readNBytes(n);
        }
    }
}
