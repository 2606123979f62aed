package dev.scorecast.engine.media;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A video's sound, written by {@link AudioExtractor} as 16-bit PCM WAV.
 *
 * @param wav            the finished file
 * @param sampleRate     Hz (always 48000)
 * @param channels       always 2
 * @param frames         sample frames written (one frame = one sample per channel)
 * @param duration       seconds, {@code frames / sampleRate}
 * @param skippedPackets corrupt audio packets that were replaced by silence of the same length
 */
public record AudioTrack(Path wav, int sampleRate, int channels, long frames, double duration, int skippedPackets) {

    public AudioTrack {
        Objects.requireNonNull(wav, "wav");
        if (sampleRate < 1 || channels < 1 || frames < 0 || duration < 0 || skippedPackets < 0) {
            throw new IllegalArgumentException("sampleRate and channels must be positive, counts not negative");
        }
    }
}
