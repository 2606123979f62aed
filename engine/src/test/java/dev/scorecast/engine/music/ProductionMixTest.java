package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.io.WavFiles;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.style.Production;
import dev.scorecast.engine.style.ProductionCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The production chain in a real mix of composed music: the dance genres' bass and pads duck under
 * every kick, and the produced stems sum to the mix that goes into the master stage.
 *
 * <p>Tagged slow (bin/test --all, CI): three genres rendered and produced, 16 s; the music package's
 * other tests stay in the fast tier.
 */
@Tag("slow")
class ProductionMixTest {
    static final Path TIM = Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2");
    static final int RATE = 48_000;
    static final int GHOST_VELOCITY = 45;
    /** 10 ms windows. */
    static final int WINDOW = 480;

    record Rendered(Score score, List<Stem> stems) {}

    static Rendered render(String genre, Path dir) {
        Plan plan = Plans.plan(genre, 3, 0.6, 0.9, 0.7, 0.8);
        try (SoundBank bank = SoundBank.load(TIM)) {
            Score score = new Composer().compose(plan);
            return new Rendered(score, new Renderer(bank).render(score, dir.resolve("stems"), f -> {}));
        }
    }

    /** The produced stems of {@code production}, mixed beside {@code dir/master.wav}. */
    static Map<InstrumentGroup, float[][]> produced(Rendered r, Production production, Path dir, String name) {
        MixSettings settings = MixSettings.standard()
                .withProduction(production, r.score().tempoMap().getFirst().bpm());
        Map<InstrumentGroup, float[][]> out = new HashMap<>();
        try (Mixer.Mixdown mix = Mixer.mixdown(r.stems(), settings, dir.resolve(name + ".wav"))) {
            for (Stem s : mix.stems()) {
                out.put(s.group(), WavFiles.readAll(s.wav()));
            }
            out.put(null, WavFiles.readAll(mix.sum()));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"house", "techno", "deep"})
    void bassAndPadsDipUnderEachKick(String genre, @TempDir Path dir) {
        Rendered r = render(genre, dir);
        Production p = ProductionCatalog.builtIn().forGenre(genre);
        Map<InstrumentGroup, float[][]> ducked = produced(r, p, dir, "ducked");
        // The same chain with no part ducking: what each stem would be without the kick's hold.
        Map<String, Production.Part> parts = new HashMap<>();
        p.parts()
                .forEach((g, part) -> parts.put(
                        g,
                        new Production.Part(
                                part.eq(), part.saturationDb(), part.reverb(), part.delay(), part.width(), false)));
        Map<InstrumentGroup, float[][]> plain = produced(r, p.withParts(parts), dir, "plain");
        List<Double> kicks = kicks(r.score());
        assertTrue(kicks.size() > 40, genre + " has kicks: " + kicks.size());
        for (InstrumentGroup g : List.of(InstrumentGroup.BASS, InstrumentGroup.PADS)) {
            assertTrue(p.part(g).sidechain(), genre + " ducks " + g);
            float[][] a = ducked.get(g);
            float[][] b = plain.get(g);
            int measured = 0;
            double shallowest = Double.NEGATIVE_INFINITY;
            List<Double> before = new ArrayList<>();
            for (double k : kicks) {
                int at = (int) Math.round(k * RATE);
                if (at + 100 * 48 > a[0].length) {
                    continue;
                }
                // The deepest 10 ms window within 100 ms of the kick, against the same window un-ducked,
                // where the part sounds (above -50 dBFS un-ducked).
                double deepest = 0;
                boolean sounding = false;
                int firstSounding = -1;
                int soundingWindows = 0;
                for (int w = at; w + WINDOW <= at + 100 * 48; w += WINDOW / 2) {
                    double plainDb = rmsDb(b, w, w + WINDOW);
                    if (plainDb > -50) {
                        if (!sounding) {
                            firstSounding = (w - at) / 48;
                        }
                        sounding = true;
                        soundingWindows++;
                        deepest = Math.min(deepest, rmsDb(a, w, w + WINDOW) - plainDb);
                    }
                }
                // A part that sounds under the kick for less than 20 ms (the last of a release) is not
                // under it; 7 of the 19 half-overlapped 10 ms windows is 40 ms of sound.
                int pre = at - 30 * 48;
                if (pre > 0 && rmsDb(b, pre, pre + WINDOW) > -50) {
                    before.add(rmsDb(a, pre, pre + WINDOW) - rmsDb(b, pre, pre + WINDOW));
                }
                if (sounding && soundingWindows >= 7) {
                    measured++;
                    shallowest = Math.max(shallowest, deepest);
                    assertTrue(
                            deepest <= -3,
                            genre + " " + g.wire() + " dips only " + deepest + " dB after the kick at " + k
                                    + " s (the part sounds from " + firstSounding + " ms after it, at "
                                    + rmsDb(b, at + firstSounding * 48, at + firstSounding * 48 + WINDOW) + " dBFS)");
                }
            }
            before.sort(Double::compare);
            double recovered = before.get(before.size() / 2);
            System.out.printf(
                    "%s %s: %d kicks with the part sounding, the shallowest dip %.1f dB; 30 ms before a kick the part "
                            + "is %.1f dB under its un-ducked level (median)%n",
                    genre, g.wire(), measured, shallowest, recovered);
            assertTrue(
                    recovered > -2.5,
                    genre + " " + g.wire() + " pumps, it is not held down: " + recovered + " dB before the kicks");
            assertTrue(measured > 20, genre + " " + g.wire() + " sounds under enough kicks: " + measured);
        }
    }

    @Test
    void producedStemsSumToTheMixBeforeTheMasterStage(@TempDir Path dir) {
        Rendered r = render("house", dir);
        Map<InstrumentGroup, float[][]> produced =
                produced(r, ProductionCatalog.builtIn().forGenre("house"), dir, "mix");
        float[][] mix = produced.remove(null);
        double residual = residualDb(mix, new ArrayList<>(produced.values()));
        List<float[][]> rendered = new ArrayList<>();
        for (Stem s : r.stems()) {
            rendered.add(WavFiles.readAll(s.wav()));
        }
        double unproduced = residualDb(mix, rendered);
        System.out.printf(
                "house: produced stems vs the mix %.1f dB; the rendered stems %.1f dB%n", residual, unproduced);
        assertTrue(residual < -40, "the produced stems sum to the mix: residual " + residual + " dB");
        assertTrue(unproduced > -20, "and the production changed the stems: " + unproduced + " dB");
    }

    /** Energy of (mix - sum of parts) relative to the mix's, dB. */
    static double residualDb(float[][] mix, List<float[][]> parts) {
        double e = 0;
        double d = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = 0; i < mix[c].length; i++) {
                double s = 0;
                for (float[][] p : parts) {
                    s += p[c][i];
                }
                e += mix[c][i] * (double) mix[c][i];
                d += (mix[c][i] - s) * (mix[c][i] - s);
            }
        }
        return 10 * Math.log10(d / e);
    }

    /**
     * The kicks a listener hears as kicks: velocity {@value #GHOST_VELOCITY} or more. Softer ones are
     * the groove's ghost notes (a drummer's feathered kick), which do not pump the mix and are not
     * meant to.
     */
    static List<Double> kicks(Score score) {
        List<Double> t = new ArrayList<>();
        int ghosts = 0;
        for (Part part : score.parts()) {
            if (part.drums()) {
                for (Note n : part.notes()) {
                    if (n.pitch() == 35 || n.pitch() == 36) {
                        if (n.velocity() >= GHOST_VELOCITY) {
                            t.add(n.start());
                        } else {
                            ghosts++;
                        }
                    }
                }
            }
        }
        System.out.printf("kicks: %d, ghost kicks left out: %d%n", t.size(), ghosts);
        t.sort(Double::compare);
        return t;
    }

    static double rmsDb(float[][] x, int from, int to) {
        double e = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = from; i < to; i++) {
                e += x[c][i] * (double) x[c][i];
            }
        }
        return 10 * Math.log10(e / (2.0 * (to - from)) + 1e-30);
    }
}
