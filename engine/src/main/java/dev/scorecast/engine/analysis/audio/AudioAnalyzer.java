package dev.scorecast.engine.analysis.audio;

import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.Loudness;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.voice.speech.SpeechDetector;
import dev.scorecast.engine.voice.speech.SpeechPass;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Analyses a video's sound in one streaming pass over the WAV file that
 * {@link dev.scorecast.engine.media.AudioExtractor} writes (48 kHz 16-bit stereo; other rates and
 * mono work too): loudness and true peak ({@link LoudnessMeter}), the energy curve (momentary
 * loudness every 100 ms through {@link Loudness#unitScale}), and, on the mono downmix resampled
 * to 16 kHz, onsets ({@link OnsetDetector}) and speech (a {@link SpeechDetector}). Memory stays
 * flat apart from a few numbers per 100 ms.
 *
 * <p>Thread-safe when the detector is (as {@link dev.scorecast.engine.voice.speech.SileroSpeechDetector}
 * is): keep one analyser and call it from any number of threads.
 */
public final class AudioAnalyzer {

    /** Seconds between values of {@link AudioAnalysis#loudness()}. */
    public static final double HOP_SECONDS = Loudness.STEP_SECONDS;

    private static final int BLOCK_FRAMES = 8192;

    private final SpeechDetector speech;
    private final OnsetRules onsetRules;

    public AudioAnalyzer(SpeechDetector speech) {
        this(speech, OnsetRules.DEFAULT);
    }

    public AudioAnalyzer(SpeechDetector speech, OnsetRules onsetRules) {
        this.speech = Objects.requireNonNull(speech, "speech");
        this.onsetRules = Objects.requireNonNull(onsetRules, "onsetRules");
    }

    /**
     * @param wav a 16-bit PCM WAV file, mono or stereo, at a rate that is a multiple of 10 Hz
     * @throws dev.scorecast.engine.error.UnsupportedMedia when it is not such a file
     * @throws dev.scorecast.engine.error.InvalidParameter when its channel count or rate is unusable
     */
    public AudioAnalysis analyze(Path wav) {
        Objects.requireNonNull(wav, "wav");
        try (WavReader in = WavReader.openPcm16(wav, "wav", "this analysis");
                SpeechPass voice = speech.open()) {
            int rate = in.rateHz();
            LoudnessMeter meter = new LoudnessMeter(rate, in.channels());
            OnsetDetector onsets = new OnsetDetector(SpeechDetector.SAMPLE_RATE_HZ);
            PolyphaseResampler to16k = new PolyphaseResampler(rate, SpeechDetector.SAMPLE_RATE_HZ);
            float[][] block = new float[in.channels()][BLOCK_FRAMES];
            float[] mono = new float[BLOCK_FRAMES];
            int n;
            while ((n = in.read(block, BLOCK_FRAMES)) > 0) {
                meter.accept(block, n);
                downmix(block, n, mono);
                float[] low = to16k.push(mono, 0, n);
                onsets.accept(low, 0, low.length);
                voice.accept(low, 0, low.length);
            }
            float[] tail = to16k.finish();
            onsets.accept(tail, 0, tail.length);
            voice.accept(tail, 0, tail.length);
            List<Span> spans = voice.finish();
            LoudnessMeter.Result loudness = meter.finish();
            double[] curve = new double[loudness.momentaryLufs().length];
            for (int i = 0; i < curve.length; i++) {
                curve[i] = Loudness.unitScale(loudness.momentaryLufs()[i]);
            }
            return new AudioAnalysis(
                    loudness.integratedLufs(),
                    loudness.truePeakDbtp(),
                    spans,
                    onsets.finish(onsetRules),
                    HOP_SECONDS,
                    curve);
        }
    }

    /** The mean of the channels; a voice panned anywhere survives it (only an out-of-phase pair would cancel). */
    private static void downmix(float[][] block, int frames, float[] mono) {
        int channels = block.length;
        if (channels == 1) {
            System.arraycopy(block[0], 0, mono, 0, frames);
            return;
        }
        for (int i = 0; i < frames; i++) {
            float sum = 0;
            for (float[] channel : block) {
                sum += channel[i];
            }
            mono[i] = sum / channels;
        }
    }
}
