package dev.scorecast.engine.voice.speech;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.scorecast.engine.core.Span;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@link SpeechDetector} running Silero VAD v5 ({@code silero_vad_v5.onnx}) in ONNX Runtime. The
 * model scores each 32 ms window (512 samples at 16 kHz) seeing the 64 samples before it too, and
 * carries a recurrent state from window to window; {@link SpeechRules} turns the scores into spans.
 *
 * <p>One instance holds one ONNX Runtime session, which is thread-safe; every {@link #open()} gets
 * its own state and buffers, so many threads may run passes at once. Each window is a native call
 * of about 0.3 ms that pins a virtual thread's carrier: prefer platform threads for long passes.
 *
 * <p>The model is not in git: {@code bin/test} and {@code bin/scorecast serve} fetch it from the npm
 * package {@code @ricky0123/vad-web} (see {@code ensure_vad_model} in {@code bin/lib/common.sh}).
 */
public final class SileroSpeechDetector implements SpeechDetector, AutoCloseable {

    /** System property naming the model file; wins over {@link #MODEL_ENV}. */
    public static final String MODEL_PROPERTY = "scorecast.vad.model";
    /** Environment variable naming the model file. */
    public static final String MODEL_ENV = "SCORECAST_VAD_MODEL";
    /** The model's place inside the repository, used when neither the property nor the variable is set. */
    public static final String DEFAULT_MODEL = "models/silero_vad_v5.onnx";
    /** Samples per window the model scores. */
    public static final int WINDOW_SAMPLES = 512;
    /** Samples of the previous window the model sees in front of each window. */
    public static final int CONTEXT_SAMPLES = 64;

    public static final double WINDOW_SECONDS = WINDOW_SAMPLES / (double) SAMPLE_RATE_HZ;

    private static final long[] INPUT_SHAPE = {1, CONTEXT_SAMPLES + WINDOW_SAMPLES};
    private static final long[] STATE_SHAPE = {2, 1, 128};
    private static final int STATE_FLOATS = 2 * 128;
    private static final String FETCH = "bash -c '. bin/lib/common.sh && ensure_vad_model' (run in the repository; "
            + "bin/test and bin/scorecast serve do it too)";

    private final OrtEnvironment env;
    private final OrtSession session;
    private final SpeechRules rules;

    private SileroSpeechDetector(OrtEnvironment env, OrtSession session, SpeechRules rules) {
        this.env = env;
        this.session = session;
        this.rules = rules;
    }

    /** Loads the model found by {@link #configuredModel()} with {@link SpeechRules#DEFAULT}. */
    public static SileroSpeechDetector load() {
        return load(configuredModel(), SpeechRules.DEFAULT);
    }

    /**
     * Loads {@code model} (about 0.1 s); do it once and share the detector.
     *
     * @throws IllegalStateException when the file is missing or is not a Silero VAD v5 model: a
     *                               deployment fault, which no request can fix
     */
    public static SileroSpeechDetector load(Path model, SpeechRules rules) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(rules, "rules");
        if (!Files.isRegularFile(model)) {
            throw new IllegalStateException(
                    "The speech detection model is missing: no file at " + model.toAbsolutePath()
                            + ". Set " + MODEL_ENV + " (or -D" + MODEL_PROPERTY + ") to a copy of silero_vad_v5.onnx, "
                            + "or fetch it into the repository with: " + FETCH);
        }
        OnnxRuntimeLibraries.prepare();
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            // One window is too small to gain from threads; callers get parallelism by running passes side by side.
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            OrtSession session = env.createSession(model.toString(), options);
            checkSignature(session, model);
            return new SileroSpeechDetector(env, session, rules);
        } catch (OrtException e) {
            throw new IllegalStateException(
                    "cannot load the speech detection model " + model.toAbsolutePath() + ": " + e.getMessage()
                            + "; fetch a fresh copy with: " + FETCH,
                    e);
        }
    }

    /**
     * The model file: system property {@value #MODEL_PROPERTY}, else environment variable
     * {@value #MODEL_ENV}, else {@value #DEFAULT_MODEL} under the repository (system property
     * {@code scorecast.repository}, else the working directory).
     */
    public static Path configuredModel() {
        String property = System.getProperty(MODEL_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv(MODEL_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("scorecast.repository", "."))
                .resolve(DEFAULT_MODEL)
                .toAbsolutePath()
                .normalize();
    }

    private static void checkSignature(OrtSession session, Path model) throws OrtException {
        boolean inputs = session.getInputNames().containsAll(List.of("input", "state", "sr"));
        boolean outputs = session.getOutputNames().containsAll(List.of("output", "stateN"));
        if (!inputs || !outputs) {
            session.close();
            throw new IllegalStateException(model.toAbsolutePath() + " is not Silero VAD v5 (inputs "
                    + session.getInputNames() + ", outputs " + session.getOutputNames() + "); fetch it with: " + FETCH);
        }
    }

    @Override
    public SpeechPass open() {
        return new Pass();
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the speech detection model", e);
        }
    }

    /**
     * One recording. The input tensor wraps a direct buffer, which ONNX Runtime reads in place, so
     * each window is written into that buffer and the same tensors serve every call.
     */
    private final class Pass implements SpeechPass {
        private final FloatBuffer input = directFloats(CONTEXT_SAMPLES + WINDOW_SAMPLES);
        private final FloatBuffer state = directFloats(STATE_FLOATS);
        private final float[] window = new float[CONTEXT_SAMPLES + WINDOW_SAMPLES];
        private final OnnxTensor inputTensor;
        private final OnnxTensor stateTensor;
        private final OnnxTensor rateTensor;
        private final Map<String, OnnxTensor> feed;
        private float[] probabilities = new float[256];
        private int windows;
        private int filled = CONTEXT_SAMPLES; // the context starts as silence
        private long samples;
        private boolean closed;

        Pass() {
            try {
                inputTensor = OnnxTensor.createTensor(env, input, INPUT_SHAPE);
                stateTensor = OnnxTensor.createTensor(env, state, STATE_SHAPE);
                rateTensor = OnnxTensor.createTensor(env, (long) SAMPLE_RATE_HZ);
            } catch (OrtException e) {
                throw new IllegalStateException("cannot allocate speech detection tensors", e);
            }
            feed = Map.of("input", inputTensor, "state", stateTensor, "sr", rateTensor);
        }

        @Override
        public void accept(float[] samples, int offset, int length) {
            Objects.checkFromIndexSize(offset, length, samples.length);
            if (closed) {
                throw new IllegalStateException("the pass is closed");
            }
            this.samples += length;
            while (length > 0) {
                int n = Math.min(length, window.length - filled);
                System.arraycopy(samples, offset, window, filled, n);
                filled += n;
                offset += n;
                length -= n;
                if (filled == window.length) {
                    score();
                }
            }
        }

        @Override
        public List<Span> finish() {
            if (filled > CONTEXT_SAMPLES) {
                // The tail is scored as a whole window padded with silence, so its speech is not lost.
                Arrays.fill(window, filled, window.length, 0f);
                score();
            }
            double duration = samples / (double) SAMPLE_RATE_HZ;
            List<Span> spans = SpeechSpans.fromProbabilities(probabilities, windows, WINDOW_SECONDS, duration, rules);
            close();
            return spans;
        }

        private void score() {
            input.clear();
            input.put(window).flip();
            try (OrtSession.Result result = session.run(feed)) {
                float probability =
                        ((float[][]) result.get("output").orElseThrow().getValue())[0][0];
                FloatBuffer next = ((OnnxTensor) result.get("stateN").orElseThrow()).getFloatBuffer();
                state.clear();
                state.put(next).flip();
                record(probability);
            } catch (OrtException e) {
                throw new IllegalStateException("speech detection failed on window " + windows, e);
            }
            System.arraycopy(window, WINDOW_SAMPLES, window, 0, CONTEXT_SAMPLES);
            filled = CONTEXT_SAMPLES;
        }

        private void record(float probability) {
            if (windows == probabilities.length) {
                probabilities = Arrays.copyOf(probabilities, windows * 2);
            }
            probabilities[windows++] = probability;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                inputTensor.close();
                stateTensor.close();
                rateTensor.close();
            }
        }
    }

    private static FloatBuffer directFloats(int count) {
        return ByteBuffer.allocateDirect(count * Float.BYTES)
                .order(ByteOrder.nativeOrder())
                .asFloatBuffer();
    }
}
