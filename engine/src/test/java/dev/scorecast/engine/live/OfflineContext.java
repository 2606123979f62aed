package dev.scorecast.engine.live;

import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/** What a test needs to drive performances by hand: the built-in catalogues, a bank, composing on the caller's thread. */
final class OfflineContext {
    private OfflineContext() {}

    static LiveContext of(Path sf2, LiveSettings settings, PhraseSinger singer) {
        GenreCatalog genres = GenreCatalog.builtIn();
        return new LiveContext(SoundBank.load(sf2), genres, ExperienceCatalog.builtIn(genres), settings, new AtomicInteger(), Runnable::run,
                singer);
    }
}
