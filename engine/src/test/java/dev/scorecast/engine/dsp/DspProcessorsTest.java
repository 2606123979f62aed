package dev.scorecast.engine.dsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.render.PartChain;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.style.Production;
import dev.scorecast.engine.style.ProductionCatalog;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The production chain's processors on synthetic signals: responses, decay, ducking, block independence, no garbage. */
class DspProcessorsTest {
    static final int RATE = 48_000;

    /** RMS gain in dB of {@code p} on a sine at {@code hz}, measured on the output after the filter has settled. */
    static double sineGainDb(BlockProcessor p, double hz) {
        int n = RATE; // one second
        float[][] buf = new float[2][n];
        for (int i = 0; i < n; i++) {
            buf[0][i] = buf[1][i] = (float) (0.5 * Math.sin(2 * Math.PI * hz * i / RATE));
        }
        p.process(buf, 0, n);
        double in = 0;
        double out = 0;
        for (int i = n / 2; i < n; i++) {
            double x = 0.5 * Math.sin(2 * Math.PI * hz * i / RATE);
            in += x * x;
            out += buf[0][i] * (double) buf[0][i];
        }
        return 10 * Math.log10(out / in);
    }

    @Test
    void filtersHaveTheirDesignedResponses() {
        Supplier<BlockProcessor> hp = () -> new BiquadFilter(BiquadFilter.Shape.HIGH_PASS, 120, 0, 0.707, RATE, 2);
        assertEquals(-3.0, sineGainDb(hp.get(), 120), 0.2, "high-pass at its corner");
        assertTrue(sineGainDb(hp.get(), 30) < -23, "two octaves under a 12 dB/octave high-pass");
        assertEquals(0, sineGainDb(hp.get(), 2000), 0.1);
        Supplier<BlockProcessor> lp = () -> new BiquadFilter(BiquadFilter.Shape.LOW_PASS, 6000, 0, 0.707, RATE, 2);
        assertEquals(-3.0, sineGainDb(lp.get(), 6000), 0.2);
        assertTrue(sineGainDb(lp.get(), 18000) < -17);
        Supplier<BlockProcessor> peak = () -> new BiquadFilter(BiquadFilter.Shape.PEAK, 1000, -6, 1.0, RATE, 2);
        assertEquals(-6.0, sineGainDb(peak.get(), 1000), 0.1, "a peak cut is its gain at its centre");
        assertEquals(0, sineGainDb(peak.get(), 100), 0.3);
        Supplier<BlockProcessor> shelf = () -> new BiquadFilter(BiquadFilter.Shape.HIGH_SHELF, 7000, 4, 0.707, RATE, 2);
        assertEquals(4.0, sineGainDb(shelf.get(), 18000), 0.4, "a high shelf lifts the air");
        assertEquals(2.0, sineGainDb(shelf.get(), 7000), 0.3, "half its gain at its corner");
        assertEquals(0, sineGainDb(shelf.get(), 200), 0.1);
        BiquadFilter low = new BiquadFilter(BiquadFilter.Shape.LOW_SHELF, 100, -5, 0.707, RATE, 2);
        assertEquals(
                low.responseDb(30, RATE),
                sineGainDb(new BiquadFilter(BiquadFilter.Shape.LOW_SHELF, 100, -5, 0.707, RATE, 2), 30),
                0.1,
                "the processed signal agrees with the coefficients' response");
    }

    @Test
    void reverbTailDecaysAtItsDecayTime() {
        double decay = 2.0;
        FdnReverb reverb = new FdnReverb(decay, 0.3, 10, 1.0, RATE);
        int n = 4 * RATE;
        float[][] buf = new float[2][n];
        buf[0][0] = buf[1][0] = 1;
        reverb.process(buf, 0, n);
        double[] db = new double[n / 4800];
        for (int w = 0; w < db.length; w++) {
            double e = 0;
            for (int i = w * 4800; i < (w + 1) * 4800; i++) {
                e += buf[0][i] * (double) buf[0][i] + buf[1][i] * (double) buf[1][i];
            }
            db[w] = 10 * Math.log10(e / 4800 + 1e-30);
        }
        // Slope from 0.3 s to 1.3 s (100 ms windows): low frequencies decay 60 dB in decay_s, damped highs faster.
        double perSecond = db[3] - db[13];
        System.out.printf("reverb: %.1f dB over 0.3-1.3 s (60 dB per %.2f s)%n", perSecond, 60 / perSecond);
        assertTrue(perSecond >= 60 / decay * 0.8 && perSecond <= 60 / decay * 1.6, "decay per second " + perSecond);
        assertTrue(db[35] < db[2] - 60, "the tail is 60 dB down by 3.5 s: " + db[35] + " vs " + db[2]);
        double left = 0;
        double cross = 0;
        double right = 0;
        for (int i = 2400; i < RATE; i++) {
            left += buf[0][i] * (double) buf[0][i];
            right += buf[1][i] * (double) buf[1][i];
            cross += buf[0][i] * (double) buf[1][i];
        }
        assertTrue(
                Math.abs(cross / Math.sqrt(left * right)) < 0.3,
                "the two sides are decorrelated: " + cross / Math.sqrt(left * right));
    }

    @Test
    void delayRepeatsOnTheBeatPingPong() {
        TempoDelay delay = new TempoDelay(0.75, 120, 0.5, 20_000, RATE);
        assertEquals(18_000, delay.delayFrames(), "three eighths at 120 bpm");
        float[][] buf = new float[2][60_000];
        buf[0][0] = buf[1][0] = 1;
        delay.process(buf, 0, buf[0].length);
        assertTrue(buf[0][18_000] > 0.9 && Math.abs(buf[1][18_000]) < 1e-6, "first repeat on the left");
        int peak = 36_000;
        float best = 0;
        for (int i = 35_990; i < 36_010; i++) {
            if (buf[1][i] > best) {
                best = buf[1][i];
                peak = i;
            }
        }
        assertTrue(
                Math.abs(peak - 36_000) <= 2 && best > 0.3 && best < 0.55,
                "second repeat on the right, half as loud: " + best);
    }

    @Test
    void sidechainDucksAPadUnderEachKickAndRecovers() {
        SidechainKey key = new SidechainKey(RATE);
        SidechainCompressor duck = new SidechainCompressor(key, -30, 4, 8, 3, 120, RATE);
        int n = 5 * RATE / 2;
        float[][] drums = new float[2][n];
        float[][] pad = new float[2][n];
        int[] kicks = {12_000, 36_000, 60_000, 84_000};
        for (int k : kicks) {
            for (int i = 0; i < 7_200; i++) { // 150 ms of a falling 55 Hz thump
                float v = (float) (0.7 * Math.exp(-i / 2400.0) * Math.sin(2 * Math.PI * 55 * i / RATE));
                drums[0][k + i] = drums[1][k + i] = v;
            }
        }
        for (int i = 0; i < n; i++) {
            pad[0][i] = pad[1][i] = (float) (0.3 * Math.sin(2 * Math.PI * 440 * i / RATE));
        }
        for (int at = 0; at < n; at += 512) {
            int m = Math.min(512, n - at);
            key.analyse(drums, at, m);
            duck.process(pad, at, m);
        }
        for (int k : kicks) {
            double before = rmsDb(pad[0], k - 2_400, k);
            double deepest = 0;
            for (int w = k; w < k + 4_800; w += 240) {
                deepest = Math.min(deepest, rmsDb(pad[0], w, w + 240) - before);
            }
            assertTrue(deepest <= -6, "pad dips under the kick at " + k + ": " + deepest);
            assertEquals(before, rmsDb(pad[0], k + 21_000, k + 23_000), 1.0, "and comes back before the next");
        }
    }

    @Test
    void outputDoesNotDependOnBlockSize() {
        Production house = ProductionCatalog.builtIn().forGenre("house");
        float[][] a = noise(RATE);
        float[][] b = new float[][] {a[0].clone(), a[1].clone()};
        float[][] keyA = noise(RATE);
        float[][] keyB = new float[][] {keyA[0].clone(), keyA[1].clone()};
        SidechainKey k1 = new SidechainKey(RATE);
        SidechainKey k2 = new SidechainKey(RATE);
        PartChain one = new PartChain(house, house.part(InstrumentGroup.PADS), k1, 124, RATE, RATE);
        PartChain many = new PartChain(house, house.part(InstrumentGroup.PADS), k2, 124, RATE, 320);
        k1.analyse(keyA, 0, RATE);
        one.process(a, 0, RATE);
        for (int at = 0; at < RATE; at += 320) {
            int m = Math.min(320, RATE - at);
            k2.analyse(keyB, at, m);
            many.process(b, at, m);
        }
        assertArrayEquals(a[0], b[0]);
        assertArrayEquals(a[1], b[1]);
    }

    @Test
    void noAllocationPerBlock() {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Production techno = ProductionCatalog.builtIn().forGenre("techno");
        SidechainKey key = new SidechainKey(RATE);
        PartChain[] chains = List.of(InstrumentGroup.values()).stream()
                .map(g -> new PartChain(techno, techno.part(g), key, 128, RATE, 512))
                .toArray(PartChain[]::new);
        float[][] drums = noise(512);
        float[][] buf = noise(512);
        for (int warm = 0; warm < 2_000; warm++) {
            key.analyse(drums, 0, 512);
            for (int c = 0; c < chains.length; c++) { // indexed: the test's own iterator would count
                chains[c].process(buf, 0, 512);
            }
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 2_000; i++) {
            key.analyse(drums, 0, 512);
            for (int c = 0; c < chains.length; c++) { // indexed: the test's own iterator would count
                chains[c].process(buf, 0, 512);
            }
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 16_384, "2,000 blocks through eight chains allocated " + allocated + " bytes");
    }

    @Test
    void everyGenreHasAProductionThatBuilds() {
        ProductionCatalog catalog = ProductionCatalog.builtIn();
        for (Genre g : GenreCatalog.builtIn().all()) {
            Production p = catalog.forGenre(g.id());
            SidechainKey key = new SidechainKey(RATE);
            for (InstrumentGroup group : InstrumentGroup.values()) {
                new PartChain(p, p.part(group), key, g.tempoMinBpm(), RATE, 512);
            }
            new PartChain(p, p.live(), null, g.tempoMaxBpm(), RATE, 512);
            boolean dance = List.of("house", "techno", "deep").contains(g.id());
            assertEquals(
                    dance,
                    p.part(InstrumentGroup.BASS).sidechain()
                            && p.part(InstrumentGroup.PADS).sidechain(),
                    g.id() + ": bass and pads duck under the kick in the dance genres only");
            for (InstrumentGroup group : List.of(
                    InstrumentGroup.HARMONY,
                    InstrumentGroup.PADS,
                    InstrumentGroup.TOPS,
                    InstrumentGroup.MELODY,
                    InstrumentGroup.FX,
                    InstrumentGroup.VOCALS)) {
                assertTrue(
                        p.part(group).eq().stream().anyMatch(b -> b.type().equals("high_pass") && b.hz() >= 100),
                        g.id() + " " + group.wire() + " is high-passed");
            }
        }
        // A genre lists only what differs: house's tops keep the default's sends but have their own EQ.
        Production house = catalog.forGenre("house");
        assertEquals(
                catalog.fallback().part(InstrumentGroup.TOPS).delay(),
                house.part(InstrumentGroup.TOPS).delay());
        assertEquals(400, house.part(InstrumentGroup.TOPS).eq().getFirst().hz());
    }

    static float[][] noise(int n) {
        Random r = new Random(7);
        float[][] b = new float[2][n];
        for (int i = 0; i < n; i++) {
            b[0][i] = (float) (0.2 * r.nextGaussian());
            b[1][i] = (float) (0.2 * r.nextGaussian());
        }
        return b;
    }

    static double rmsDb(float[] x, int from, int to) {
        double e = 0;
        for (int i = from; i < to; i++) {
            e += x[i] * (double) x[i];
        }
        return 10 * Math.log10(e / (to - from) + 1e-30);
    }

    @Test
    void spreadWidensAMonoPartWithoutChangingItsMonoSumAndKeepsTheLowEndCentred() {
        SplittableRandom rng = new SplittableRandom(5);
        int n = RATE;
        float[][] buf = new float[2][n];
        float[] mono = new float[n];
        for (int i = 0; i < n; i++) {
            // A mono part: white noise, nearly all of it above the high-pass.
            float x = (float) (0.2 * (rng.nextDouble() - 0.5));
            buf[0][i] = buf[1][i] = mono[i] = x;
        }
        StereoSpread spread = new StereoSpread(0.5, 13, 300, RATE);
        for (int at = 0; at < n; at += 480) { // in blocks, as the chain runs
            spread.process(buf, at, Math.min(480, n - at));
        }
        double side = 0;
        double mid = 0;
        double lowSide = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(2 * mono[i], buf[0][i] + buf[1][i], 1e-6, "mono sum at " + i);
            double s = 0.5 * (buf[0][i] - buf[1][i]);
            side += s * s;
            mid += mono[i] * (double) mono[i];
        }
        double sideMidDb = 10 * Math.log10(side / mid);
        // The delayed mid at half level: the side about 6 dB under the mid.
        assertEquals(-6.0, sideMidDb, 1.0, "side/mid");
        // The 60 Hz tone alone: its side stays at least 30 dB under its mid.
        float[][] low = new float[2][n];
        for (int i = 0; i < n; i++) {
            low[0][i] = low[1][i] = (float) (0.3 * Math.sin(2 * Math.PI * 60 * i / RATE));
        }
        new StereoSpread(0.5, 13, 300, RATE).process(low, 0, n);
        double lowMid = 0;
        for (int i = n / 2; i < n; i++) {
            double s = 0.5 * (low[0][i] - low[1][i]);
            lowSide += s * s;
            double m = 0.5 * (low[0][i] + low[1][i]);
            lowMid += m * m;
        }
        assertTrue(10 * Math.log10(lowSide / lowMid) < -30, "60 Hz side/mid " + 10 * Math.log10(lowSide / lowMid));
    }
}
