package dev.scorecast.engine.render;

import com.sun.management.OperatingSystemMXBean;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The render with and without the sampler, in one JVM, alternating (docs/BENCHMARKS.md, "Sampler"):
 * a 60 s plan in {@code genre} (default house) whose groups play the genre's first palette sound
 * each (house: the electronic House kit and the Salamander piano on the sampler, the rest on Gervill),
 * composed once, rendered {@code runs} times each way after one untimed warm-up each way; prints the
 * seconds and real-time factor, and writes both masters to {@code out} to listen to and compare.
 *
 * <pre>java -cp engine test classes... dev.scorecast.engine.render.SamplerBench [genre] [runs] [out]</pre>
 */
public final class SamplerBench {
    public static void main(String[] args) throws Exception {
        String genre = args.length > 0 ? args[0] : "house";
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path out = Path.of(args.length > 2 ? args[2] : "/tmp/sampler-bench");
        Files.createDirectories(out);
        var g = GenreCatalog.builtIn().find(genre).orElseThrow();
        Map<String, Integer> programs = new LinkedHashMap<>();
        g.arrangement().groups().forEach((group, style) -> {
            if (!group.equals("vocals") && !style.palette().isEmpty()) {
                programs.put(group, style.palette().getFirst().program());
            }
        });
        Score score = new Composer().compose(plan(genre, programs)).instrumental();
        try (SoundBank bank = SoundBank.load(Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2"))) {
            for (boolean on : new boolean[] {false, true}) {
                bank.useSampler(on);
                List<Stem> stems =
                        new Renderer(bank).render(score, out.resolve(on ? "stems-sampler" : "stems-gervill"), f -> {});
                MixSettings settings = new MixSettings(Map.of(), Map.of(), -14, 0, Optional.empty(), 0);
                MasterReport r =
                        Mixer.master(stems, settings, out.resolve(on ? "master-sampler.wav" : "master-gervill.wav"));
                System.out.printf(
                        "%s: %.2f LUFS, %.2f dBTP%n", on ? "sampler" : "gervill", r.integratedLufs(), r.truePeakDbtp());
            }
            for (int run = 0; run < runs; run++) {
                for (boolean on : new boolean[] {false, true}) {
                    bank.useSampler(on);
                    var os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
                    long c0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    new Renderer(bank).render(score, out.resolve("run"), f -> {});
                    double s = (System.nanoTime() - t0) / 1e9;
                    double cpu = (os.getProcessCpuTime() - c0) / 1e9;
                    // CPU seconds do not depend on what else the machine runs; on two free cores the wall time is about
                    // half.
                    System.out.printf(
                            "run %d %s: render %.2f s wall (%.1fx real time), %.2f CPU-s (%.1fx real time per core)%n",
                            run + 1, on ? "sampler" : "gervill", s, score.duration() / s, cpu, score.duration() / cpu);
                }
            }
        }
        System.exit(0);
    }

    static Plan plan(String genre, Map<String, Integer> programs) {
        double[][] spans = {{0, 20}, {20, 40}, {40, 60}};
        double bpm = 124;
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < spans.length; i++) {
            double start = spans[i][0];
            double end = spans[i][1];
            int bars = (int) Math.max(1, Math.round((end - start) * bpm / 240));
            double tempo = bars * 240 / (end - start);
            double intensity = new double[] {0.4, 0.7, 0.95}[i];
            int level = intensity < 0.25 ? 0 : intensity < 0.5 ? 1 : intensity < 0.75 ? 2 : 3;
            Map<String, Section.Instrument> instruments = new LinkedHashMap<>();
            int lvl = level;
            programs.forEach((group, program) -> instruments.put(
                    group, new Section.Instrument(genre, program, null, 0, 0, genre + "/" + group + "/" + lvl)));
            Section.Hit hit = i == 0 ? null : new Section.Hit(start, "impact");
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
                    "minor",
                    intensity,
                    List.of("i", "VI", "III", "VII"),
                    instruments,
                    hit,
                    null,
                    null,
                    List.of()));
        }
        return new Plan(1, "sampler bench", 7, genre, 60, PlanOptions.DEFAULT, Plan.Master.DEFAULT, sections);
    }
}
