package dev.scorecast.engine.render;

import dev.scorecast.engine.analysis.audio.LoudnessMeter;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Mixes stems into the master, streaming in blocks of {@value #BLOCK} frames: memory does not grow
 * with the length. Three passes, each over a file:
 * <ol>
 *   <li>sum: each stem through its group's {@link GainRamp} (gain and balance), plus the video's own
 *       sound at its gain, into a float WAV beside the master; its loudness measured;</li>
 *   <li>bus: gain to bring the sum to the target, then the {@link BusCompressor} (threshold
 *       {@value #COMPRESSOR_BELOW_TARGET_DB} dB below the target), into a second float WAV; measured;</li>
 *   <li>master: gain to the target again (the compressor lowered it), a 10 ms fade on the last
 *       samples, the {@link TruePeakLimiter} at {@value #CEILING_DBTP} dBTP, 16-bit with TPDF dither;
 *       measured. If the limiter pulled the loudness more than {@value #RETRY_BELOW_DB} dB under the
 *       target, this pass runs once more with the shortfall added, and, when that still leaves it
 *       more than 1 dB short, a third time with a secant step on the measured slope.</li>
 * </ol>
 */
public final class Mixer {

    static final int RATE = Renderer.RATE;
    static final int BLOCK = 4096;
    /** The limiter aims a little under the promised -1 dBTP: FFmpeg's meter reads slightly differently and the
     * 16-bit dither adds a little. */
    static final double CEILING_DBTP = -1.3;
    static final double COMPRESSOR_BELOW_TARGET_DB = 5;
    static final double RETRY_BELOW_DB = 0.5;
    static final int FADE_OUT_FRAMES = 480;
    private static final double SILENT_LUFS = -70;
    private static final double SILENT_DBTP = -144;

    private static final System.Logger LOG = System.getLogger(Mixer.class.getName());

    private Mixer() {}

    /**
     * Mixes {@code stems} and writes the master to {@code masterWav} (48 kHz 16-bit stereo PCM),
     * replacing any file there; the name only ever holds a complete file.
     *
     * @throws InvalidParameter when there is nothing to mix
     * @throws UnsupportedMedia when a stem or the original audio is not a 48 kHz WAV
     */
    public static MasterReport master(List<Stem> stems, MixSettings settings, Path masterWav) {
        Objects.requireNonNull(stems, "stems");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(masterWav, "masterWav");
        if (stems.isEmpty() && settings.originalAudioWav().isEmpty()) {
            throw new InvalidParameter("parts", "There is nothing to mix: the score has no parts and no original audio is kept.");
        }
        Path dir = masterWav.toAbsolutePath().getParent();
        String base = "." + masterWav.getFileName();
        Path sum = dir.resolve(base + ".sum.wav");
        Path bus = dir.resolve(base + ".bus.wav");
        try {
            double target = settings.targetLufs();
            Measured summed = sum(stems, settings, sum);
            long frames = summed.frames();
            Double sumLufs = summed.lufs();
            double preGainDb = sumLufs == null ? 0 : target - sumLufs;
            Double busLufs = bus(sum, bus, frames, preGainDb, target - COMPRESSOR_BELOW_TARGET_DB);
            delete(sum);
            double goal = target + settings.gainDb();
            double postGainDb = busLufs == null ? 0 : goal - busLufs;
            LoudnessMeter.Result result = finish(bus, masterWav, frames, postGainDb);
            if (result.integratedLufs() != null && result.integratedLufs() < goal - RETRY_BELOW_DB) {
                // The limiter took loudness away: add the shortfall and run the last pass again.
                double firstGain = postGainDb;
                double firstLufs = result.integratedLufs();
                postGainDb += goal - firstLufs;
                result = finish(bus, masterWav, frames, postGainDb);
                Double second = result.integratedLufs();
                if (second != null && second < goal - 1 && second > firstLufs + 0.05) {
                    // Still short (a hard-driven limiter gives back less than each added dB): one
                    // secant step on the measured gain-to-loudness slope, at most 6 dB more.
                    double slope = Math.max(0.2, (second - firstLufs) / (postGainDb - firstGain));
                    postGainDb += Math.min(6, (goal - second) / slope);
                    result = finish(bus, masterWav, frames, postGainDb);
                }
            }
            double lufs = result.integratedLufs() == null ? SILENT_LUFS : result.integratedLufs();
            double peak = Double.isFinite(result.truePeakDbtp()) ? result.truePeakDbtp() : SILENT_DBTP;
            return new MasterReport(lufs, peak, frames / (double) RATE, preGainDb + postGainDb);
        } finally {
            delete(sum);
            delete(bus);
        }
    }

    private record Measured(long frames, Double lufs) {}

    /** Pass 1: the frame count and the sum's loudness (null when silent). */
    private static Measured sum(List<Stem> stems, MixSettings settings, Path out) {
        List<WavIn> inputs = new ArrayList<>();
        List<GainRamp> gains = new ArrayList<>();
        try {
            long frames = 0;
            for (Stem stem : stems) {
                WavIn in = WavIn.open(stem.wav(), "stems." + stem.group().wire());
                inputs.add(in);
                requireRate(in, stem.wav(), "stems." + stem.group().wire());
                frames = Math.max(frames, in.frames());
                double db = settings.groupGainDb().getOrDefault(stem.group(), 0.0);
                gains.add(new GainRamp(dbToGain(db), settings.groupPan().getOrDefault(stem.group(), 0.0)));
            }
            if (settings.originalAudioWav().isPresent()) {
                Path original = settings.originalAudioWav().get();
                if (!Files.isRegularFile(original)) {
                    throw new InvalidParameter("original_audio_wav", "No original audio at " + original + ".");
                }
                WavIn in = WavIn.open(original, "original_audio_wav");
                inputs.add(in);
                requireRate(in, original, "original_audio_wav");
                if (stems.isEmpty()) {
                    frames = in.frames();
                }
                gains.add(new GainRamp(dbToGain(settings.originalAudioGainDb()), 0));
            }
            LoudnessMeter meter = new LoudnessMeter(RATE, 2);
            float[][] read = new float[2][BLOCK];
            float[][] mix = new float[2][BLOCK];
            try (WavOut w = WavOut.create(out, WavOut.Encoding.FLOAT32, RATE, 2)) {
                for (long pos = 0; pos < frames; ) {
                    int n = (int) Math.min(BLOCK, frames - pos);
                    java.util.Arrays.fill(mix[0], 0, n, 0f);
                    java.util.Arrays.fill(mix[1], 0, n, 0f);
                    for (int s = 0; s < inputs.size(); s++) {
                        inputs.get(s).read(read, n);
                        gains.get(s).addTo(read, mix, n);
                    }
                    meter.accept(mix, n);
                    w.write(mix, n);
                    pos += n;
                }
                w.commit();
            }
            return new Measured(frames, meter.finish().integratedLufs());
        } finally {
            for (WavIn in : inputs) {
                in.close();
            }
        }
    }

    /** Pass 2: gain to the target, bus compressor; returns the loudness of the result. */
    private static Double bus(Path in, Path out, long frames, double gainDb, double thresholdDbfs) {
        BusCompressor compressor = new BusCompressor(thresholdDbfs, RATE);
        GainRamp gain = new GainRamp(dbToGain(gainDb), 0);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        try (WavIn r = WavIn.open(in, "mix"); WavOut w = WavOut.create(out, WavOut.Encoding.FLOAT32, RATE, 2)) {
            for (long pos = 0; pos < frames; ) {
                int n = (int) Math.min(BLOCK, frames - pos);
                r.read(buf, n);
                gain.apply(buf, n);
                compressor.process(buf, n);
                meter.accept(buf, n);
                w.write(buf, n);
                pos += n;
            }
            w.commit();
        }
        LOG.log(System.Logger.Level.DEBUG, () -> String.format("bus compressor: threshold %.1f dBFS, mean reduction %.2f dB, max %.2f dB",
                thresholdDbfs, compressor.meanReductionDb(), compressor.maxReductionDb()));
        return meter.finish().integratedLufs();
    }

    /** Pass 3: gain, fade-out, limiter, 16-bit; the master's own measurement. */
    private static LoudnessMeter.Result finish(Path in, Path master, long frames, double gainDb) {
        TruePeakLimiter limiter = new TruePeakLimiter(CEILING_DBTP, RATE);
        GainRamp gain = new GainRamp(dbToGain(gainDb), 0);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        float[][] out = new float[2][BLOCK];
        int skip = TruePeakLimiter.LATENCY;
        long fed = 0;
        long written = 0;
        try (WavIn r = WavIn.open(in, "mix"); WavOut w = WavOut.create(master, WavOut.Encoding.PCM16, RATE, 2)) {
            while (written < frames) {
                int n;
                if (fed < frames) {
                    n = (int) Math.min(BLOCK, frames - fed);
                    r.read(buf, n);
                    gain.apply(buf, n);
                    fadeOut(buf, n, fed, frames);
                } else {
                    // Flush the limiter's look-ahead with silence.
                    n = (int) Math.min(BLOCK, frames + TruePeakLimiter.LATENCY - fed);
                    java.util.Arrays.fill(buf[0], 0, n, 0f);
                    java.util.Arrays.fill(buf[1], 0, n, 0f);
                }
                fed += n;
                limiter.process(buf, n);
                int from = Math.min(skip, n);
                skip -= from;
                int m = (int) Math.min(n - from, frames - written);
                if (m > 0) {
                    System.arraycopy(buf[0], from, out[0], 0, m);
                    System.arraycopy(buf[1], from, out[1], 0, m);
                    meter.accept(out, m);
                    w.write(out, m);
                    written += m;
                }
            }
            w.commit();
        }
        LOG.log(System.Logger.Level.DEBUG, () -> String.format("limiter: gain %.2f dB in, deepest reduction %.2f dB",
                gainDb, limiter.maxReductionDb()));
        return meter.finish();
    }

    /** A raised-cosine fade over the last {@value #FADE_OUT_FRAMES} frames, so a note cut by the end of the video does not click. */
    private static void fadeOut(float[][] buf, int n, long at, long frames) {
        long fadeStart = frames - FADE_OUT_FRAMES;
        for (int i = 0; i < n; i++) {
            long k = at + i;
            if (k >= fadeStart) {
                double x = (k - fadeStart + 1) / (double) FADE_OUT_FRAMES;
                float g = (float) (0.5 * (1 + Math.cos(Math.PI * x)));
                buf[0][i] *= g;
                buf[1][i] *= g;
            }
        }
    }

    private static void requireRate(WavIn in, Path wav, String field) {
        if (in.rate() != RATE) {
            throw new UnsupportedMedia(field, wav.getFileName() + " is at " + in.rate() + " Hz; the mixer needs " + RATE + " Hz.");
        }
    }

    static double dbToGain(double db) {
        return Math.pow(10, db / 20);
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + p, e);
        }
    }
}
