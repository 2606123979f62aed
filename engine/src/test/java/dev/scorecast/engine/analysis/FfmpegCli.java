package dev.scorecast.engine.analysis;

import dev.scorecast.engine.Commands;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
        String csv = run(List.of(
                "ffprobe",
                "-v",
                "error",
                "-select_streams",
                "v:0",
                "-show_entries",
                "frame=best_effort_timestamp_time",
                "-of",
                "csv=p=0",
                video.toString()));
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
        return Commands.run(cmd, TIMEOUT_SECONDS);
    }
}
