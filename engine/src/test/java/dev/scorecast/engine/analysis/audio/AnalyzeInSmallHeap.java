package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.nio.file.Path;

/** Run in a child JVM with a small heap by {@link AudioAnalyzerSpeedTest}: streaming must not need more. */
public final class AnalyzeInSmallHeap {

    private AnalyzeInSmallHeap() {}

    public static void main(String[] args) {
        try (SileroSpeechDetector silero = SileroSpeechDetector.load()) {
            long start = System.nanoTime();
            AudioAnalysis a = new AudioAnalyzer(silero).analyze(Path.of(args[0]));
            System.out.printf(
                    "analysed in %.2f s: %s LUFS, %d onsets, %d speech spans, %d loudness values%n",
                    (System.nanoTime() - start) / 1e9,
                    a.integratedLufs(),
                    a.onsets().size(),
                    a.speech().size(),
                    a.loudness().length);
        }
    }
}
