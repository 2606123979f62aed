package dev.scorecast.engine.live;

import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What every performance of one engine shares: the sound bank, the catalogues, the loop's
 * settings, the thread that composes ahead, the singer of the vocal lines, and the count of sections
 * whose score arrived after they had begun (composing fell behind).
 */
record LiveContext(
        SoundBank bank,
        GenreCatalog genres,
        ExperienceCatalog experiences,
        LiveSettings settings,
        AtomicInteger sounding,
        Executor composing,
        PhraseSinger phrases,
        AtomicLong lateSections) {

    /** With a fresh count of sections whose score arrived after they began. */
    LiveContext(
            SoundBank bank,
            GenreCatalog genres,
            ExperienceCatalog experiences,
            LiveSettings settings,
            AtomicInteger sounding,
            Executor composing,
            PhraseSinger phrases) {
        this(bank, genres, experiences, settings, sounding, composing, phrases, new AtomicLong());
    }

    int blockFrames() {
        return settings.blockFrames();
    }

    int lookaheadFrames() {
        return settings.lookaheadFrames();
    }

    int burstFrames() {
        return settings.burstFrames();
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
