package dev.scorecast.engine.live;

import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;

/**
 * What every performance of one engine shares: the sound bank, the catalogues, the loop's
 * settings, the thread that composes ahead and the singer of the vocal lines.
 */
record LiveContext(SoundBank bank, GenreCatalog genres, ExperienceCatalog experiences, LiveSettings settings,
                   java.util.concurrent.atomic.AtomicInteger sounding, java.util.concurrent.Executor composing, PhraseSinger phrases) {

    int blockFrames() {
        return settings.blockFrames();
    }

    int lookaheadFrames() {
        return settings.lookaheadFrames();
    }

    int polyphony() {
        return settings.polyphony();
    }

    String interpolation() {
        return settings.interpolation();
    }

    float masterGain() {
        return settings.masterGain();
    }
}
