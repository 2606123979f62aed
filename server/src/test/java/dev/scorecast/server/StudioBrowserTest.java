package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scorecast Studio end to end in Debian's Chromium: the Playwright script {@code src/test/studio/studio.test.mjs}
 * drives a real server through the page (sign in, upload, analyse, plan, a validation error, execute, play,
 * download, my videos, live with the latency measured at the listener, both screen sizes, axe-core).
 * bin/test installs Chromium and the script's npm packages; screenshots land in target/studio-screenshots.
 */
class StudioBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCRIPT_DIR = Path.of("src/test/studio");

    @TempDir
    Path data;

    /** 12 s at 25 fps: three shots with hard cuts at 4 and 8 s, a tone under them. */
    static Path threeShots() {
        return Videos.make("three-shots.mp4", "-t 4 -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -f lavfi -i smptebars=size=320x240:rate=25"
                + " -t 4 -f lavfi -i mandelbrot=size=320x240:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000"
                + " -filter_complex [0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v];[3:a]volume=0.3[a] -map [v] -map [a] -t 12"
                + " -c:v libx264 -preset ultrafast -c:a aac");
    }

    @Test
    void theStudioScoresAVideoAndPlaysLiveInChromium() throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(CHROMIUM), "Chromium is not installed (/usr/bin/chromium); bin/test installs the Debian packages"
                + " chromium and chromium-driver");
        assumeTrue(Files.isDirectory(SCRIPT_DIR.resolve("node_modules/playwright-core")), "playwright-core is not installed; bin/test runs"
                + " npm ci in server/src/test/studio");
        Path video = threeShots();
        Path screenshots = Path.of("target/studio-screenshots");
        Files.createDirectories(screenshots);
        // The live player warmed up as bin/scorecast serve does (4 s), so first sound is what a user gets.
        try (TestServer server = TestServer.start(data, java.util.Map.of("SCORECAST_LIVE_WARMUP_SECONDS", "4"))) {
            var command = new ProcessBuilder(List.of("node", "studio.test.mjs")).directory(SCRIPT_DIR.toFile()).redirectErrorStream(true);
            command.environment().put("STUDIO_BASE_URL", server.server.publicUrl());
            command.environment().put("STUDIO_API_KEY", server.aliceKey);
            command.environment().put("STUDIO_VIDEO", video.toAbsolutePath().toString());
            command.environment().put("STUDIO_CUTS", "4,8");
            command.environment().put("STUDIO_SCREENSHOTS", screenshots.toAbsolutePath().toString());
            Process process = command.start();
            String output;
            try (var in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            boolean done = process.waitFor(240, TimeUnit.SECONDS);
            if (!done) {
                process.destroyForcibly();
            }
            System.out.println(output);
            assertEquals(0, done ? process.exitValue() : -1, "the studio's browser test failed:\n" + output);
        }
    }
}
