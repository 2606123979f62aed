package dev.scorecast.engine.media;

import dev.scorecast.engine.Commands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Fixture files made with the ffmpeg CLI (Debian's 5.1), so tests need no binary files in git. */
final class TestVideos {

    private static final long TIMEOUT_SECONDS = 600;

    private TestVideos() {}

    /**
     * Runs {@code ffmpeg <args> dir/name} and returns the output path. {@code args} is split on
     * spaces, so no single argument may contain one.
     */
    static Path make(Path dir, String name, String args) {
        Path out = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"));
        cmd.addAll(Arrays.asList(args.trim().split(" +")));
        cmd.add(out.toString());
        run(cmd);
        return out;
    }

    /** Byte offset and size of every packet of the first audio stream, from ffprobe. */
    static List<long[]> audioPackets(Path file) {
        String csv = run(List.of(
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "a:0",
                "-show_entries",
                "packet=pos,size",
                "-of",
                "csv=p=0",
                file.toString()));
        List<long[]> packets = new ArrayList<>();
        for (String line : csv.split("\n")) {
            String[] f = line.trim().split(","); // MP4 adds a trailing comma for side data
            if (f.length >= 2 && !f[0].equals("N/A") && !f[1].equals("N/A")) {
                // ffprobe prints size before pos for this entry list, whatever order was asked.
                packets.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[0])});
            }
        }
        return packets;
    }

    static Path randomBytes(Path dir, String name, int size, long seed) throws IOException {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return Files.write(dir.resolve(name), bytes);
    }

    static Path firstBytes(Path source, Path dir, String name, int size) throws IOException {
        byte[] all = Files.readAllBytes(source);
        return Files.write(dir.resolve(name), Arrays.copyOf(all, Math.min(size, all.length)));
    }

    static String run(List<String> cmd) {
        return Commands.run(cmd, TIMEOUT_SECONDS);
    }
}
