package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.audio.OnsetDetector;
import dev.scorecast.engine.analysis.audio.OnsetRules;
import dev.scorecast.engine.analysis.audio.PulseTempo;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the player's controls do to the emitted audio, on virtual time: each performance is pumped
 * one block per turn by the test, so a beat, a bar line or a listener's queue is placed on the frame
 * where it happened, whatever the machine's load. These are the behaviours PlayerFlowTest and
 * LiveEngineTest check through a real server and a real clock (tagged slow, run by
 * {@code bin/test --all}): the tempo heard, intensity within a beat, a new plan at the next bar line,
 * stop within a beat, and a stalled listener dropped without stalling another.
 */
class LiveControlsTest {
    private static final int RATE = Performance.RATE;
    private static final double HOUSE_BPM = 124;
    private static LiveContext context;

    @BeforeAll
    static void open() {
        context = LiveHarness.context().build();
    }

    private static BlockRun started(String experience) throws InterruptedException {
        BlockRun run = new BlockRun(context);
        Experience e = context.experiences().find(experience).orElseThrow();
        run.send(new Control.Start(e, e.intensity(), false, new CompletableFuture<>()));
        run.turn();
        return run;
    }

    private static void forSeconds(BlockRun run, double seconds) throws InterruptedException {
        long until = run.frame() + (long) (seconds * RATE);
        while (run.frame() < until) {
            run.turn();
        }
    }

    /** The tempo the onsets of {@code left[from, to)} show, searched within 40 % of {@code expected}. */
    private static double heardBpm(float[] left, int from, int to, double expected) {
        OnsetDetector detector = new OnsetDetector(RATE);
        detector.accept(left, from, to - from);
        List<Double> onsets = detector.finish(OnsetRules.DEFAULT);
        return PulseTempo.estimateBpm(onsets, expected / 1.4, expected * 1.4);
    }

    @Test
    void theMusicIsHeardAtTheTransportTempo() throws Exception {
        BlockRun run = started("house-rooftop");
        forSeconds(run, 10);
        float[] left = run.left();
        double heard = heardBpm(left, 0, left.length, HOUSE_BPM);
        System.out.printf(
                "live controls: transport %.2f bpm, heard %.2f bpm%n",
                run.performance.transport().tempo(), heard);
        assertEquals(HOUSE_BPM, run.performance.transport().tempo(), 0.01);
        assertTrue(rms(left, 0, left.length) > 0.01, "the stream is not silent");
        assertTrue(
                Math.abs(heard - HOUSE_BPM) / HOUSE_BPM < 0.02, "heard " + heard + " bpm, transport says " + HOUSE_BPM);
    }

    @Test
    void fullIntensityRaisesTheTempoTo120PercentWithinABeat() throws Exception {
        BlockRun run = started("house-rooftop");
        forSeconds(run, 1.5);
        assertEquals(HOUSE_BPM, run.performance.transport().tempo(), 0.01);
        long called = run.frame();
        run.send(new Control.SetIntensity(1.0));
        long reached = -1;
        while (run.frame() - called < 3L * RATE) {
            run.turn();
            if (run.performance.transport().tempo() >= HOUSE_BPM * 1.2 - 0.01) {
                reached = run.frame() - called;
                break;
            }
        }
        double beat = 60 / HOUSE_BPM;
        System.out.printf(
                "live controls: tempo 1.2x reached %.3f s after set_intensity (one beat is %.3f s)%n",
                reached / (double) RATE, beat);
        assertTrue(reached > 0 && reached <= beat * RATE + 1024, "1.2x reached after " + reached + " frames");
        int from = run.left().length;
        forSeconds(run, 7);
        float[] left = run.left();
        double heard = heardBpm(left, Math.max(from, left.length - 6 * RATE), left.length, HOUSE_BPM * 1.2);
        System.out.printf(
                "live controls: after intensity 1.0 heard %.2f bpm (expected %.1f)%n", heard, HOUSE_BPM * 1.2);
        assertTrue(Math.abs(heard - HOUSE_BPM * 1.2) / (HOUSE_BPM * 1.2) < 0.02, "heard " + heard);
        assertEquals(1.0, run.performance.now().intensity());
    }

    @Test
    void aReplacedPlanChangesTempoAndKeyAtTheNextBarLine() throws Exception {
        BlockRun run = started("house-rooftop");
        forSeconds(run, 1.5);
        NowPlaying now = run.performance.now();
        Section s = now.section();
        String key = s.key().equals("E") ? "G" : "E";
        // One section of 8 bars at 100 bpm in another key, as a client edits the plan current_experience gives.
        Section replaced = new Section(
                0,
                0,
                19.2,
                s.label(),
                100,
                s.meter(),
                8,
                0,
                key,
                s.mode(),
                s.intensity(),
                s.progression(),
                s.instruments(),
                null,
                s.lyrics(),
                List.of(),
                List.of());
        Plan plan = new Plan(
                Plan.VERSION,
                null,
                now.experience().seed(),
                now.genre(),
                19.2,
                null,
                Plan.Master.DEFAULT,
                List.of(replaced));
        var applied = new CompletableFuture<AppliesAt>();
        run.send(new Control.ReplacePlan(plan, applied));
        run.turn();
        AppliesAt at = applied.getNow(null);
        assertNotNull(at, "answered at the turn that took it");
        assertEquals(0, at.beat() % 4, 1e-6, "a bar line of 4/4");
        assertTrue(run.performance.transport().seconds() < at.seconds(), "the bar line is still to come");
        while (run.performance.transport().seconds() < at.seconds() - 0.03) {
            assertEquals(HOUSE_BPM, run.performance.transport().tempo(), 0.01, "the old tempo until the bar line");
            run.turn();
        }
        while (run.performance.transport().seconds() < at.seconds() + 0.03) {
            run.turn();
        }
        assertEquals(100, run.performance.transport().tempo(), 0.01);
        assertEquals(key, run.performance.now().section().key());
        forSeconds(run, 7);
        float[] left = run.left();
        int start = (int) at.frame() + RATE;
        double heard = heardBpm(left, start, Math.min(left.length, start + 6 * RATE), 100);
        System.out.printf(
                "live controls: replaced plan at %.3f s (beat %.0f), heard %.2f bpm after it (planned 100)%n",
                at.seconds(), at.beat(), heard);
        assertTrue(Math.abs(heard - 100) / 100 < 0.02, "heard " + heard);
    }

    @Test
    void stopFadesToSilenceWithinABeatAndSilenceKeepsFlowing() throws Exception {
        BlockRun run = started("house-rooftop");
        forSeconds(run, 2);
        int call = run.left().length;
        run.send(new Control.Stop());
        forSeconds(run, 2);
        assertTrue(!run.performance.transport().playing(), "stopped");
        int size = run.left().length;
        forSeconds(run, 0.5);
        float[] left = run.left();
        assertTrue(left.length > size, "silence keeps flowing after stop");
        // The stop is taken at the next turn (one block) and fades over one beat.
        int silentFrom = call + (int) (RATE * 60 / HOUSE_BPM) + 2 * 1024;
        assertTrue(rms(left, call - RATE, call) > 0.01, "music before stop");
        double peak = 0;
        for (int i = silentFrom; i < left.length; i++) {
            peak = Math.max(peak, Math.abs(left[i]));
        }
        System.out.printf("live controls: stop at frame %d, peak %.1e from one beat after it%n", call, peak);
        assertTrue(peak < 1e-4, "silence from one beat after stop, peak " + peak);
    }

    @Test
    void aStalledListenerIsDroppedWithoutStallingTheOtherAndBothHeardTheSameAudio() throws Exception {
        Performance p = new Performance(context, 0);
        Listener reader = new Listener(LiveEncoder.Format.WAV);
        Listener stalled = new Listener(LiveEncoder.Format.WAV);
        p.attach(reader);
        p.attach(stalled);
        Experience e = context.experiences().find("lofi-rainy-desk").orElseThrow();
        p.send(new Control.Start(e, e.intensity(), false, new CompletableFuture<>()));
        var heard = new ByteArrayOutputStream();
        // The stalled listener never reads: once its queue is full (Listener.CAPACITY blocks, about five seconds) it is
        // dropped.
        long blocks = 7L * RATE / 1024 + 1;
        for (long k = 1; k <= blocks; k++) {
            p.pump((long) Math.ceil(k * 1024 * 1e9 / RATE));
            byte[] chunk;
            while ((chunk = reader.next(0)) != null && chunk.length > 0) {
                heard.writeBytes(chunk);
            }
        }
        byte[] all = heard.toByteArray();
        assertTrue(
                all.length >= 44 + 7 * RATE * 4,
                "the reader got all of it: " + (all.length - 44) / (4.0 * RATE) + " s");
        assertTrue(stalled.closed(), "the stalled listener was dropped");
        assertTrue(stalled.reason().startsWith("too slow"), stalled.reason());
        var queued = new ByteArrayOutputStream();
        byte[] chunk;
        while ((chunk = stalled.next(0)) != null && chunk.length > 0) {
            queued.writeBytes(chunk);
        }
        assertEquals(reader.firstFrame(), stalled.firstFrame());
        byte[] a = Arrays.copyOfRange(all, 0, 44 + 2 * RATE * 4);
        byte[] b = Arrays.copyOfRange(queued.toByteArray(), 0, 44 + 2 * RATE * 4);
        assertTrue(Arrays.equals(a, b), "two listeners of one stream get the same bytes");
        float[] left = new float[(a.length - 44) / 4];
        var pcm = ByteBuffer.wrap(a, 44, a.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < left.length; i++) {
            left[i] = pcm.getShort() / 32768f;
            pcm.getShort();
        }
        assertTrue(rms(left, 0, left.length) > 0.005, "and they are music");
        p.close();
        p.pump(0);
    }

    private static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = Math.max(0, from); i < to; i++) {
            sum += x[i] * x[i];
        }
        return Math.sqrt(sum / Math.max(1, to - Math.max(0, from)));
    }
}
