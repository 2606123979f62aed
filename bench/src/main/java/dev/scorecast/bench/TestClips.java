package dev.scorecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The analysis benchmark's videos, made with the ffmpeg CLI once and kept in a cache directory:
 * making the minute of 1080p takes about 40 s on two cores, which would swamp the run otherwise.
 * A clip appears under its name complete or not at all, so an interrupted run never leaves a
 * broken one to be reused. Change {@link #RECIPE} whenever the recipe changes, so that old
 * clips are not mistaken for new ones.
 */
final class TestClips {
    private static final String RECIPE = "v1";
    private static final String SIZE = "s=1920x1080:r=30";

    /**
     * Segments from different generators, so the clip has real cuts (five) and the picture pass
     * meets the kinds of content it must tell apart. Mandelbrot and Life are full of fine moving
     * detail; with them the clip comes to about 15 Mb/s, what a phone writes for 1080p30, which
     * matters because decoding cost follows the bitrate.
     */
    private static final List<Segment> SEGMENTS = List.of(
            new Segment("testsrc2=" + SIZE, 12), // moving pattern and counter
            new Segment("mandelbrot=" + SIZE + ":end_scale=0.01", 8), // steady zoom: change without cuts
            new Segment("smptehdbars=" + SIZE, 6), // a still picture
            new Segment("life=" + SIZE + ":mold=10:ratio=0.5:death_color=#203040:life_color=#e0c080", 10),
            new Segment("gradients=" + SIZE + ":speed=0.03", 12), // slow colour drift, which is no cut
            new Segment("testsrc2=" + SIZE + ",hue=h=90,negate", 12)); // the first pattern with another look

    private TestClips() {}

    /** A 60 s 1920x1080 30 fps H.264 clip with AAC sound. */
    static Path oneMinute(Path dir) throws IOException, InterruptedException {
        return clip(dir.resolve("analysis-60s-1080p30-" + RECIPE + ".mp4"), SEGMENTS, "60 s of 1080p30 H.264");
    }

    /**
     * A 12 s 640x360 30 fps H.264 clip with AAC sound and cuts at 4 and 8 s: quick to upload, analyse
     * and score, for benchmarks that run many jobs (the soak).
     */
    static Path short12s(Path dir) throws IOException, InterruptedException {
        String size = "s=640x360:r=30";
        return clip(
                dir.resolve("short-12s-360p30-" + RECIPE + ".mp4"),
                List.of(
                        new Segment("testsrc2=" + size, 4),
                        new Segment("smptehdbars=" + size, 4),
                        new Segment("gradients=" + size + ":speed=0.03", 4)),
                "12 s of 360p30 H.264");
    }

    private static Path clip(Path clip, List<Segment> segments, String what) throws IOException, InterruptedException {
        if (Files.isRegularFile(clip)) {
            return clip;
        }
        List<String> command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
        StringBuilder graph = new StringBuilder();
        int seconds = 0;
        for (int i = 0; i < segments.size(); i++) {
            command.addAll(List.of("-f", "lavfi", "-i", segments.get(i).source()));
            graph.append("[%d:v]trim=duration=%d,setpts=PTS-STARTPTS[v%d];"
                    .formatted(i, segments.get(i).seconds(), i));
            seconds += segments.get(i).seconds();
        }
        for (int i = 0; i < segments.size(); i++) {
            graph.append("[v%d]".formatted(i));
        }
        graph.append("concat=n=%d:v=1:a=0,format=yuv420p[v];".formatted(segments.size()));
        // A tone that beeps every second (onsets) over pink noise: sound that is neither silence nor speech.
        int sound = segments.size();
        command.addAll(List.of(
                "-f",
                "lavfi",
                "-i",
                "sine=f=330:beep_factor=4:sample_rate=48000:d=" + seconds,
                "-f",
                "lavfi",
                "-i",
                "anoisesrc=color=pink:amplitude=0.1:sample_rate=48000:d=" + seconds));
        graph.append("[%d:a][%d:a]amix=inputs=2,aformat=channel_layouts=stereo[a]".formatted(sound, sound + 1));
        command.addAll(List.of(
                "-filter_complex",
                graph.toString(),
                "-map",
                "[v]",
                "-map",
                "[a]",
                // A keyframe every 2 s, roughly what cameras and phones write.
                "-c:v",
                "libx264",
                "-preset",
                "veryfast",
                "-crf",
                "23",
                "-g",
                "60",
                "-c:a",
                "aac",
                "-b:a",
                "128k",
                "-movflags",
                "+faststart",
                "-f",
                "mp4"));
        return make(clip, command, what);
    }

    /**
     * Ten copies of {@code oneMinute} joined without re-encoding (the concat demuxer), so a valid
     * 10-minute H.264 file costs seconds instead of minutes.
     */
    static Path tenMinutes(Path dir, Path oneMinute) throws IOException, InterruptedException {
        Path clip = dir.resolve("analysis-600s-1080p30-" + RECIPE + ".mp4");
        if (Files.isRegularFile(clip)) {
            return clip;
        }
        Path list = dir.resolve("analysis-600s.concat");
        String line = "file '" + oneMinute.toAbsolutePath().toString().replace("'", "'\\''") + "'\n";
        Files.writeString(list, String.join("", Collections.nCopies(10, line)));
        try {
            // Error level only: at each join the muxer nudges AAC timestamps by a few ms and says so ten times.
            return make(
                    clip,
                    List.of(
                            "ffmpeg",
                            "-hide_banner",
                            "-loglevel",
                            "error",
                            "-y",
                            "-f",
                            "concat",
                            "-safe",
                            "0",
                            "-i",
                            list.toString(),
                            "-c",
                            "copy",
                            "-movflags",
                            "+faststart",
                            "-f",
                            "mp4"),
                    "10 min of 1080p30 H.264");
        } finally {
            Files.deleteIfExists(list);
        }
    }

    /** Runs {@code command} with a partial file name appended, then gives the result its real name. */
    private static Path make(Path clip, List<String> command, String what) throws IOException, InterruptedException {
        Files.createDirectories(clip.getParent());
        Path partial = clip.resolveSibling(clip.getFileName() + ".part");
        List<String> full = new ArrayList<>(command);
        full.add(partial.toString());
        System.out.printf("making the test clip %s (%s), once; it is kept for later runs%n", clip, what);
        long start = System.nanoTime();
        Process ffmpeg = new ProcessBuilder(full).inheritIO().start();
        if (ffmpeg.waitFor() != 0) {
            Files.deleteIfExists(partial);
            throw new IllegalStateException(
                    "ffmpeg could not make " + clip + "; is the ffmpeg CLI with libx264 installed?");
        }
        Files.move(partial, clip, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("  made in %.0f s%n", (System.nanoTime() - start) / 1e9);
        return clip;
    }

    private record Segment(String source, int seconds) {}
}
