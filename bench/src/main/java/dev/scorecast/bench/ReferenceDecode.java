package dev.scorecast.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The yardstick for the scoring's speed (issue 30): FFmpeg's own command line decoding the whole
 * clip, every picture and the sound, at full size, with its default threads, nothing written
 * ({@code ffmpeg -i CLIP -f null -}). Measured in the same run as what it is compared with, it
 * moves with the machine's load and the host's speed, which on a shared VM the absolute times do
 * not survive. (Until issue 30 the yardstick decoded the pictures only, scaled to 160 x 90 grey.)
 */
final class ReferenceDecode {
    static final List<String> ARGUMENTS =
            List.of("-hide_banner", "-loglevel", "error", "-nostdin", "-i", "CLIP", "-f", "null", "-");

    private ReferenceDecode() {}

    /** Wall time and CPU time (user and system, all its threads) of one decode. */
    record Timing(double wallSeconds, double cpuSeconds) {}

    /**
     * Decodes {@code clip} with the ffmpeg CLI. It runs under bash, whose {@code times} then
     * reports the CPU time its child used, which Java cannot read of a process that has ended.
     */
    static Timing time(Path clip) throws IOException, InterruptedException {
        StringBuilder command = new StringBuilder("ffmpeg");
        for (String a : ARGUMENTS) {
            command.append(' ')
                    .append(a.equals("CLIP") ? "'" + clip.toString().replace("'", "'\\''") + "'" : "'" + a + "'");
        }
        long start = System.nanoTime();
        Process shell = new ProcessBuilder("bash", "-c", command + " || exit 1; times")
                .redirectErrorStream(true)
                .start();
        String output = new String(shell.getInputStream().readAllBytes());
        if (shell.waitFor() != 0) {
            throw new IllegalStateException("the ffmpeg CLI could not decode " + clip + ": " + output);
        }
        double wall = (System.nanoTime() - start) / 1e9;
        // times prints the shell's own user and system time, then its children's: "0m15.340s 0m0.712s".
        String[] lines = output.strip().split("\n");
        double cpu = 0;
        for (String part : lines[lines.length - 1].trim().split("\\s+")) {
            String[] ms = part.replace("s", "").split("m");
            cpu += Double.parseDouble(ms[0]) * 60 + Double.parseDouble(ms[1]);
        }
        return new Timing(wall, cpu);
    }

    /** The command as a person would type it. */
    static String commandLine() {
        return "ffmpeg " + String.join(" ", ARGUMENTS).replace("CLIP", "CLIP.mp4");
    }
}
