package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Shared experiences as low-latency HLS (issue 29): the playlist, init segment, segments and parts are public, cacheable
 * (the playlist for a second, every file immutable), written once whoever asks, and played by FFmpeg and by hls.js in
 * Chromium; the numbers they measure (first sound, latency to the ear) are printed for docs/PLAYER.md.
 */
class HlsTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String HLS = "/player/hls/house-rooftop/";
    private static final Pattern SEGMENT = Pattern.compile("(?m)^(media/[0-9a-z]+-s([0-9]+)\\.m4s)$");
    private static final Pattern PART = Pattern.compile("URI=\"(media/[0-9a-z]+-p([0-9]+)\\.([0-9])\\.m4s)\"");

    @TempDir
    Path data;

    @Test
    void aSharedExperienceIsPublishedOnceAsPublicCacheableLowLatencyHls() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            // A key nobody has: the files need none (an authenticated path would answer 401).
            Api anyone = new Api(server.server.publicUrl(), "sc_nobody");
            Api.Response playlist = anyone.get(HLS + "index.m3u8");
            assertEquals(200, playlist.status(), playlist.toString());
            assertEquals("public, max-age=1", playlist.header("Cache-Control"));
            assertEquals("*", playlist.header("Access-Control-Allow-Origin"));
            assertTrue(playlist.header("Content-Type").startsWith("application/vnd.apple.mpegurl"));
            String m3u8 = playlist.raw().body();
            for (String tag : List.of(
                    "#EXT-X-TARGETDURATION:2",
                    "#EXT-X-PART-INF:PART-TARGET=0.49067",
                    "CAN-BLOCK-RELOAD=YES",
                    "#EXT-X-MAP:URI=\"init.mp4\"",
                    "#EXT-X-PROGRAM-DATE-TIME:",
                    "#EXT-X-PRELOAD-HINT:TYPE=PART")) {
                assertTrue(m3u8.contains(tag), tag + " in\n" + m3u8);
            }
            Matcher segment = SEGMENT.matcher(m3u8);
            assertTrue(segment.find(), m3u8);
            Matcher part = PART.matcher(m3u8);
            assertTrue(part.find(), m3u8);

            Api.Response init = anyone.get(HLS + "init.mp4");
            assertEquals("public, max-age=31536000, immutable", init.header("Cache-Control"));
            byte[] initBytes = anyone.getBytes(HLS + "init.mp4");
            assertEquals("ftyp", new String(initBytes, 4, 4, StandardCharsets.US_ASCII));
            byte[] seg = anyone.getBytes(HLS + segment.group(1));
            assertEquals("moof", new String(seg, 4, 4, StandardCharsets.US_ASCII));
            assertEquals(
                    "public, max-age=31536000, immutable",
                    anyone.get(HLS + segment.group(1)).header("Cache-Control"));
            assertEquals("moof", new String(anyone.getBytes(HLS + part.group(1)), 4, 4, StandardCharsets.US_ASCII));
            // Written once: a second listener gets the very same bytes, from the one shared performance.
            assertArrayEquals(seg, anyone.getBytes(HLS + segment.group(1)));
            assertEquals(1, server.server.player().hls().channels());
            assertEquals(1, server.server.player().engine().performances());

            // Blocking reload: asking for the next part answers once it is written, within a part or two.
            Matcher hint = Pattern.compile("PRELOAD-HINT:TYPE=PART,URI=\"media/[0-9a-z]+-p([0-9]+)\\.([0-9])\\.m4s\"")
                    .matcher(m3u8);
            assertTrue(hint.find());
            long t0 = System.nanoTime();
            Api.Response blocked =
                    anyone.get(HLS + "index.m3u8?_HLS_msn=" + hint.group(1) + "&_HLS_part=" + hint.group(2));
            double waited = (System.nanoTime() - t0) / 1e9;
            assertEquals(200, blocked.status());
            assertTrue(
                    blocked.raw().body().contains("-p" + hint.group(1) + "." + hint.group(2) + ".m4s\",INDEPENDENT"),
                    blocked.raw().body());
            assertTrue(waited < 3, "the blocked reload answered after " + waited + " s");

            Api.Response unknown = anyone.get("/player/hls/no-such-thing/index.m3u8");
            assertEquals(404, unknown.status());
            assertEquals("experience", unknown.body().get("field").asText(), unknown.toString());
            Api.Response bad = anyone.get(HLS + "index.m3u8?_HLS_msn=abc");
            assertEquals(400, bad.status());
            assertEquals("_HLS_msn", bad.body().get("field").asText());
            assertEquals(400, anyone.get(HLS + "index.m3u8?_HLS_msn=99999999").status());
            Api.Response gone = anyone.get(HLS + "media/zzzz-s1.m4s");
            assertEquals(404, gone.status());
            assertEquals("file", gone.body().get("field").asText());
        }
    }

    // Tagged slow (bin/test --all): a player reading the live stream for seconds on the wall clock; the publishing test
    // stays fast.
    @Test
    @Tag("slow")
    void ffmpegPlaysTheSharedExperience() throws Exception {
        try (TestServer server = TestServer.start(data)) {
            String url = server.server.publicUrl() + HLS + "index.m3u8";
            long t0 = System.nanoTime();
            Process ffmpeg = new ProcessBuilder(
                            "ffmpeg", "-v", "error", "-i", url, "-t", "6", "-f", "s16le", "-ac", "2", "-ar", "48000",
                            "-")
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            ByteArrayOutputStream pcm = new ByteArrayOutputStream();
            long firstByte = -1;
            try (InputStream in = ffmpeg.getInputStream()) {
                byte[] buf = new byte[16384];
                for (int n; (n = in.read(buf)) > 0; ) {
                    if (firstByte < 0) {
                        firstByte = System.nanoTime() - t0;
                    }
                    pcm.write(buf, 0, n);
                }
            }
            assertEquals(0, ffmpeg.waitFor(), "ffmpeg's exit status");
            double seconds = pcm.size() / 4.0 / 48000;
            assertEquals(6.0, seconds, 0.05, "six seconds decoded");
            ByteBuffer b = ByteBuffer.wrap(pcm.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
            double sum = 0;
            int n = pcm.size() / 2;
            for (int i = 0; i < n; i++) {
                double v = b.getShort() / 32768.0;
                sum += v * v;
            }
            double rms = Math.sqrt(sum / n);
            assertTrue(rms > 0.01, "music, not silence: rms " + rms);
            System.out.printf(
                    "HLS with FFmpeg: first audio out %.0f ms after it started (a channel not yet open), rms %.3f%n",
                    firstByte / 1e6, rms);
        }
    }

    // Tagged slow (bin/test --all): a player reading the live stream for seconds on the wall clock; the publishing test
    // stays fast.
    @Test
    @Tag("slow")
    void hlsJsPlaysTheSharedExperienceInChromiumAtLowLatency() throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium or chromedriver is not installed");
        try (TestServer server = TestServer.start(data, Map.of("SCORECAST_LIVE_WARMUP_SECONDS", "4"))) {
            String base = server.server.publicUrl();
            // The channel is open (a listener before us): what a listener joining a published experience gets.
            new Api(base, "sc_nobody").get(HLS + "index.m3u8");
            Thread.sleep(6000);
            Path profile = Files.createTempDirectory("scorecast-chromium-");
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments(
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--autoplay-policy=no-user-gesture-required",
                    "--user-data-dir=" + profile);
            ChromeDriver driver = new ChromeDriver(
                    new ChromeDriverService.Builder()
                            .usingDriverExecutable(CHROMEDRIVER.toFile())
                            .usingAnyFreePort()
                            .build(),
                    options);
            // A page of another site, with hls.js as the studio serves it (npm hls.js, light build).
            String page = "<!doctype html><title>hls</title><audio id=a></audio><script src=\"" + base
                    + "/studio/hls-light.js\"></script><script>"
                    + "window.r={};const a=document.getElementById('a');const h=new Hls({lowLatencyMode:true,enableWorker:false});window.h=h;"
                    + "h.on(Hls.Events.ERROR,(e,d)=>{if(d.fatal)window.r.error=d.details;});"
                    + "h.loadSource('" + base + HLS
                    + "index.m3u8');h.attachMedia(a);a.play().catch(e=>window.r.error=String(e));"
                    + "(function poll(){if(a.currentTime>0){window.r.first=performance.now();}else{setTimeout(poll,5);}})();</script>";
            HttpServer site = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            site.createContext("/", exchange -> {
                byte[] body = page.getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            site.start();
            try {
                driver.get("http://127.0.0.1:" + site.getAddress().getPort() + "/");
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                Object first = null;
                while (first == null && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    first = driver.executeScript("return window.r.first || (window.r.error ? -1 : null)");
                }
                assertNotNull(first, "hls.js did not start within 20 s");
                double firstMs = ((Number) first).doubleValue();
                assertTrue(firstMs > 0, "hls.js failed: " + driver.executeScript("return window.r.error"));
                Thread.sleep(8000);
                // Latency to the ear: now less the program date time of what plays (PDT dates a sample when it was
                // rendered).
                Number latency = (Number) driver.executeScript(
                        "return window.h.playingDate ? Date.now() - window.h.playingDate.getTime() : null");
                Number stalls = (Number)
                        driver.executeScript("return document.getElementById('a').webkitAudioDecodedByteCount");
                assertNotNull(latency, "hls.js has no playing date");
                System.out.printf(
                        "HLS with hls.js in Chromium: first sound %.0f ms after the page started; latency to the ear %.2f s (decoded %s bytes)%n",
                        firstMs, latency.doubleValue() / 1000, stalls);
                assertTrue(firstMs < 5000, "first sound after " + firstMs + " ms");
                assertTrue(latency.doubleValue() < 6000, "latency " + latency + " ms");
            } finally {
                site.stop(0);
                driver.quit();
                try (var walk = Files.walk(profile)) {
                    walk.sorted(Comparator.reverseOrder())
                            .forEach(p -> p.toFile().delete());
                }
            }
        }
    }
}
