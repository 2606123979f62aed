package dev.scorecast.server.execution;

import dev.scorecast.engine.render.SoundBank;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The SoundFont, loaded on the first execution rather than at start-up (a server that only
 * analyses never pays for it) and then shared by every execution.
 */
public final class LazySoundBank implements Supplier<SoundBank> {
    private final Path soundFont;
    private volatile SoundBank bank;

    public LazySoundBank(Path soundFont) {
        this.soundFont = soundFont;
    }

    @Override
    public SoundBank get() {
        SoundBank loaded = bank;
        if (loaded == null) {
            synchronized (this) {
                loaded = bank;
                if (loaded == null) {
                    loaded = SoundBank.load(soundFont);
                    bank = loaded;
                }
            }
        }
        return loaded;
    }
}
