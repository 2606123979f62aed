package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.bidi.log.BaseLogEntry;
import org.openqa.selenium.bidi.log.LogLevel;
import org.openqa.selenium.bidi.module.LogInspector;
import org.openqa.selenium.bidi.module.Network;
import org.openqa.selenium.bidi.network.AddInterceptParameters;
import org.openqa.selenium.bidi.network.BeforeRequestSent;
import org.openqa.selenium.bidi.network.BytesValue;
import org.openqa.selenium.bidi.network.ContinueRequestParameters;
import org.openqa.selenium.bidi.network.Header;
import org.openqa.selenium.bidi.network.InterceptPhase;
import org.openqa.selenium.bidi.network.ProvideResponseParameters;
import org.openqa.selenium.bidi.network.ResponseData;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * Scorecast Studio end to end in Debian's Chromium, driven by Selenium through Debian's chromedriver (WebDriver BiDi for
 * the network and the console): through the page, as a user clicks and types, against a real server (in process, on a
 * free port, its live player warmed up as {@code bin/scorecast serve} does). Sign in, upload, analyse, a refused file,
 * a resumed upload, plan, a validation error, execute, play, download, my videos, live with the latency measured at the
 * listener, both screen sizes, axe-core, no console errors. Every element it touches is found by its data-testid.
 *
 * <p>bin/test installs Chromium and chromedriver (Debian's {@code chromium}, {@code chromium-driver}); without them the
 * test is skipped. Screenshots of each step at 1280x800 and 390x844 land in target/studio-screenshots.
 *
 * <p>Against a running server instead (docs/STUDIO.md, the glitch benchmark of docs/BENCHMARKS.md): STUDIO_BASE_URL,
 * STUDIO_API_KEY, STUDIO_VIDEO, STUDIO_CUTS (seconds, comma-separated), and optionally STUDIO_LIVE_SECONDS (how long the
 * live stream plays while underruns are counted, default 12), STUDIO_STRICT_GLITCHES=1 (fail on any underrun, and
 * measure a plain {@code <audio>} element on the same stream for reference), STUDIO_SCREENSHOTS (a folder).
 *
 * <p>Tagged slow (bin/test --all, CI): Chromium end to end, 62 s; StudioPageTest checks the page's files
 * and API in the fast tier.
 */
@Tag("slow")
class StudioBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path data;

    /** 12 s at 25 fps: three shots with hard cuts at 4 and 8 s, a tone under them. */
    static Path threeShots() {
        return Videos.make(
                "three-shots.mp4",
                "-t 4 -f lavfi -i testsrc2=size=320x240:rate=25 -t 4 -f lavfi -i smptebars=size=320x240:rate=25"
                        + " -t 4 -f lavfi -i mandelbrot=size=320x240:rate=25 -f lavfi -i sine=frequency=440:sample_rate=48000"
                        + " -filter_complex [0:v][1:v][2:v]concat=n=3:v=1:a=0,format=yuv420p[v];[3:a]volume=0.3[a] -map [v] -map [a] -t 12"
                        + " -c:v libx264 -preset ultrafast -c:a aac");
    }

    @Test
    void theStudioScoresAVideoAndPlaysLiveInChromium() throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium or chromedriver is not installed"
                        + " (/usr/bin/chromium, /usr/bin/chromedriver); bin/test installs the Debian packages chromium and chromium-driver");
        String external = System.getenv("STUDIO_BASE_URL");
        Path screenshots =
                Path.of(Optional.ofNullable(System.getenv("STUDIO_SCREENSHOTS")).orElse("target/studio-screenshots"));
        Files.createDirectories(screenshots);
        int liveSeconds = Integer.parseInt(
                Optional.ofNullable(System.getenv("STUDIO_LIVE_SECONDS")).orElse("12"));
        boolean strict = "1".equals(System.getenv("STUDIO_STRICT_GLITCHES"));
        List<String> failures;
        if (external != null) {
            List<Double> cuts = Arrays.stream(Optional.ofNullable(System.getenv("STUDIO_CUTS"))
                            .orElse("4,8")
                            .split(","))
                    .map(Double::parseDouble)
                    .toList();
            failures = new Flow(
                            external,
                            System.getenv("STUDIO_API_KEY"),
                            Path.of(System.getenv("STUDIO_VIDEO")),
                            cuts,
                            screenshots,
                            liveSeconds,
                            strict,
                            data)
                    .run();
        } else {
            Path video = threeShots();
            // The live player warmed up as bin/scorecast serve does (4 s), so first sound is what a user gets.
            try (TestServer server = TestServer.start(data, Map.of("SCORECAST_LIVE_WARMUP_SECONDS", "4"))) {
                failures = new Flow(
                                server.server.publicUrl(),
                                server.aliceKey,
                                video,
                                List.of(4.0, 8.0),
                                screenshots,
                                liveSeconds,
                                strict,
                                data)
                        .run();
            }
        }
        assertEquals(List.of(), failures, "the studio's browser test failed");
    }

    /** One run of the studio in a fresh Chromium profile. */
    static final class Flow {
        private final String base;
        private final String key;
        private final Path video;
        private final List<Double> cuts;
        private final Path shots;
        private final int liveSeconds;
        private final boolean strict;
        private final Path scratch;
        private final Map<String, Object> metrics = new LinkedHashMap<>();
        private final List<String> failures = new ArrayList<>();
        /** What Chromium would print as a console error: console.error, uncaught exceptions, 4xx/5xx answers, failed requests. */
        private final List<String> consoleErrors = new CopyOnWriteArrayList<>();
        /** The chunk index of every upload_chunk request the page sends, into the list current at the time. */
        private final AtomicReference<List<Integer>> chunkLog = new AtomicReference<>(new CopyOnWriteArrayList<>());
        /** Decides what happens to an intercepted upload_chunk request (null: nothing is intercepted). */
        private final AtomicReference<Consumer<BeforeRequestSent>> route = new AtomicReference<>();

        private final List<ResponseData> responses = new CopyOnWriteArrayList<>();
        private final ExecutorService routing = Executors.newSingleThreadExecutor(
                r -> Thread.ofPlatform().daemon().name("studio-route").unstarted(r));
        private ChromeDriver driver;
        private Network network;
        private String axeSource;

        Flow(
                String base,
                String key,
                Path video,
                List<Double> cuts,
                Path shots,
                int liveSeconds,
                boolean strict,
                Path scratch) {
            this.base = base;
            this.key = key;
            this.video = video.toAbsolutePath();
            this.cuts = cuts;
            this.shots = shots;
            this.liveSeconds = liveSeconds;
            this.strict = strict;
            this.scratch = scratch;
        }

        List<String> run() throws IOException {
            Path profile = Files.createTempDirectory("scorecast-chromium-");
            try (InputStream axe = StudioBrowserTest.class.getResourceAsStream("/axe.min.js")) {
                axeSource = new String(axe.readAllBytes(), StandardCharsets.UTF_8);
            }
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            options.addArguments(
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--autoplay-policy=no-user-gesture-required",
                    "--window-size=1280,800",
                    "--user-data-dir=" + profile);
            options.setCapability("webSocketUrl", true);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort()
                    .withLogFile(Path.of("target/chromedriver.log").toFile())
                    .build();
            driver = new ChromeDriver(service, options);
            try (Network net = new Network(driver);
                    LogInspector log = new LogInspector(driver)) {
                network = net;
                driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
                log.onLog(any -> {
                    BaseLogEntry entry = any.getConsoleLogEntry()
                            .map(BaseLogEntry.class::cast)
                            .or(() -> any.getJavascriptLogEntry().map(BaseLogEntry.class::cast))
                            .or(() -> any.getGenericLogEntry().map(BaseLogEntry.class::cast))
                            .orElse(null);
                    // Chromium's "Failed to load resource" lines are counted from the network events below.
                    if (entry != null
                            && entry.getLevel() == LogLevel.ERROR
                            && !String.valueOf(entry.getText()).startsWith("Failed to load resource")) {
                        consoleErrors.add(entry.getText());
                    }
                });
                network.onBeforeRequestSent(this::requested);
                network.onResponseCompleted(r -> {
                    ResponseData response = r.getResponseData();
                    responses.add(response);
                    if (response.getStatus() >= 400) {
                        consoleErrors.add("status of " + response.getStatus() + " at "
                                + r.getRequest().getUrl());
                    }
                });
                network.onFetchError(e -> {
                    // The page's own cancellations (a player disconnecting, the video element's range requests) are no
                    // errors.
                    if (!e.getErrorText().contains("ERR_ABORTED")) {
                        consoleErrors.add(
                                e.getErrorText() + " at " + e.getRequest().getUrl());
                    }
                });
                viewport(1280, 800);
                steps();
            } finally {
                routing.shutdownNow();
                driver.quit();
                deleteTree(profile);
            }
            System.out.println("STUDIO_METRICS " + JSON.writeValueAsString(metrics));
            System.out.println("studio steps: " + countPassed + " ok, " + failures.size() + " failed");
            return failures;
        }

        private int countPassed;

        interface Body {
            void run() throws Exception;
        }

        /** Runs a step; after the first failure the rest are skipped, as each step builds on the one before. */
        private void step(String name, Body body) {
            if (!failures.isEmpty()) {
                return;
            }
            long started = System.nanoTime();
            try {
                body.run();
                countPassed++;
                System.out.printf("ok   %s (%d ms)%n", name, (System.nanoTime() - started) / 1_000_000);
            } catch (Throwable e) {
                failures.add(name + ": " + e);
                System.out.println("FAIL " + name + ": " + e);
                e.printStackTrace(System.out);
                try {
                    shot("failed-" + name.replaceAll("[^a-z]+", "-"));
                } catch (RuntimeException ignored) {
                    // the screenshot of a failure is a help, not a check
                }
            }
        }

        private void steps() {
            step("sign in", () -> {
                driver.get(base + "/");
                await(
                        "the sign-in form",
                        Duration.ofSeconds(10),
                        () -> tid("api-key").isDisplayed());
                shot("01-sign-in");
                // The keyboard: the skip link first, then the key field.
                new Actions(driver).sendKeys(Keys.TAB).perform();
                check("skip-link".equals(activeTestId()), "the skip link is focused first, not " + activeTestId());
                new Actions(driver).sendKeys(Keys.TAB).perform();
                check("api-key".equals(activeTestId()), "then the API key field, not " + activeTestId());
                fill(tid("api-key"), "sc_wrong");
                tid("sign-in").click();
                awaitText("sign-in-error", "not valid", Duration.ofSeconds(10));
                fill(tid("api-key"), key);
                tid("api-key").sendKeys(Keys.ENTER);
                await(
                        "the studio after signing in",
                        Duration.ofSeconds(10),
                        () -> tid("tab-score").isDisplayed());
                check(!driver.getCurrentUrl().contains("sc_"), "the key must never be in the URL");
                check(
                        Boolean.TRUE.equals(js("return sessionStorage.getItem('scorecast.apiKey') !== null")),
                        "the key is kept in sessionStorage");
            });

            step("upload and analyse", () -> {
                int seen = responses.size();
                tid("file-input").sendKeys(video.toString());
                await(
                        "the upload to finish",
                        Duration.ofSeconds(30),
                        () -> Boolean.TRUE.equals(
                                js("return document.querySelector('[data-testid=upload-progress]').value === 1")));
                check(
                        Pattern.compile("%|Uploaded")
                                .matcher(tid("upload-text").getText())
                                .find(),
                        "upload progress text: " + tid("upload-text").getText());
                awaitText("analysis-status", "Analysis finished", Duration.ofSeconds(60));
                String label = tid("timeline").getAttribute("aria-label");
                List<Double> shown = new ArrayList<>();
                Matcher m = Pattern.compile("cut at (\\d+\\.\\d+) s").matcher(label);
                while (m.find()) {
                    shown.add(Double.parseDouble(m.group(1)));
                }
                check(
                        cuts.stream().allMatch(c -> shown.stream().anyMatch(t -> Math.abs(t - c) <= 0.05)),
                        "the timeline shows the cuts at " + cuts + " s: " + label);
                WebElement timeline = tid("timeline");
                Rectangle box = timeline.getRect();
                new Actions(driver)
                        .moveToElement(timeline, 0, 120 - box.getHeight() / 2)
                        .perform();
                awaitText("timeline-tip", "energy", Duration.ofSeconds(5));
                ResponseData strip = awaitResponse(seen, "/sync/thumbnails?", Duration.ofSeconds(90));
                check(
                        strip.getStatus() == 200 && "image/jpeg".equals(header(strip, "content-type")),
                        "thumbnails answered " + strip.getStatus());
                Thread.sleep(300);
                shot("02-analysis");
            });

            step("a refused file shows the API message", () -> {
                Path notVideo = scratch.resolve("notes.mp4");
                Files.writeString(notVideo, "these are not the frames you are looking for\n".repeat(200));
                tid("file-input").sendKeys(notVideo.toString());
                awaitText("upload-error", "refused", Duration.ofSeconds(30));
                String refusal = tid("upload-error").getText();
                metrics.put("refusal", refusal);
                check(refusal.contains("not a video"), "the API's own message: " + refusal);
            });

            step("a dropped chunk is sent again; a reload resumes the upload", () -> {
                js("localStorage.setItem('scorecast.chunkBytes', String(256 * 1024))");
                List<Integer> sent = new CopyOnWriteArrayList<>();
                AtomicBoolean dropped = new AtomicBoolean();
                // Chunk 1 loses its connection once (sent again at once); chunks from 3 on are refused until the
                // reload.
                route.set(request -> {
                    String requestId = request.getRequest().getRequestId();
                    int index = chunkIndex(request);
                    if (index == 1 && dropped.compareAndSet(false, true)) {
                        network.failRequest(requestId);
                    } else if (index >= 3) {
                        network.provideResponse(new ProvideResponseParameters(requestId)
                                .statusCode(503)
                                .headers(List.of(new Header(
                                        "Content-Type", new BytesValue(BytesValue.Type.STRING, "application/json"))))
                                .body(new BytesValue(
                                        BytesValue.Type.STRING,
                                        "{\"error\":\"busy\",\"message\":\"test: the server went away\"}")));
                    } else {
                        sent.add(index);
                        network.continueRequest(new ContinueRequestParameters(requestId));
                    }
                });
                String intercept = network.addIntercept(new AddInterceptParameters(InterceptPhase.BEFORE_REQUEST_SENT)
                        .urlStringPattern(base + "/sync/upload_chunk"));
                try {
                    tid("file-input").sendKeys(video.toString());
                    awaitText("upload-error", "went away", Duration.ofSeconds(60));
                } finally {
                    network.removeIntercept(intercept);
                    route.set(null);
                }
                check(dropped.get() && sent.contains(1), "the dropped chunk was sent again: " + sent);
                driver.navigate().refresh();
                await(
                        "the studio after the reload",
                        Duration.ofSeconds(10),
                        () -> tid("tab-score").isDisplayed());
                List<Integer> after = new CopyOnWriteArrayList<>();
                chunkLog.set(after);
                tid("file-input").sendKeys(video.toString());
                awaitText("upload-text", "Uploaded", Duration.ofSeconds(60));
                check(
                        !after.isEmpty() && after.stream().allMatch(i -> i >= 3),
                        "only the missing chunks were sent after the reload: " + after);
                metrics.put("resumed", Map.of("before", new TreeSet<>(sent), "after", after));
                awaitText("analysis-status", "Analysis finished", Duration.ofSeconds(60));
                js("localStorage.removeItem('scorecast.chunkBytes')");
            });

            String[] tempo = new String[1];
            step("generate and edit with a validation error", () -> {
                fill(tid("opt-seed"), "3");
                tid("generate").click();
                await(
                        "the plan editor's sections",
                        Duration.ofSeconds(30),
                        () -> !tid("plan-editor")
                                .findElements(By.cssSelector("fieldset.section"))
                                .isEmpty());
                tempo[0] = tid("plan-sections-0-tempo").getDomProperty("value");
                shot("03-plan");
                fill(tid("plan-sections-0-tempo"), "300");
                tid("execute").click();
                awaitText("plan-sections-0-tempo-error", "tempo", Duration.ofSeconds(10));
                check(
                        tid("plan-sections-0-tempo-error").getText().contains("40 to 240"),
                        "the tempo error says the range");
                check(
                        "true".equals(tid("plan-sections-0-tempo").getAttribute("aria-invalid")),
                        "the field is marked invalid");
                shot("04-plan-error");
                fill(tid("plan-sections-0-tempo"), tempo[0]);
            });

            step("execute and play the result", () -> {
                tid("execute").click();
                await("the result", Duration.ofSeconds(150), () -> tid("result").isDisplayed());
                check(
                        tid("execution-status").getText().toLowerCase().contains("finished"),
                        "finished status: " + tid("execution-status").getText());
                // Progress came as Server-Sent Events (the signed events_url), not by polling /sync/status.
                check(
                        "events".equals(js("return window.scorecastStudio.progressVia")),
                        "the studio followed the execution through /sync/events: "
                                + js("return window.scorecastStudio.progressVia"));
                ResponseData events = awaitResponse(0, "/sync/events?execution_id=", Duration.ofSeconds(10));
                check(
                        events.getStatus() == 200
                                && String.valueOf(header(events, "content-type"))
                                        .startsWith("text/event-stream"),
                        "the execution's event stream answered " + events.getStatus());
                Map<?, ?> played = (Map<?, ?>) jsAsync("""
                        const v = document.querySelector('[data-testid=result-video]');
                        if (v.readyState < 1) await new Promise((r) => v.addEventListener('loadedmetadata', r, { once: true }));
                        v.muted = true;
                        await v.play();
                        await new Promise((r) => setTimeout(r, 1200));
                        return { duration: v.duration, time: v.currentTime, expected: window.scorecastStudio.state.video.duration };
                        """);
                metrics.put("result", played);
                double duration = num(played.get("duration"));
                double expected = num(played.get("expected"));
                check(Math.abs(duration - expected) < 0.1, "result duration " + duration + " vs video " + expected);
                check(num(played.get("time")) > 0.5, "the result plays (currentTime " + played.get("time") + ")");
                js("document.querySelector('[data-testid=result-video]').pause()");
                String stems = tid("download-stems").getDomProperty("href");
                HttpResponse<byte[]> response;
                try (HttpClient http = CheckedHttpClient.newClient()) {
                    response = http.send(
                            HttpRequest.newBuilder(URI.create(stems)).build(), HttpResponse.BodyHandlers.ofByteArray());
                }
                check(response.statusCode() == 200, "stems link answered " + response.statusCode());
                byte[] body = response.body();
                check(body.length > 2 && body[0] == 0x50 && body[1] == 0x4b, "the stems are a zip");
                Thread.sleep(500);
                shot("05-result");
                axe("score");
            });

            step("my videos", () -> {
                tid("tab-library").click();
                await(
                        "the library's first video",
                        Duration.ofSeconds(15),
                        () -> !tid("library")
                                .findElements(By.cssSelector("article"))
                                .isEmpty());
                check(tid("library").getText().contains("finished"), "the execution is listed");
                shot("06-library");
                axe("library");
                // Reopen the execution: its plan comes back in the editor and its video in the player.
                tid("library-open").click();
                awaitText("plan-status", "Plan plan_", Duration.ofSeconds(15));
                await(
                        "the reopened plan's sections",
                        Duration.ofSeconds(15),
                        () -> !tid("plan-editor")
                                .findElements(By.cssSelector("fieldset.section"))
                                .isEmpty());
                await(
                        "the reopened result",
                        Duration.ofSeconds(15),
                        () -> tid("result").isDisplayed());
                check(tid("result-video").getAttribute("src").contains("/files/exe_"), "the reopened video");
                check(tid("execute").isEnabled(), "the reopened plan can be executed again");
            });

            step("live: play, transport, intensity, stop", () -> {
                tid("tab-live").click();
                await(
                        "the experiences",
                        Duration.ofSeconds(10),
                        () -> !tid("live-experience")
                                .findElements(By.cssSelector("option[value=house-rooftop]"))
                                .isEmpty());
                new Select(tid("live-experience")).selectByValue("house-rooftop");
                tid("live-play").click();
                List<Map<?, ?>> play = awaitLive("play", 1);
                metrics.put("firstSoundMs", play.get(0).get("ms"));
                await(
                        "the transport's bar",
                        Duration.ofSeconds(10),
                        () -> tid("live-bar").getText().matches("\\d+"));
                int bar0 = Integer.parseInt(tid("live-bar").getText());
                Thread.sleep(2500);
                int bar1 = Integer.parseInt(tid("live-bar").getText());
                check(bar1 > bar0, "live-transport advances (bar " + bar0 + " -> " + bar1 + ")");
                double tempo0 = Double.parseDouble(tid("live-tempo").getText());
                WebElement slider = tid("live-intensity");
                slider.sendKeys(Keys.END);
                List<Map<?, ?>> first = awaitLive("set_intensity", 1);
                Thread.sleep(1500);
                double tempo1 = Double.parseDouble(tid("live-tempo").getText());
                check(tempo1 > tempo0 + 1, "the tempo rises with the intensity (" + tempo0 + " -> " + tempo1 + ")");
                slider.sendKeys(Keys.HOME);
                awaitLive("set_intensity", 2);
                Thread.sleep(800);
                slider.sendKeys(Keys.END);
                List<Map<?, ?>> intensity = awaitLive("set_intensity", 3);
                List<Double> toEar =
                        intensity.stream().map(x -> num(x.get("ms"))).toList();
                metrics.put("intensityToEarMs", toEar);
                metrics.put(
                        "intensityAnsweredMs",
                        intensity.stream().map(x -> x.get("answeredMs")).toList());
                check(!first.isEmpty(), "intensity measured");
                tid("live-vocals").sendKeys(Keys.SPACE);
                awaitMatch("live-status", Pattern.compile("Vocals (on|off) from bar \\d+"), Duration.ofSeconds(10));
                tid("live-load-plan").click();
                await(
                        "the live plan",
                        Duration.ofSeconds(10),
                        () -> tid("live-plan").getDomProperty("value").contains("sections"));
                ObjectNode livePlan =
                        (ObjectNode) JSON.readTree(tid("live-plan").getDomProperty("value"));
                ObjectNode s0 = (ObjectNode) livePlan.withArray("sections").get(0);
                s0.put("tempo", 500);
                fill(tid("live-plan"), JSON.writeValueAsString(livePlan));
                tid("live-send-plan").click();
                awaitText("live-plan-error", "sections[0].tempo", Duration.ofSeconds(10));
                s0.put("tempo", 100);
                s0.put("key", "D");
                double start = s0.get("start").asDouble();
                long bars = Math.max(1, Math.round((s0.get("end").asDouble() - start) * 100 / 60 / 4));
                s0.put("bars", bars);
                s0.put("end", start + bars * 4 * 60.0 / 100);
                var sections = livePlan.withArray("sections");
                double shift =
                        s0.get("end").asDouble() - sections.get(1).get("start").asDouble();
                for (int i = 1; i < sections.size(); i++) {
                    ObjectNode x = (ObjectNode) sections.get(i);
                    x.put("start", x.get("start").asDouble() + shift);
                    x.put("end", x.get("end").asDouble() + shift);
                    if (x.hasNonNull("hit")) {
                        ObjectNode hit = (ObjectNode) x.get("hit");
                        hit.put("time", hit.get("time").asDouble() + shift);
                    }
                    if (x.has("accents")) {
                        x.withArray("accents")
                                .forEach(a -> ((ObjectNode) a)
                                        .put("time", a.get("time").asDouble() + shift));
                    }
                }
                livePlan.put(
                        "duration", sections.get(sections.size() - 1).get("end").asDouble());
                fill(tid("live-plan"), JSON.writeValueAsString(livePlan));
                tid("live-send-plan").click();
                awaitText("live-status", "The new plan plays from bar", Duration.ofSeconds(10));
                shot("07-live");
                axe("live");
                // Count glitches while it plays.
                Map<?, ?> before = (Map<?, ?>) js("return window.scorecastStudio.live.player.stats()");
                Thread.sleep(liveSeconds * 1000L);
                Map<?, ?> after = (Map<?, ?>) js("return window.scorecastStudio.live.player.stats()");
                Map<String, Object> live = new LinkedHashMap<>();
                live.put("seconds", liveSeconds);
                live.put("underruns", Math.round(num(after.get("underruns")) - num(before.get("underruns"))));
                live.put("underrunsSincePlay", after.get("underruns"));
                live.put("splices", Math.round(num(after.get("splices")) - num(before.get("splices"))));
                live.put("splicedMs", Math.round(num(after.get("splicedMs")) - num(before.get("splicedMs"))));
                live.put("marginMs", after.get("marginMs"));
                live.put("bufferedMs", Math.round(num(after.get("bufferedMs"))));
                live.put("outputDelayMs", after.get("outputDelayMs"));
                live.put(
                        "framesReceived",
                        Math.round(num(after.get("framesReceived")) - num(before.get("framesReceived"))));
                metrics.put("live", live);
                tid("live-stop").click();
                List<Map<?, ?>> stops = awaitLive("stop", 2);
                Map<String, Object> stopToEar = new LinkedHashMap<>();
                stops.forEach(x -> stopToEar.put(String.valueOf(x.get("method")), x.get("ms")));
                metrics.put("stopToEarMs", stopToEar);
                double firstSound = num(metrics.get("firstSoundMs"));
                check(firstSound < 1000, "first sound within 1 s of the click: " + firstSound + " ms");
                // The median of three moves: after an underrun the jitter buffer grows by design (no glitch over a
                // short delay), and a CI machine can be busy enough to cause one.
                double median = toEar.stream().sorted().toList().get(1);
                check(median < 400, "set_intensity heard within 400 ms (median of three): " + toEar);
                check(num(stopToEar.get("frame")) < 400, "stop heard within 400 ms: " + stopToEar);
                if (strict) {
                    // The glitch benchmark (docs/STUDIO.md): on a machine as busy as a shared CI box the server itself
                    // renders late now and then.
                    check(
                            ((Number) live.get("underruns")).longValue() == 0,
                            "no underruns over " + liveSeconds + " s: " + live.get("underruns"));
                }
            });

            if (strict) {
                step("reference: a plain <audio> element on the same stream", () -> {
                    // What the studio's player replaces, measured in the same browser and run: the same experience
                    // through <audio src=stream_url> (WAV), first sound through an AnalyserNode on the element.
                    metrics.put("plainAudio", jsAsync("""
                            const k = arguments[0];
                            const auth = { Authorization: `Bearer ${k}` };
                            await fetch('/player/end_stream', { method: 'POST', headers: auth });
                            window.scorecastStudio.live.hasStream = false;
                            window.scorecastStudio.live.player.disconnect();
                            const created = await (await fetch('/player/create-stream', { method: 'POST', headers: auth })).json();
                            window.scorecastStudio.live.hasStream = true; // so that End stream ends this one
                            const audio = new Audio();
                            audio.crossOrigin = 'anonymous';
                            audio.src = created.stream_urls.wav;
                            const ctx = new AudioContext();
                            const analyser = new AnalyserNode(ctx, { fftSize: 256 });
                            ctx.createMediaElementSource(audio).connect(analyser).connect(ctx.destination);
                            const data = new Float32Array(256);
                            const clicked = performance.now();
                            await fetch('/player/start', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
                              body: JSON.stringify({ experience_id: 'house-rooftop' }) });
                            audio.play();
                            const firstSound = await new Promise((resolve) => {
                              const timer = setInterval(() => {
                                analyser.getFloatTimeDomainData(data);
                                if (data.some((x) => Math.abs(x) > 0.002)) {
                                  clearInterval(timer);
                                  resolve(performance.now() - clicked + ((ctx.outputLatency || 0) + (ctx.baseLatency || 0)) * 1000);
                                }
                              }, 4);
                            });
                            await new Promise((r) => setTimeout(r, 6000));
                            const ahead = audio.buffered.length ? audio.buffered.end(audio.buffered.length - 1) - audio.currentTime : null;
                            audio.pause();
                            audio.removeAttribute('src');
                            audio.load();
                            await ctx.close();
                            return { firstSoundMs: Math.round(firstSound), bufferedAheadMs: ahead === null ? null : Math.round(ahead * 1000) };
                            """, key));
                });
            }

            step("phone size", () -> {
                viewport(390, 844);
                Thread.sleep(300);
                shot("07-live");
                axe("live, phone");
                tid("tab-score").click();
                Thread.sleep(300);
                shot("05-result");
                axe("score, phone");
                long overflow =
                        ((Number) js("return document.documentElement.scrollWidth - window.innerWidth")).longValue();
                check(overflow <= 0, "no sideways scrolling at 390 px (" + overflow + " px too wide)");
                tid("tab-live").click();
                tid("live-end").click();
                awaitText("live-status", "ended", Duration.ofSeconds(10));
                tid("sign-out").click();
                await(
                        "the sign-in form",
                        Duration.ofSeconds(10),
                        () -> tid("api-key").isDisplayed());
                shot("01-sign-in");
            });

            step("no console errors", () -> {
                // The refusals and failures this test provokes on purpose: each pattern is allowed so many times.
                Map<Pattern, int[]> provoked = new LinkedHashMap<>();
                provoked.put(Pattern.compile("status of 401 at .*/player/liveliness$"), new int[] {1});
                provoked.put(
                        Pattern.compile("status of 415 at .*/sync/(initialize_video_upload|complete_video_upload)$"),
                        new int[] {1});
                provoked.put(Pattern.compile("status of 400 at .*/sync/execute$"), new int[] {1});
                provoked.put(Pattern.compile("status of 400 at .*/player/replace_plan$"), new int[] {1});
                provoked.put(
                        Pattern.compile("(status of 503|ERR_CONNECTION_RESET|ERR_FAILED).* at .*/sync/upload_chunk$"),
                        new int[] {20});
                Map<Pattern, Integer> allowed = new LinkedHashMap<>();
                provoked.forEach((p, n) -> allowed.put(p, n[0]));
                List<String> unexpected = consoleErrors.stream()
                        .filter(text -> {
                            for (var p : provoked.entrySet()) {
                                if (p.getValue()[0] > 0
                                        && p.getKey().matcher(text).find()) {
                                    p.getValue()[0]--;
                                    return false;
                                }
                            }
                            return true;
                        })
                        .toList();
                check(unexpected.isEmpty(), "console errors: " + String.join(" | ", unexpected));
                // And the listeners do hear: every refusal provoked above was seen.
                List<String> unseen = provoked.entrySet().stream()
                        .filter(p -> p.getValue()[0] == allowed.get(p.getKey()))
                        .map(p -> p.getKey().pattern())
                        .toList();
                check(unseen.isEmpty(), "provoked errors not seen by the console and network listeners: " + unseen);
            });
        }

        /** Every request the page sends: upload chunks are numbered, and intercepted ones are routed off the event thread. */
        private void requested(BeforeRequestSent request) {
            if (request.getRequest().getUrl().endsWith("/sync/upload_chunk")) {
                chunkLog.get().add(chunkIndex(request));
            }
            if (request.isBlocked()) {
                routing.execute(() -> {
                    Consumer<BeforeRequestSent> decide = route.get();
                    if (decide != null) {
                        decide.accept(request);
                    } else {
                        network.continueRequest(new ContinueRequestParameters(
                                request.getRequest().getRequestId()));
                    }
                });
            }
        }

        private static int chunkIndex(BeforeRequestSent request) {
            return request.getRequest().getHeaders().stream()
                    .filter(h -> h.getName().equalsIgnoreCase("x-chunk-index"))
                    .map(h -> Integer.parseInt(h.getValue().getValue()))
                    .findFirst()
                    .orElse(-1);
        }

        private static String header(ResponseData response, String name) {
            return response.getHeaders().stream()
                    .filter(h -> h.getName().equalsIgnoreCase(name))
                    .map(h -> h.getValue().getValue())
                    .findFirst()
                    .orElse(null);
        }

        private ResponseData awaitResponse(int from, String urlPart, Duration timeout) {
            ResponseData[] found = new ResponseData[1];
            await("a response from " + urlPart, timeout, () -> {
                for (ResponseData r : responses.subList(from, responses.size())) {
                    if (r.getUrl().contains(urlPart)) {
                        found[0] = r;
                        return true;
                    }
                }
                return false;
            });
            return found[0];
        }

        private WebElement tid(String testId) {
            return driver.findElement(By.cssSelector("[data-testid='" + testId + "']"));
        }

        private String activeTestId() {
            return (String) js("return document.activeElement.getAttribute('data-testid')");
        }

        /** Clears a field and types into it, as a user would. */
        private void fill(WebElement field, String text) {
            field.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
            field.sendKeys(text);
        }

        private Object js(String script, Object... args) {
            return driver.executeScript(script, args);
        }

        /** Runs an async function body in the page and answers what it returns (a rejection fails the step). */
        private Object jsAsync(String body, Object... args) {
            Object answer = driver.executeAsyncScript("""
                    const done = arguments[arguments.length - 1];
                    (async function () {
                    %s
                    }).apply(null, Array.prototype.slice.call(arguments, 0, -1)).then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }));
                    """.formatted(body), args);
            Map<?, ?> result = (Map<?, ?>) answer;
            if (result.containsKey("error")) {
                throw new AssertionError("in the page: " + result.get("error"));
            }
            return result.get("value");
        }

        private List<Map<?, ?>> liveOf(String control) {
            List<?> all = (List<?>)
                    js("return window.scorecastStudio.metrics.live.filter((m) => m.control === arguments[0])", control);
            return all.stream().map(x -> (Map<?, ?>) x).collect(Collectors.toList());
        }

        private List<Map<?, ?>> awaitLive(String control, int count) {
            await(
                    count + " measured " + control,
                    Duration.ofSeconds(15),
                    () -> liveOf(control).size() >= count);
            return liveOf(control);
        }

        private void awaitText(String testId, String text, Duration timeout) {
            await(
                    testId + " to say \"" + text + "\"",
                    timeout,
                    () -> tid(testId).getText().contains(text));
        }

        private void awaitMatch(String testId, Pattern pattern, Duration timeout) {
            await(
                    testId + " to match " + pattern,
                    timeout,
                    () -> pattern.matcher(tid(testId).getText()).find());
        }

        /** Polls until the condition holds; an element gone stale or not there yet is a "not yet". */
        private void await(String what, Duration timeout, BooleanSupplier condition) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    if (condition.getAsBoolean()) {
                        return;
                    }
                } catch (WebDriverException notYet) {
                    // stale, not found, not rendered yet
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("waited " + timeout.toSeconds() + " s for " + what);
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for " + what);
                }
            }
        }

        private static void check(boolean condition, String message) {
            if (!condition) {
                throw new AssertionError(message);
            }
        }

        private static double num(Object value) {
            return value == null ? Double.NaN : ((Number) value).doubleValue();
        }

        /** The page's viewport, as a window of that size would have (the devtools protocol, so it is exact in headless mode). */
        private void viewport(int width, int height) {
            driver.executeCdpCommand(
                    "Emulation.setDeviceMetricsOverride",
                    Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
        }

        /** A screenshot of the whole page (beyond the viewport) as {@code NAME-WxH.png}. */
        private void shot(String name) {
            Map<?, ?> size = (Map<?, ?>) js("return { w: window.innerWidth, h: window.innerHeight }");
            Map<String, Object> layout = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
            Map<?, ?> content = (Map<?, ?>) layout.get("cssContentSize");
            double width = Math.max(num(size.get("w")), num(content.get("width")));
            double height = Math.max(num(size.get("h")), num(content.get("height")));
            Map<String, Object> picture = driver.executeCdpCommand(
                    "Page.captureScreenshot",
                    Map.of(
                            "format",
                            "png",
                            "captureBeyondViewport",
                            true,
                            "clip",
                            Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
            try {
                Files.write(
                        shots.resolve(name + "-" + size.get("w") + "x" + size.get("h") + ".png"),
                        Base64.getDecoder().decode((String) picture.get("data")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** axe-core, injected through WebDriver (which the page's Content-Security-Policy does not govern): no serious or critical violation. */
        private void axe(String label) {
            if (!Boolean.TRUE.equals(js("return !!window.axe"))) {
                js(axeSource);
            }
            List<?> violations = (List<?>) jsAsync("""
                    const r = await window.axe.run(document, { resultTypes: ['violations'] });
                    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
                      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
                    """);
            check(
                    violations.isEmpty(),
                    "axe (" + label + "): "
                            + violations.stream().map(String::valueOf).collect(Collectors.joining("; ")));
        }

        private static void deleteTree(Path root) throws IOException {
            try (var paths = Files.walk(root)) {
                List<Path> all = new ArrayList<>(paths.toList());
                Collections.reverse(all);
                for (Path p : all) {
                    Files.deleteIfExists(p);
                }
            } catch (IOException e) {
                // Chromium may still be writing its profile as it exits; the temp directory is cleaned by the system.
            }
        }
    }
}
