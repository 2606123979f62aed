package dev.scorecast.engine.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A track mixed clip by clip on disk is the track of the clips mixed in memory, to the sample. */
class MonoMixTest {
    @TempDir
    Path dir;

    @Test
    void clipsMixedOnDiskMakeTheSameTrack() throws Exception {
        var rng = new SplittableRandom(28);
        long frames = 300_000;
        List<MonoTracks.Clip> clips = new ArrayList<>();
        for (int k = 0; k < 12; k++) {
            float[] samples = new float[rng.nextInt(1, 150_000)];
            for (int i = 0; i < samples.length; i++) {
                samples[i] = (float) (rng.nextDouble() - 0.5) * 0.2f;
            }
            // Some overlap, one starts before the track and one runs past its end.
            long at = k == 0 ? -5_000 : k == 1 ? frames - 1_000 : rng.nextLong(0, frames);
            clips.add(new MonoTracks.Clip(at, samples));
        }
        double inMemory = MonoTracks.track(clips, frames, dir.resolve("memory.wav"));
        double onDisk;
        try (MonoMix mix = new MonoMix(dir.resolve("track.mix"), frames)) {
            clips.forEach(c -> mix.add(c.at(), c.samples()));
            onDisk = MonoTracks.track(mix, dir.resolve("disk.wav"));
        }
        assertEquals(inMemory, onDisk, 1e-7);
        assertArrayEquals(Files.readAllBytes(dir.resolve("memory.wav")), Files.readAllBytes(dir.resolve("disk.wav")));
        assertFalse(Files.exists(dir.resolve("track.mix")), "the mix file goes when closed");
    }
}
