package dev.scorecast.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Test videos made with the ffmpeg command, once per test run, with known contents. */
final class Videos {
    private static final Path DIR;
    private static final Map<String, Path> MADE = new ConcurrentHashMap<>();

    static {
        try {
            DIR = Files.createTempDirectory("scorecast-videos");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Videos() {}

    /** 4 s H.264 + AAC stereo in MP4, 320x240 at 25 fps. */
    static Path h264Aac() {
        return make(
                "h264-aac.mp4",
                "-f lavfi -i testsrc2=size=320x240:rate=25 -f lavfi -i sine=frequency=440:sample_rate=44100"
                        + " -t 4 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -c:a aac -ac 2");
    }

    /** 3 s VP9 + Opus in WebM, 256x144 at 30 fps. */
    static Path vp9Opus() {
        return make(
                "vp9-opus.webm",
                "-f lavfi -i testsrc2=size=256x144:rate=30 -f lavfi -i sine=frequency=330:sample_rate=48000"
                        + " -t 3 -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 200k -c:a libopus");
    }

    /** 3 s MPEG-4 part 2 + AAC in QuickTime MOV, 320x180 at 24 fps. */
    static Path mov() {
        return make(
                "mpeg4.mov",
                "-f lavfi -i testsrc2=size=320x180:rate=24 -f lavfi -i sine=frequency=550:sample_rate=48000"
                        + " -t 3 -c:v mpeg4 -q:v 5 -c:a aac");
    }

    /** 2 s H.264 without any audio stream. */
    static Path silentMp4() {
        return make(
                "no-audio.mp4",
                "-f lavfi -i testsrc2=size=320x240:rate=30 -t 2 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -an");
    }

    /** A longer H.264 file (about 1.5 MB) so that it splits into many chunks. */
    static Path largerMp4() {
        return make(
                "larger.mp4",
                "-f lavfi -i testsrc2=size=640x360:rate=30 -f lavfi -i sine=frequency=220:sample_rate=48000"
                        + " -t 6 -c:v libx264 -preset ultrafast -pix_fmt yuv420p -b:v 2M -c:a aac");
    }

    /** 6 s at 25 fps: three different shots with hard cuts at 2.0 s and 4.0 s (frames 50 and 100), a tone under it. */
    static Path withCuts() {
        return make(
                "cuts.mp4",
                "-t 2 -f lavfi -i testsrc2=size=320x240:rate=25 -t 2 -f lavfi -i smptebars=size=320x240:rate=25"
                        + " -t 2 -f lavfi -i mandelbrot=size=320x240:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000"
                        + " -filter_complex [0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v] -map [v] -map 3:a -t 6"
                        + " -c:v libx264 -preset ultrafast -c:a aac");
    }

    /** 16 s at 25 fps: four different shots with hard cuts at 4, 8 and 12 s, a quiet tone and noise under them. */
    static Path fourScenes() {
        return make(
                "four-scenes.mp4",
                "-t 4 -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -f lavfi -i smptebars=size=320x240:rate=25"
                        + " -t 4 -f lavfi -i mandelbrot=size=320x240:rate=25 -t 4 -f lavfi -i life=size=320x240:rate=25:seed=3"
                        + " -f lavfi -i sine=frequency=220:sample_rate=48000"
                        + " -filter_complex [0:v][1:v][2:v][3:v]concat=n=4:v=1:a=0,format=yuv420p[v];[4:a]volume=0.2[a]"
                        + " -map [v] -map [a] -t 16 -c:v libx264 -preset ultrafast -c:a aac");
    }

    /**
     * 12.012 s at NTSC's 30000/1001 fps (29.97): three shots of 120 frames, hard cuts at frames 120
     * and 240 (4.004 and 8.008 s), a quiet tone under them. Named as an editor's cut would be.
     */
    static Path ntscScenes() {
        return make(
                "harbour-cut.mp4",
                "-t 4.004 -f lavfi -i testsrc2=size=320x240:rate=30000/1001"
                        + " -t 4.004 -f lavfi -i smptebars=size=320x240:rate=30000/1001 -t 4.004 -f lavfi -i mandelbrot=size=320x240:rate=30000/1001"
                        + " -f lavfi -i sine=frequency=220:sample_rate=48000"
                        + " -filter_complex [0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v];[3:a]volume=0.2[a]"
                        + " -map [v] -map [a] -t 12.012 -c:v libx264 -preset ultrafast -c:a aac");
    }

    static Path make(String name, String arguments) {
        return MADE.computeIfAbsent(name, n -> {
            Path out = DIR.resolve(n);
            var command = new ArrayList<>(List.of("ffmpeg", "-hide_banner", "-loglevel", "error", "-y"));
            command.addAll(List.of(arguments.split(" ")));
            command.add(out.toString());
            run(command);
            return out;
        });
    }

    private static void run(List<String> command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("ffmpeg failed: " + String.join(" ", command) + "\n" + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
