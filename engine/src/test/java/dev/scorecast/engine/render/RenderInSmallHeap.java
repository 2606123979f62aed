package dev.scorecast.engine.render;

import java.nio.file.Path;
import java.util.List;

/** Run in a child JVM with a small heap by {@link LongRenderTest}: rendering and mixing must stream. */
public final class RenderInSmallHeap {

    private RenderInSmallHeap() {}

    public static void main(String[] args) {
        double seconds = Double.parseDouble(args[1]);
        Path dir = Path.of(args[0]);
        try (SoundBank bank = SoundBank.load(Fixtures.TIM)) {
            long t0 = System.nanoTime();
            List<Stem> stems = new Renderer(bank).render(Fixtures.score(seconds, 5), dir.resolve("stems"), f -> { });
            long t1 = System.nanoTime();
            MasterReport r = Mixer.master(stems, MixSettings.standard(), dir.resolve("master.wav"));
            long t2 = System.nanoTime();
            Runtime rt = Runtime.getRuntime();
            System.out.printf("rendered %d stems of %.0f s in %.1f s, mastered in %.1f s: %.2f LUFS %.2f dBTP; heap max %d MB%n",
                    stems.size(), r.durationSeconds(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, r.integratedLufs(), r.truePeakDbtp(),
                    rt.maxMemory() >> 20);
        }
    }
}
