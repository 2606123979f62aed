package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The engine's render loop runs on the engine's ticker (issue 30), as the performances' epochs do: on virtual time a
 * performance renders what that time makes due, however much real time its loop thread spends, and a jump of the
 * ticker is a stall the performance catches up on and then gives up. The loop is a real thread, so the test waits for
 * what it renders (with a hang guard), never for music to play in real time.
 */
class LiveEngineTickerTest {
    private static final int BLOCK = LiveHarness.BLOCK;
    private static final int LOOKAHEAD = 4 * BLOCK;
    private static final int RATE = Performance.RATE;

    @Test
    void theRenderLoopRendersWhatTheEnginesTickerMakesDue() throws Exception {
        Ticker.Manual ticker = new Ticker.Manual();
        SoundBank bank = SoundBank.load(LiveHarness.TIM_GM);
        GenreCatalog genres = GenreCatalog.builtIn();
        LiveSettings settings = LiveSettings.DEFAULT
                .withBlockFrames(BLOCK)
                .withLookaheadFrames(LOOKAHEAD)
                .withThreads(1)
                .withBurstFrames(0);
        try (LiveEngine engine =
                new LiveEngine(() -> bank, genres, ExperienceCatalog.builtIn(genres), settings, ticker)) {
            Performance p = engine.newPerformance();
            p.send(new Control.Start(engine.experiences().first(), 0.5, false, new CompletableFuture<>()));

            // At virtual time 0 the look-ahead is due, and no block more (the loop's half-block turn is inside the
            // block that ends past it).
            await(() -> p.frame() >= LOOKAHEAD, "the look-ahead rendered");
            assertEquals(LOOKAHEAD, p.frame(), "frames rendered at virtual time 0");

            // A second of virtual time: a second more is due, to within a block (whole blocks are rendered, up to
            // the loop's half-block turn past the look-ahead).
            ticker.advance(Duration.ofSeconds(1));
            await(() -> p.frame() >= RATE + LOOKAHEAD - BLOCK, "a second more rendered");
            long frame = p.frame();
            assertTrue(
                    frame >= RATE + LOOKAHEAD - BLOCK && frame <= RATE + LOOKAHEAD + BLOCK / 2,
                    "frames rendered at virtual time 1 s: " + frame);
            assertEquals(0, p.skippedFrames(), "nothing given up while on time");

            // Ten seconds at once, as a stall would look: the performance catches up at most
            // MAX_CATCH_UP_BLOCKS and gives the rest up. On the system's time nothing would be given up.
            ticker.advance(Duration.ofSeconds(10));
            await(() -> p.skippedFrames() > 0, "the debt beyond the catch-up given up");
            long most = (long) Pacing.MAX_CATCH_UP_BLOCKS * BLOCK;
            long skipped = p.skippedFrames();
            assertTrue(
                    skipped >= 10L * RATE - most - LOOKAHEAD - BLOCK && skipped <= 10L * RATE - most,
                    "frames given up after a 10 s jump of the ticker: " + skipped);
        }
    }

    /** Waits for the render loop to make {@code done} true; fails after 60 s of real time (a hang guard, not a pace). */
    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long start = Ticker.SYSTEM.nanos();
        while (!done.getAsBoolean()) {
            assertTrue(Ticker.SYSTEM.since(start).toSeconds() < 60, "waited 60 s for " + what);
            Thread.sleep(5);
        }
    }
}
