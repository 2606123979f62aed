package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.bidi.log.LogLevel;
import org.openqa.selenium.bidi.module.LogInspector;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

/**
 * The studio's Re-cut panel in Debian's Chromium (issue 27), as StudioBrowserTest drives the rest of
 * the page: an earlier result made through the API (a 12 s cut of three shots), then through the page
 * the new cut (the first shot, a new one, the third, and the second trimmed) is chosen, matched and
 * shown span by span in its colours with every join of the music and its transition as /sync/conform
 * answered it, scored, each changed cut heard old against new (A and B each play their own result's
 * soundtrack from 2 s before to 2 s after and stop), and the downloads (FCPXML, OTIO, cue sheet) are
 * there and the FCPXML downloads. Before that, the Markers card: markers added by clicking the timeline,
 * changed, dragged, deleted (by their button and by a right-click), read from a Premiere marker list (a
 * broken one refused naming its line), and written into the generated plan. axe-core finds no serious
 * or critical violation; no console errors. Screenshots land in target/studio-screenshots (docs/editing/
 * keeps copies).
 *
 * <p>Tagged slow (bin/test --all, CI): Chromium end to end, about a minute; ConformTest and
 * EditorMarkersTest check the API behind it.
 */
@Tag("slow")
class StudioRecutBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path data;

    @Test
    void theRecutPanelMatchesShotsScoresAndOffersAB() throws Exception {
        assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium or chromedriver is not installed"
                        + " (/usr/bin/chromium, /usr/bin/chromedriver); bin/test installs the Debian packages chromium and chromium-driver");
        Path shots =
                Path.of(Optional.ofNullable(System.getenv("STUDIO_SCREENSHOTS")).orElse("target/studio-screenshots"));
        Files.createDirectories(shots);
        Path original = StudioBrowserTest.threeShots();
        Path recut = Videos.make(
                "studio-recut.mp4",
                "-i " + original + " -t 3 -f lavfi -i life=size=320x240:rate=25:seed=5:mold=10"
                        + " -f lavfi -i sine=frequency=330:sample_rate=48000 -filter_complex "
                        + "[1:v]lutrgb=r=val*0.3:b=val*0.3,format=yuv420p,setsar=1[n];"
                        + "[0:v]trim=start=0:end=4,setpts=PTS-STARTPTS,format=yuv420p,setsar=1[a];"
                        + "[0:v]trim=start=8:end=12,setpts=PTS-STARTPTS,format=yuv420p,setsar=1[c];"
                        + "[0:v]trim=start=4:end=7,setpts=PTS-STARTPTS,format=yuv420p,setsar=1[b];"
                        + "[a][n][c][b]concat=n=4:v=1:a=0[v] -map [v] -map 2:a -t 14 -c:v libx264 -preset ultrafast -c:a aac");
        try (TestServer server = TestServer.start(data)) {
            Api api = server.alice();
            scoreOnce(api, original);
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
                    "--window-size=1280,1500",
                    "--user-data-dir=" + Files.createTempDirectory("scorecast-chromium-"));
            options.setCapability("webSocketUrl", true);
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort()
                    .withLogFile(Path.of("target/chromedriver-recut.log").toFile())
                    .build();
            ChromeDriver driver = new ChromeDriver(service, options);
            List<String> errors = new CopyOnWriteArrayList<>();
            try (LogInspector log = new LogInspector(driver)) {
                log.onConsoleEntry(e -> {
                    // Chromium's "Failed to load resource" line is the refused marker file's 422, asked for below.
                    if (e.getLevel() == LogLevel.ERROR
                            && !String.valueOf(e.getText()).startsWith("Failed to load resource")) {
                        errors.add(e.getText());
                    }
                });
                log.onJavaScriptException(e -> errors.add(e.getText()));
                driver.get(server.server.publicUrl());
                byId(driver, "api-key").sendKeys(server.aliceKey);
                byId(driver, "sign-in").click();
                await(() -> !byId(driver, "tab-recut").getRect().getDimension().equals(new Dimension(0, 0)), 20);
                // Markers: the first cut's analysis reopened, two markers added by clicking the timeline, one
                // changed to a drop, one deleted, a third added; generate writes them into the plan.
                byId(driver, "tab-library").click();
                await(() -> byId(driver, "library-open-analysis").isDisplayed(), 20);
                byId(driver, "library-open-analysis").click();
                await(() -> byId(driver, "analysis-status").getText().startsWith("Analysis finished"), 20);
                WebElement timeline = byId(driver, "timeline");
                int width = timeline.getRect().getWidth();
                new Actions(driver)
                        .moveToElement(timeline, -width / 2 + width / 6, 0)
                        .click()
                        .perform();
                new Actions(driver)
                        .moveToElement(timeline, width / 6, 0)
                        .click()
                        .perform();
                await(
                        () -> driver.findElements(By.cssSelector("[data-testid=marker]"))
                                        .size()
                                == 2,
                        5);
                new Select(driver.findElements(By.cssSelector("[data-testid=marker] select"))
                                .getFirst())
                        .selectByValue("drop");
                driver.findElements(By.cssSelector("[data-testid=marker] button"))
                        .getLast()
                        .click();
                await(
                        () -> driver.findElements(By.cssSelector("[data-testid=marker]"))
                                        .size()
                                == 1,
                        5);
                new Select(byId(driver, "marker-kind")).selectByValue("hit");
                new Actions(driver)
                        .moveToElement(timeline, width / 3, 0)
                        .click()
                        .perform();
                await(() -> byId(driver, "markers-count").getText().startsWith("2 markers"), 5);
                // The drop dragged along the timeline from 2 s to 3 s; a marker added at 8 s and deleted by a
                // right-click.
                new Actions(driver)
                        .moveToElement(timeline, -width / 2 + width / 6, 0)
                        .clickAndHold()
                        .moveToElement(timeline, -width / 2 + width / 5, 0)
                        .moveToElement(timeline, -width / 2 + width / 4, 0)
                        .release()
                        .perform();
                await(
                        () -> "drop@3.0,hit@10.0"
                                .equals(markerKinds(
                                        driver,
                                        "window.scorecastStudio.state.analysis && "
                                                + "Array.from(document.querySelectorAll('[data-testid=marker]')).map(li => li.querySelector('select').value + '@' "
                                                + "+ Number(li.querySelector('input').value).toFixed(1)).join(',')")),
                        5);
                new Actions(driver)
                        .moveToElement(timeline, width / 6, 0)
                        .click()
                        .perform();
                await(() -> byId(driver, "markers-count").getText().startsWith("3 markers"), 5);
                new Actions(driver)
                        .moveToElement(timeline, width / 6, 0)
                        .contextClick()
                        .perform();
                await(() -> byId(driver, "markers-count").getText().startsWith("2 markers"), 5);
                // A broken Premiere list is refused naming its line; a good one adds its swell at 6 s.
                Path broken = Files.writeString(data.resolve("broken.csv"), "Marker Name,In\n\"hit,00:00:01:00\n");
                byId(driver, "markers-file").sendKeys(broken.toAbsolutePath().toString());
                await(() -> byId(driver, "markers-error").getText().contains("line 2"), 10);
                Path premiere = Files.writeString(
                        data.resolve("markers.csv"),
                        "Marker Name,Description,In,Out,Duration,Marker Type\n"
                                + "Swell,into the reveal,00:00:06:00,00:00:06:00,00:00:00:00,Comment\n");
                byId(driver, "markers-file").sendKeys(premiere.toAbsolutePath().toString());
                await(() -> byId(driver, "markers-count").getText().startsWith("3 markers"), 10);
                byId(driver, "generate").click();
                await(() -> byId(driver, "plan-status").getText().startsWith("Plan "), 30);
                assertEquals(
                        "drop@3.0,swell@6.0,hit@10.0",
                        markerKinds(
                                driver,
                                "window.scorecastStudio.state.plan.markers.map(m => m.kind + '@' + m.time.toFixed(1)).join(',')"),
                        "the markers the plan was written to");
                axe(driver, "score, markers");
                shotOf(driver, "analysis-card", "markers-card", shots.resolve("markers.png"));

                // Re-cut: the earlier result chosen, the new cut uploaded and matched.
                byId(driver, "tab-recut").click();
                await(
                        () -> !driver.findElements(By.cssSelector("#recut-execution option"))
                                .isEmpty(),
                        20);
                byId(driver, "recut-file").sendKeys(recut.toAbsolutePath().toString());
                await(() -> byId(driver, "recut-status").getText().contains("kept"), 180);
                String status = byId(driver, "recut-status").getText();
                assertTrue(status.contains("1 new"), status);
                for (String kind : List.of("kept", "new", "moved", "removed")) {
                    assertFalse(
                            driver.findElements(By.cssSelector("[data-testid=recut-span-" + kind + "]"))
                                    .isEmpty(),
                            kind + ": " + status);
                }
                // The transitions the conform made, as the API answered them, each told at its cut.
                String conform = (String) js(driver, "return JSON.stringify(window.scorecastStudio.recut.conform)");
                System.out.println("StudioRecutBrowserTest conform: " + conform);
                JsonNode transitions = Api.JSON.readTree(conform).get("transitions");
                assertTrue(transitions.size() >= 2, "the joins of kept and new music: " + conform);
                List<WebElement> cuts = driver.findElements(By.cssSelector("[data-testid=recut-cut]"));
                List<String> told = cuts.stream()
                        .map(c -> c.findElement(By.cssSelector("[data-testid=recut-transition]"))
                                .getText())
                        .toList();
                assertTrue(cuts.size() >= transitions.size(), "a changed cut per join: " + told);
                int bridged = 0;
                for (JsonNode t : transitions) {
                    String expected = t.get("beats").asInt() == 0
                            ? "On a beat of both"
                            : String.format(
                                    Locale.ROOT,
                                    "%d transition beat%s at %.0f bpm",
                                    t.get("beats").asInt(),
                                    t.get("beats").asInt() == 1 ? "" : "s",
                                    t.get("tempo").asDouble());
                    bridged += t.get("beats").asInt() > 0 ? 1 : 0;
                    assertTrue(
                            told.stream().anyMatch(x -> x.contains(expected)),
                            expected + " not told at any cut: " + told);
                }
                assertTrue(status.contains(bridged + " bridged"), status);
                String picture = byId(driver, "recut-timeline").getDomAttribute("aria-label");
                assertTrue(picture.contains("the music's joins: ") && !picture.endsWith("none"), picture);
                assertTrue(
                        driver.findElements(By.cssSelector("#recut-cuts .ab-button[data-which=new]")).stream()
                                .noneMatch(WebElement::isEnabled),
                        "B plays before the new cut is scored");
                axe(driver, "re-cut, matched");
                shotOf(driver, "recut-choose", "recut-spans-card", shots.resolve("recut-spans.png"));

                // Scored: A/B at each changed cut plays the two soundtracks around it, and the downloads are there.
                byId(driver, "recut-execute").click();
                await(() -> byId(driver, "recut-exec-status").getText().startsWith("Finished"), 240);
                cuts = driver.findElements(By.cssSelector("[data-testid=recut-cut]"));
                for (WebElement cut : cuts) {
                    assertTrue(
                            cut.findElement(By.cssSelector(".ab-button[data-which=new]"))
                                    .isEnabled(),
                            "B after scoring: " + cut.getText());
                }
                WebElement first = cuts.getFirst();
                double at = Double.parseDouble(first.getDomAttribute("data-at"));
                first.findElement(By.cssSelector(".ab-button[data-which=new]")).click();
                String newAudio = links(driver, "recut-download-audio-wav");
                double heard = heard(driver, newAudio, at);
                assertTrue(heard >= at + 1.9 && heard <= at + 2.6, "B stops 2 s after the cut at " + at + ": " + heard);
                System.out.printf(
                        Locale.ROOT,
                        "StudioRecutBrowserTest: B around the cut at %.2f s stopped at %.3f s%n",
                        at,
                        heard);
                WebElement a = first.findElement(By.cssSelector(".ab-button[data-which=old]"));
                assertTrue(a.isEnabled(), first.getText());
                a.click();
                double oldAt = ((Number) js(driver, "return window.scorecastStudio.recut.playing.at")).doubleValue();
                String oldAudio = (String) js(driver, "return window.scorecastStudio.recut.oldLinks.audio_wav");
                assertFalse(oldAudio.equals(newAudio), "A plays the earlier result");
                await(
                        () -> Boolean.TRUE.equals(js(
                                driver,
                                "return document.querySelector('#recut-cuts .ab-button[data-which=old]')"
                                        + ".getAttribute('aria-pressed') === 'true'")),
                        10);
                shotOf(driver, "recut-spans-card", "recut-result-card", shots.resolve("recut-result.png"));
                heard = heard(driver, oldAudio, oldAt);
                assertTrue(heard >= oldAt + 1.9 && heard <= oldAt + 2.6, "A stops 2 s after " + oldAt + ": " + heard);
                System.out.printf(
                        Locale.ROOT,
                        "StudioRecutBrowserTest: A around %.2f s of the earlier result stopped at %.3f s%n",
                        oldAt,
                        heard);
                for (String name :
                        List.of("video", "audio-wav", "stems", "fcpxml", "otio", "cue-sheet-csv", "cue-sheet-json")) {
                    assertFalse(links(driver, "recut-download-" + name).isEmpty(), name);
                }
                HttpResponse<String> fcpxml = CheckedHttpClient.newClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(links(driver, "recut-download-fcpxml")))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                assertEquals(200, fcpxml.statusCode());
                assertTrue(
                        fcpxml.body().contains("<fcpxml version=\"1.10\">"),
                        fcpxml.body().substring(0, Math.min(200, fcpxml.body().length())));
                axe(driver, "re-cut, scored");
                // At a phone's width the picture and the cuts still fit (a screenshot in target only).
                driver.executeCdpCommand(
                        "Emulation.setDeviceMetricsOverride",
                        Map.of("width", 390, "height", 844, "deviceScaleFactor", 1, "mobile", true));
                js(driver, "window.dispatchEvent(new Event('resize'))");
                axe(driver, "re-cut, phone");
                shotOf(driver, "recut-spans-card", "recut-result-card", shots.resolve("recut-phone.png"));
                assertEquals(List.of(), errors, "console errors in the Re-cut panel");
            } finally {
                driver.quit();
            }
        }
    }

    /**
     * Waits for A/B to play `url` past the cut at `at` and stop by itself; answers where it stopped.
     * Headless Chromium plays media in real time on its own clock, so this takes the four seconds it plays.
     */
    private static double heard(ChromeDriver driver, String url, double at) throws InterruptedException {
        await(
                () -> Boolean.TRUE.equals(js(
                        driver,
                        "const r = window.scorecastStudio.recut; return !!r.playing && !r.audio.paused"
                                + " && r.audio.src === arguments[0] && r.audio.currentTime > arguments[1]",
                        url,
                        at)),
                20);
        await(
                () -> Boolean.TRUE.equals(js(
                        driver, "const r = window.scorecastStudio.recut; return r.playing === null && r.audio.paused")),
                20);
        return ((Number) js(driver, "return window.scorecastStudio.recut.audio.currentTime")).doubleValue();
    }

    private static String links(ChromeDriver driver, String testId) {
        return byId(driver, testId).getDomProperty("href");
    }

    private static String markerKinds(ChromeDriver driver, String expression) {
        return String.valueOf(js(driver, "return " + expression));
    }

    private static Object js(ChromeDriver driver, String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** axe-core (the jar's axe.min.js), injected through WebDriver: no serious or critical violation. */
    private static void axe(ChromeDriver driver, String label) throws IOException {
        if (!Boolean.TRUE.equals(js(driver, "return !!window.axe"))) {
            try (InputStream axe = StudioRecutBrowserTest.class.getResourceAsStream("/axe.min.js")) {
                js(driver, new String(axe.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        Object violations = driver.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                window.axe.run(document, { resultTypes: ['violations'] }).then((r) => done(r.violations
                  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
                  .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)));
                """);
        assertEquals(List.of(), violations, "axe (" + label + ")");
    }

    /** A PNG of the page from the top of one element to the bottom of another, whatever the viewport shows. */
    private static void shotOf(ChromeDriver driver, String fromId, String toId, Path file) throws IOException {
        Map<?, ?> box = (Map<?, ?>) js(driver, """
                const a = document.getElementById(arguments[0]).getBoundingClientRect();
                const b = document.getElementById(arguments[1]).getBoundingClientRect();
                return { x: 0, y: a.top + window.scrollY - 8, width: document.documentElement.clientWidth, height: b.bottom - a.top + 16 };
                """, fromId, toId);
        Map<String, Object> picture = driver.executeCdpCommand(
                "Page.captureScreenshot",
                Map.of(
                        "format",
                        "png",
                        "captureBeyondViewport",
                        true,
                        "clip",
                        Map.of(
                                "x",
                                box.get("x"),
                                "y",
                                box.get("y"),
                                "width",
                                box.get("width"),
                                "height",
                                box.get("height"),
                                "scale",
                                1)));
        Files.write(file, Base64.getDecoder().decode((String) picture.get("data")));
    }

    private static void scoreOnce(Api api, Path video) throws Exception {
        Api.Response done = Uploads.uploadA(api, video, "video/mp4", 1);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", done.body().get("video_id").asText()));
        JsonNode analysed =
                AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        assertEquals("finished", analysed.get("status").asText(), analysed::toString);
        Api.Response generated = api.postJson(
                "/sync/generate",
                Map.of("analysis_id", started.body().get("analysis_id").asText(), "genre", "pop", "seed", 5));
        Api.Response executed = api.postJson(
                "/sync/execute",
                Map.of("plan_id", generated.body().get("plan_id").asText()));
        JsonNode status = ScoringFlowTest.awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
    }

    private static WebElement byId(ChromeDriver driver, String testId) {
        return driver.findElement(By.cssSelector("[data-testid=" + testId + "]"));
    }

    private static void await(BooleanSupplier condition, int seconds) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (System.nanoTime() < end) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException ignored) {
                // The element is not there yet.
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not within " + seconds + " s");
    }
}
