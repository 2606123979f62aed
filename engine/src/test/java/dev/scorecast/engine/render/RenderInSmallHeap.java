package dev.scorecast.engine.render;

import dev.scorecast.engine.core.Span;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Run in a child JVM with a small heap by {@link LongRenderTest}: rendering and mixing must stream. */
public final class RenderInSmallHeap {

    private RenderInSmallHeap() {}

    public static void main(String[] args) {
        double seconds = Double.parseDouble(args[1]);
        Path dir = Path.of(args[0]);
        try (SoundBank bank = SoundBank.load(Fixtures.TIM)) {
            long t0 = System.nanoTime();
            List<Stem> stems = new Renderer(bank).render(Fixtures.score(seconds, 5), dir.resolve("stems"), f -> {});
            long t1 = System.nanoTime();
            MasterReport r = Mixer.master(stems, MixSettings.standard(), dir.resolve("master.wav"));
            long t2 = System.nanoTime();
            Runtime rt = Runtime.getRuntime();
            System.out.printf(
                    "rendered %d stems of %.0f s in %.1f s, mastered in %.1f s: %.2f LUFS %.2f dBTP; heap max %d MB%n",
                    stems.size(),
                    r.durationSeconds(),
                    (t1 - t0) / 1e9,
                    (t2 - t1) / 1e9,
                    r.integratedLufs(),
                    r.truePeakDbtp(),
                    rt.maxMemory() >> 20);
            // The same again with a voiceover the whole length (a 3 s line every 10 s) and the music ducked under it.
            Path voiceover = dir.resolve("voiceover.wav");
            Fixtures.ffmpeg(
                    "-f",
                    "lavfi",
                    "-i",
                    "aevalsrc=0.3*sin(2*PI*220*t)*lt(mod(t\\,10)\\,3):s=48000:d=" + seconds,
                    "-c:a",
                    "pcm_s16le",
                    voiceover.toString());
            List<Span> lines = new ArrayList<>();
            for (double t = 0; t + 3 <= seconds; t += 10) {
                lines.add(new Span(t, t + 3));
            }
            MasterReport v = Mixer.master(
                    stems,
                    MixSettings.standard().withVoiceover(voiceover, 0).withDucking(Ducking.under(lines)),
                    dir.resolve("voiced.wav"));
            System.out.printf(
                    "with a voiceover and %d ducked lines, mastered in %.1f s: %.2f LUFS %.2f dBTP%n",
                    lines.size(), (System.nanoTime() - t2) / 1e9, v.integratedLufs(), v.truePeakDbtp());
        }
    }
}
