package dev.scorecast.engine.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs Debian's ffmpeg and ffprobe (5.1) for fixtures; arguments are passed as a list, so filter graphs need no shell quoting. */
final class FfmpegCli {
    private static final long TIMEOUT_SECONDS = 900;

    private FfmpegCli() {}

    /** Runs {@code ffmpeg <args> out} and returns {@code out}. */
    static Path ffmpeg(Path out, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"));
        cmd.addAll(args);
        cmd.add(out.toString());
        run(cmd);
        return out;
    }

    /** Presentation times in seconds of every video frame, from ffprobe. */
    static List<Double> frameTimes(Path video) {
        String csv = run(List.of("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                "frame=best_effort_timestamp_time", "-of", "csv=p=0", video.toString()));
        List<Double> times = new ArrayList<>();
        for (String line : csv.split("\n")) {
            String value = line.trim().replace(",", "");
            if (!value.isEmpty() && !value.equals("N/A")) {
                times.add(Double.parseDouble(value));
            }
        }
        return times;
    }

    static String run(List<String> cmd) {
        Path log = null;
        try {
            // A file rather than a pipe: a pipe nobody reads can block the child.
            log = Files.createTempFile("ffmpeg-", ".log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
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
                    // a stray temp log is harmless
                }
            }
        }
    }
}
