package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
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
 * shown span by span in its colours, scored, and each changed cut offered old against new. Before that,
 * the Markers card: markers added by clicking the timeline, changed, deleted, read from a Premiere
 * marker list (a broken one refused naming its line), and written into the generated plan. No console
 * errors. Screenshots land in target/studio-screenshots (docs/editing/ keeps copies).
 *
 * <p>Tagged slow (bin/test --all, CI): Chromium end to end, 11 s; ConformTest and EditorMarkersTest check
 * the API behind it.
 */
@Tag("slow")
class StudioRecutBrowserTest {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path data;

    @Test
    void theRecutPanelMatchesShotsScoresAndOffersAB() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER), "Chromium or chromedriver is not installed"
                + " (/usr/bin/chromium, /usr/bin/chromedriver); bin/test installs the Debian packages chromium and chromium-driver");
        Path shots = Path.of(Optional.ofNullable(System.getenv("STUDIO_SCREENSHOTS")).orElse("target/studio-screenshots"));
        Files.createDirectories(shots);
        Path original = StudioBrowserTest.threeShots();
        Path recut = Videos.make("studio-recut.mp4", "-i " + original + " -t 3 -f lavfi -i life=size=320x240:rate=25:seed=5:mold=10"
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
            options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--autoplay-policy=no-user-gesture-required", "--window-size=1280,1500",
                    "--user-data-dir=" + Files.createTempDirectory("scorecast-chromium-"));
            options.setCapability("webSocketUrl", true);
            ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                    .withLogFile(Path.of("target/chromedriver-recut.log").toFile()).build();
            ChromeDriver driver = new ChromeDriver(service, options);
            List<String> errors = new CopyOnWriteArrayList<>();
            try (LogInspector log = new LogInspector(driver)) {
                log.onConsoleEntry(e -> {
                    // Chromium's "Failed to load resource" line is the refused marker file's 422, asked for below.
                    if (e.getLevel() == LogLevel.ERROR && !String.valueOf(e.getText()).startsWith("Failed to load resource")) {
                        errors.add(e.getText());
                    }
                });
                log.onJavaScriptException(e -> errors.add(e.getText()));
                driver.get(server.server.publicUrl());
                byId(driver, "api-key").sendKeys(server.aliceKey);
                byId(driver, "sign-in").click();
                await(() -> !byId(driver, "tab-recut").getRect().getDimension().equals(new org.openqa.selenium.Dimension(0, 0)), 20);
                // Markers: the first cut's analysis reopened, two markers added by clicking the timeline, one
                // changed to a drop, one deleted, a third added; generate writes them into the plan.
                byId(driver, "tab-library").click();
                await(() -> byId(driver, "library-open-analysis").isDisplayed(), 20);
                byId(driver, "library-open-analysis").click();
                await(() -> byId(driver, "analysis-status").getText().startsWith("Analysis finished"), 20);
                WebElement timeline = byId(driver, "timeline");
                int width = timeline.getRect().getWidth();
                new Actions(driver).moveToElement(timeline, -width / 2 + width / 6, 0).click().perform();
                new Actions(driver).moveToElement(timeline, width / 6, 0).click().perform();
                await(() -> driver.findElements(By.cssSelector("[data-testid=marker]")).size() == 2, 5);
                new Select(driver.findElements(By.cssSelector("[data-testid=marker] select")).getFirst()).selectByValue("drop");
                driver.findElements(By.cssSelector("[data-testid=marker] button")).getLast().click();
                await(() -> driver.findElements(By.cssSelector("[data-testid=marker]")).size() == 1, 5);
                new Select(byId(driver, "marker-kind")).selectByValue("hit");
                new Actions(driver).moveToElement(timeline, width / 3, 0).click().perform();
                await(() -> byId(driver, "markers-count").getText().startsWith("2 markers"), 5);
                // A broken Premiere list is refused naming its line; a good one adds its swell at 6 s.
                Path broken = Files.writeString(data.resolve("broken.csv"), "Marker Name,In\n\"hit,00:00:01:00\n");
                byId(driver, "markers-file").sendKeys(broken.toAbsolutePath().toString());
                await(() -> byId(driver, "markers-error").getText().contains("line 2"), 10);
                Path premiere = Files.writeString(data.resolve("markers.csv"), "Marker Name,Description,In,Out,Duration,Marker Type\n"
                        + "Swell,into the reveal,00:00:06:00,00:00:06:00,00:00:00:00,Comment\n");
                byId(driver, "markers-file").sendKeys(premiere.toAbsolutePath().toString());
                await(() -> byId(driver, "markers-count").getText().startsWith("3 markers"), 10);
                byId(driver, "generate").click();
                await(() -> byId(driver, "plan-status").getText().startsWith("Plan "), 30);
                Object kinds = ((JavascriptExecutor) driver).executeScript(
                        "return window.scorecastStudio.state.plan.markers.map(m => m.kind + '@' + m.time.toFixed(1)).join(',')");
                assertEquals("drop@2.0,swell@6.0,hit@10.0", kinds, "the markers the plan was written to");
                ((JavascriptExecutor) driver).executeScript("document.getElementById('timeline').scrollIntoView()");
                Files.write(shots.resolve("markers.png"), driver.getScreenshotAs(OutputType.BYTES));
                byId(driver, "tab-recut").click();
                await(() -> !driver.findElements(By.cssSelector("#recut-execution option")).isEmpty(), 20);
                byId(driver, "recut-file").sendKeys(recut.toAbsolutePath().toString());
                await(() -> byId(driver, "recut-status").getText().contains("kept"), 180);
                String status = byId(driver, "recut-status").getText();
                assertTrue(status.contains("1 new"), status);
                assertFalse(driver.findElements(By.cssSelector("[data-testid=recut-span-kept]")).isEmpty(), status);
                assertFalse(driver.findElements(By.cssSelector("[data-testid=recut-span-new]")).isEmpty(), status);
                Files.write(shots.resolve("recut-spans.png"), driver.getScreenshotAs(OutputType.BYTES));
                byId(driver, "recut-execute").click();
                await(() -> byId(driver, "recut-exec-status").getText().startsWith("Finished"), 240);
                List<WebElement> ab = driver.findElements(By.cssSelector("#recut-spans .ab-button"));
                assertFalse(ab.isEmpty(), "no A/B buttons at the changed cuts");
                assertTrue(ab.stream().allMatch(WebElement::isEnabled), "A/B buttons stay disabled after scoring");
                ab.getLast().click();
                ((JavascriptExecutor) driver).executeScript("document.getElementById('recut-spans').scrollIntoView()");
                Files.write(shots.resolve("recut-result.png"), driver.getScreenshotAs(OutputType.BYTES));
                assertEquals(List.of(), errors, "console errors in the Re-cut panel");
            } finally {
                driver.quit();
            }
        }
    }

    private static void scoreOnce(Api api, Path video) throws Exception {
        Api.Response done = Uploads.uploadA(api, video, "video/mp4", 1);
        Api.Response started = api.postJson("/sync/video_analysis", Map.of("video_id", done.body().get("video_id").asText()));
        JsonNode analysed = AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        assertEquals("finished", analysed.get("status").asText(), analysed::toString);
        Api.Response generated = api.postJson("/sync/generate", Map.of("analysis_id", started.body().get("analysis_id").asText(),
                "genre", "pop", "seed", 5));
        Api.Response executed = api.postJson("/sync/execute", Map.of("plan_id", generated.body().get("plan_id").asText()));
        JsonNode status = ScoringFlowTest.awaitExecution(api, "/sync/status", Map.of("job_id", executed.body().get("job_id").asText()));
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
