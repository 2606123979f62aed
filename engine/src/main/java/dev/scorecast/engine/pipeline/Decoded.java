package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.media.AudioExtractor;
import dev.scorecast.engine.media.MediaLimits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The loudness of what the user downloads: an encoded file (the MP4's AAC track, the MP3) decoded
 * by FFmpeg and measured (BS.1770 integrated loudness and 4x true peak). Lossy encoders overshoot
 * the master's peaks (AAC by up to 2 dB on a limited mix), so the promise of -1 dBTP is checked
 * here, after the encode, not on the master.
 */
final class Decoded {

    private Decoded() {}

    /** Integrated loudness (null when silent) and true peak of {@code encoded}'s first audio track. */
    static LoudnessMeter.Result measure(Path encoded) {
        Path wav = encoded.resolveSibling("." + encoded.getFileName() + ".decoded.wav");
        try {
            // Float, so that a decode past full scale reads as such rather than clipped at 0 dBFS.
            if (AudioExtractor.extractWav(encoded, wav, MediaLimits.DEFAULT, WavEncoding.FLOAT32)
                    .isEmpty()) {
                throw new IllegalStateException(encoded + " has no audio track");
            }
            LoudnessMeter meter = new LoudnessMeter(AudioRate.HZ, 2);
            float[][] buf = new float[2][4096];
            try (WavReader in = WavReader.open(wav, "delivered", "the delivery check")) {
                for (long pos = 0, frames = in.frames(); pos < frames; ) {
                    int n = (int) Math.min(4096, frames - pos);
                    in.readStereo(buf, n);
                    meter.accept(buf, n);
                    pos += n;
                }
            }
            return meter.finish();
        } finally {
            try {
                Files.deleteIfExists(wav);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
