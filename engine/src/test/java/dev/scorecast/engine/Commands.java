package dev.scorecast.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an outside tool (ffmpeg, ffprobe, sox, espeak-ng) for a test and answers what it printed. */
public final class Commands {
    private Commands() {}

    /** @throws IllegalStateException when the command fails, or runs past {@code timeoutSeconds} */
    public static String run(List<String> cmd, long timeoutSeconds) {
        Path log = null;
        try {
            // Output goes to a file, not a pipe: a pipe nobody reads can block the child, and
            // reading it before waiting would defeat the timeout.
            log = Files.createTempFile("command-", ".log");
            Process p = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            p.getOutputStream().close();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + cmd);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("failed (" + p.exitValue() + "): " + cmd + "\n" + output);
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + cmd, e);
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // A temporary log left behind is harmless.
                }
            }
        }
    }

    /** The onset times, in seconds, that aubio's {@code aubioonset} (Debian aubio-tools) hears in {@code wav} by {@code method} (hfc, energy...). */
    public static List<Double> aubioOnsets(Path wav, String method) {
        List<Double> times = new ArrayList<>();
        for (String line : run(List.of("aubioonset", "-O", method, "-i", wav.toString()), 120)
                .split("\n")) {
            if (!line.isBlank()) {
                times.add(Double.parseDouble(line.trim()));
            }
        }
        return times;
    }
}
