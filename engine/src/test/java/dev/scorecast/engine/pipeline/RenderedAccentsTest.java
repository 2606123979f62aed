package dev.scorecast.engine.pipeline;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.Commands;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a listener hears at the accents and at the end, on the rendered master of every genre (a
 * 32 s plan, three sections, a cut inside each, FluidR3 as delivered), issue 14:
 * <ul>
 * <li>the sync report tells the truth: at every accent, the time it reports agrees within 10 ms
 * with an independent onset detector (aubio's {@code aubioonset}, Debian aubio-tools), and
 * {@code all_within_frame} holds in at least 11 of the 12 genres;
 * <li>cuts are felt: at each section boundary and struck cut the level of the first 50 ms is at
 * least 6 dB above the 150 ms before it (3 dB in ambient);
 * <li>the ending fits: every note is let go a second before the end (HumanFeelTest), and the last
 * 50 ms of the master are its release dying away, at least 24 dB under the loudest 400 ms of the
 * final cadence.
 * </ul>
 * One render per genre serves the three checks, as rendering is what costs.
 *
 * <p>Tagged slow (bin/test --all, CI): a whole render measured against its report, 16 s; the server's
 * ScoringFlowTest checks the sync report of a real execution in the fast tier.
 */
@Tag("slow")
class RenderedAccentsTest {
    static final List<String> GENRES = List.of(
            "deep",
            "cinematic",
            "ambient",
            "lofi",
            "house",
            "techno",
            "hip-hop",
            "rock",
            "pop",
            "acoustic",
            "orchestral",
            "corporate");
    static final double FPS = 30;
    static final Path BANK = Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2");
    static final List<String> GROUPS = List.of("beats", "bass", "harmony", "pads", "tops", "melody", "fx");
    /** Cuts inside sections, off the beat grid as real cuts are. */
    static final double[] INNER_CUTS = {4.37, 13.13, 25.61};

    @Test
    void accentsAreWhereTheReportSaysAndFeltAndTheEndingFits(@TempDir Path dir) {
        List<String> disagreements = new ArrayList<>();
        List<String> outOfFrame = new ArrayList<>();
        List<String> flatCuts = new ArrayList<>();
        List<String> cutEndings = new ArrayList<>();
        try (SoundBank bank = SoundBank.load(BANK)) {
            for (String genre : GENRES) {
                Plan plan = plan(genre);
                Score score = new Composer().compose(plan);
                Path genreDir = dir.resolve(genre);
                List<Stem> stems = new Renderer(bank).render(score.instrumental(), genreDir.resolve("stems"), f -> {});
                Path master = genreDir.resolve("master.wav");
                Mixer.master(stems, new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), -6), master);
                List<Score.Accent> accents = score.accents().stream()
                        .filter(a -> a.time() < score.duration() - SyncCheck.SEARCH_SECONDS)
                        .toList();
                List<SyncCheck.Point> points = SyncCheck.measure(master, stems, accents, FPS);
                List<Double> aubio = aubioOnsets(master);
                List<Double> energy = aubioOnsets(master, "energy");
                boolean allWithin = true;
                for (SyncCheck.Point p : points) {
                    Double heard = nearest(aubio, p.target(), 0.1);
                    Double byEnergy = nearest(energy, p.target(), 0.1);
                    System.out.printf(
                            "%-10s %-8s target %7.3f reported %-9s (rise %5s dB) aubio %-9s (energy %s)%n",
                            genre,
                            p.kind(),
                            p.target(),
                            p.measured() == null ? "-" : String.format("%+.1f ms", 1000 * p.errorSeconds()),
                            p.riseDb(),
                            heard == null ? "-" : String.format("%+.1f ms", 1000 * (heard - p.target())),
                            byEnergy == null ? "-" : String.format("%+.1f ms", 1000 * (byEnergy - p.target())));
                    if (p.measured() == null || heard == null || Math.abs(p.measured() - heard) > 0.010) {
                        disagreements.add(genre + " " + p.kind() + " at " + p.target() + ": reported " + p.measured()
                                + ", aubio " + heard);
                    }
                    allWithin &= p.withinFrame();
                }
                if (!allWithin) {
                    outOfFrame.add(genre);
                }
                double[] power = SyncCheck.millisecondPower(master);
                List<Double> steps = new ArrayList<>(
                        plan.sections().stream().skip(1).map(Section::start).toList());
                plan.sections().forEach(s -> s.accents().forEach(a -> steps.add(a.time())));
                double need = genre.equals("ambient") ? 3 : 6;
                for (double t : steps) {
                    int at = (int) Math.round(t * 1000);
                    double step = 10 * Math.log10(mean(power, at, at + 50) / mean(power, at - 150, at));
                    System.out.printf(
                            "%-10s cut at %7.3f: first 50 ms %+.1f dB over the 150 ms before%n", genre, t, step);
                    if (!(step >= need)) {
                        flatCuts.add(String.format("%s %.3f s: %+.1f dB", genre, t, step));
                    }
                }
                int end = power.length;
                int cadence = (int) Math.round(score.accents().getLast().time() * 1000);
                double loudest = 0;
                for (int ms = cadence; ms + 400 <= end; ms += 10) {
                    loudest = Math.max(loudest, mean(power, ms, ms + 400));
                }
                double tail = 10 * Math.log10(mean(power, end - 50, end) / loudest);
                System.out.printf(
                        "%-10s ending: last 50 ms %+.1f dB under the cadence's loudest 400 ms%n", genre, tail);
                if (!(tail <= -24)) {
                    cutEndings.add(String.format("%s %+.1f dB", genre, tail));
                }
                Directories.deleteTree(genreDir);
            }
        }
        System.out.println("all_within_frame false in " + outOfFrame + "; disagreements with aubio: " + disagreements
                + "; cuts not felt: " + flatCuts + "; endings cut: " + cutEndings);
        assertTrue(flatCuts.isEmpty(), "cuts without a step up of 6 dB (3 in ambient): " + flatCuts);
        assertTrue(cutEndings.isEmpty(), "endings still sounding at the last frame: " + cutEndings);
        assertTrue(disagreements.isEmpty(), "the report and aubio disagree by more than 10 ms: " + disagreements);
        assertTrue(
                outOfFrame.size() <= 1,
                "all_within_frame must hold in at least 11 of 12 genres; false in " + outOfFrame);
    }

    /**
     * Onset times aubio hears in {@code wav}: its default detector (high-frequency content),
     * threshold and hop (256 samples), as /work/shared/tools/listen runs it. (Its energy detector
     * is too coarse for 10 ms: up to 33 ms off on steps of 15 dB.) The test prints the energy
     * detector beside it.
     */
    static List<Double> aubioOnsets(Path wav) {
        return aubioOnsets(wav, "hfc");
    }

    static List<Double> aubioOnsets(Path wav, String method) {
        return Commands.aubioOnsets(wav, method);
    }

    static double mean(double[] power, int from, int to) {
        double sum = 0;
        for (int i = Math.max(0, from); i < Math.min(power.length, to); i++) {
            sum += power[i];
        }
        return sum / Math.max(1, to - from) + 1e-12;
    }

    static Double nearest(List<Double> times, double t, double within) {
        Double best = null;
        for (double x : times) {
            if (Math.abs(x - t) <= within && (best == null || Math.abs(x - t) < Math.abs(best - t))) {
                best = x;
            }
        }
        return best;
    }

    /** A 32 s plan of three sections at high intensity (dense), every boundary struck, a cut inside each section. */
    static Plan plan(String genre) {
        double[][] spans = {{0, 10}, {10, 20}, {20, 32}};
        double bpm = switch (genre) {
            case "deep" -> 120;
            case "cinematic", "orchestral" -> 90;
            case "ambient" -> 72;
            case "lofi" -> 82;
            case "house" -> 124;
            case "techno" -> 132;
            case "hip-hop" -> 92;
            case "rock" -> 128;
            case "acoustic" -> 96;
            default -> 110;
        };
        boolean minor = !List.of("pop", "house").contains(genre);
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < spans.length; i++) {
            double start = spans[i][0];
            double end = spans[i][1];
            int bars = (int) Math.max(1, Math.round((end - start) * bpm / 240));
            double tempo = bars * 240 / (end - start);
            double intensity = new double[] {0.6, 0.9, 0.95}[i];
            int level = intensity < 0.25 ? 0 : intensity < 0.5 ? 1 : intensity < 0.75 ? 2 : 3;
            Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
            for (String g : GROUPS) {
                int program = switch (g) {
                    case "beats" -> 0;
                    case "bass" -> 38;
                    case "harmony" -> 4;
                    case "pads" -> 89;
                    case "tops" -> 81;
                    case "melody" -> 80;
                    default -> 119;
                };
                instruments.put(g, new Section.Instrument(genre, program, null, 0, 0, genre + "/" + g + "/" + level));
            }
            Section.Hit hit = i == 0 ? null : new Section.Hit(start, i == 2 ? "drop" : "impact");
            sections.add(new Section(
                    i,
                    start,
                    end,
                    "s" + i,
                    tempo,
                    "4/4",
                    bars,
                    0,
                    "A",
                    minor ? "minor" : "major",
                    intensity,
                    minor ? List.of("i", "VI", "III", "VII") : List.of("I", "V", "vi", "IV"),
                    instruments,
                    hit,
                    null,
                    null,
                    List.of(new Section.Hit(INNER_CUTS[i], "impact"))));
        }
        return new Plan(1, "sync test", 3, genre, 32, PlanOptions.DEFAULT, Plan.Master.DEFAULT, sections);
    }
}
