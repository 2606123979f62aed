package dev.scorecast.engine.plan;

import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * For listening, not a test: plans a random video of a genre, composes it and renders its
 * instruments, stems summed and peak-normalised to -1 dBFS, into a 16-bit WAV. With "before" the
 * genres' sounds are the all-FluidR3 palette the engine had before issue 14 (test resource
 * genres-fluidr3-before.json). Usage: SoundDemo GENRE SEED SECONDS OUT.wav [before]
 */
public final class SoundDemo {
    public static void main(String[] args) throws Exception {
        String genre = args[0];
        long seed = Long.parseLong(args[1]);
        double seconds = Double.parseDouble(args[2]);
        Path out = Path.of(args[3]);
        boolean before = args.length > 4 && args[4].equals("before");
        GenreCatalog catalog = GenreCatalog.builtIn();
        if (before) {
            var load = GenreCatalog.class.getDeclaredMethod("load", String.class);
            load.setAccessible(true);
            catalog = (GenreCatalog) load.invoke(null, "/genres-fluidr3-before.json");
        }
        Plan plan = new Planner(catalog)
                .plan(
                        Analyses.random(seed, seconds, (int) (seconds / 4)),
                        GenerationOptions.DEFAULT.withGenre(genre).withSeed(seed));
        Score score = new Composer().compose(plan).instrumental();
        Path stems = Files.createTempDirectory("demo");
        try (SoundBank bank = SoundBank.load(Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2"))) {
            List<Stem> rendered = new Renderer(bank).render(score, stems, null);
            int n = (int) Math.round(score.duration() * Renderer.RATE);
            float[][] sum = new float[2][n];
            for (Stem s : rendered) {
                try (WavReader in = WavReader.open(s.wav(), "demo", "demo")) {
                    float[][] x = new float[2][n];
                    in.readStereo(x, n);
                    for (int c = 0; c < 2; c++) {
                        for (int i = 0; i < n; i++) {
                            sum[c][i] += x[c][i];
                        }
                    }
                }
            }
            float peak = 1e-9f;
            for (float[] ch : sum) {
                for (float v : ch) {
                    peak = Math.max(peak, Math.abs(v));
                }
            }
            float g = 0.891f / peak;
            for (float[] ch : sum) {
                for (int i = 0; i < n; i++) {
                    ch[i] *= g;
                }
            }
            try (WavWriter w = WavWriter.create(out, WavEncoding.PCM16, Renderer.RATE, 2)) {
                w.write(sum, n);
                w.commit();
            }
        }
        System.out.println(
                "wrote " + out + " (" + genre + ", seed " + seed + (before ? ", FluidR3 palette" : "") + ")");
    }
}
