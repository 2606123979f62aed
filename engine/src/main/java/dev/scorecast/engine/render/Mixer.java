package dev.scorecast.engine.render;

import dev.scorecast.engine.analysis.audio.LoudnessMeter;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.WavIn;
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
 *   <li>sum: the bed, each stem through its group's {@link GainRamp} (gain and balance), plus the
 *       video's own sound at its gain when it is background, into a float WAV beside the master;
 *       its loudness measured. Each speech source (voiceover, dialogue) is measured on its own;</li>
 *   <li>bus: gain to bring the bed to the target, the {@link BusCompressor} (threshold
 *       {@value #COMPRESSOR_BELOW_TARGET_DB} dB below the target), then the {@link DuckingEnvelope};
 *       then the speech sources, each at the gain that puts its loudness at the target plus its
 *       trim, into a second float WAV; measured. The compressor comes before the ducking, so it
 *       cannot give back the depth, and the speech passes neither;</li>
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

    /** One file into the mix: its field name for errors, its gain and balance. */
    private record Input(Path wav, String field, double gainDb, double pan) {}

    /**
     * Mixes {@code stems} and writes the master to {@code masterWav} (48 kHz 16-bit stereo PCM),
     * replacing any file there; the name only ever holds a complete file.
     *
     * @throws InvalidParameter when there is nothing to mix, or the original audio or voiceover file is missing
     * @throws UnsupportedMedia when a stem, the original audio or the voiceover is not a 48 kHz WAV
     */
    public static MasterReport master(List<Stem> stems, MixSettings settings, Path masterWav) {
        Objects.requireNonNull(stems, "stems");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(masterWav, "masterWav");
        if (stems.isEmpty() && settings.originalAudioWav().isEmpty() && settings.voiceoverWav().isEmpty()) {
            throw new InvalidParameter("parts", "There is nothing to mix: the score has no parts and no original audio or voiceover is kept.");
        }
        List<Input> bed = new ArrayList<>();
        for (Stem stem : stems) {
            bed.add(new Input(stem.wav(), "stems." + stem.group().wire(), settings.groupGainDb().getOrDefault(stem.group(), 0.0),
                    settings.groupPan().getOrDefault(stem.group(), 0.0)));
        }
        List<Input> speech = new ArrayList<>();
        settings.originalAudioWav().ifPresent(wav -> (settings.originalIsSpeech() ? speech : bed)
                .add(new Input(existing(wav, "original_audio_wav"), "original_audio_wav", settings.originalAudioGainDb(), 0)));
        settings.voiceoverWav().ifPresent(wav ->
                speech.add(new Input(existing(wav, "voiceover_wav"), "voiceover_wav", settings.voiceoverGainDb(), 0)));
        // The score sets the length; without one, the longest of the recordings.
        long frames = 0;
        for (Input in : stems.isEmpty() ? concat(bed, speech) : bed.subList(0, stems.size())) {
            frames = Math.max(frames, frames(in));
        }
        Path dir = masterWav.toAbsolutePath().getParent();
        String base = "." + masterWav.getFileName();
        Path sum = dir.resolve(base + ".sum.wav");
        Path bus = dir.resolve(base + ".bus.wav");
        try {
            double target = settings.targetLufs();
            List<Input> levelled = new ArrayList<>();
            for (Input in : speech) {
                Double lufs = loudness(in, frames);
                double gain = lufs == null ? in.gainDb() : target - lufs + in.gainDb();
                LOG.log(System.Logger.Level.DEBUG, () -> String.format("speech %s: %s LUFS, gain %.2f dB", in.field(), lufs, gain));
                levelled.add(new Input(in.wav(), in.field(), gain, 0));
            }
            Double sumLufs = sum(bed, frames, sum);
            double preGainDb = sumLufs == null ? 0 : target - sumLufs;
            Double busLufs = bus(sum, levelled, new DuckingEnvelope(settings.ducking(), RATE), bus, frames, preGainDb,
                    target - COMPRESSOR_BELOW_TARGET_DB);
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

    private static List<Input> concat(List<Input> a, List<Input> b) {
        List<Input> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static Path existing(Path wav, String field) {
        if (!Files.isRegularFile(wav)) {
            throw new InvalidParameter(field, "No file at " + wav + ".");
        }
        return wav;
    }

    private static WavIn open(Input in) {
        WavIn w = WavIn.open(in.wav(), in.field(), "the mixer");
        if (w.rate() != RATE) {
            String rate = in.wav().getFileName() + " is at " + w.rate() + " Hz; the mixer needs " + RATE + " Hz.";
            w.close();
            throw new UnsupportedMedia(in.field(), rate);
        }
        return w;
    }

    private static long frames(Input in) {
        try (WavIn w = open(in)) {
            return w.frames();
        }
    }

    /** The integrated loudness of the first {@code frames} of one recording (null when silent). */
    private static Double loudness(Input in, long frames) {
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        try (WavIn w = open(in)) {
            long n = Math.min(frames, w.frames());
            for (long pos = 0; pos < n; ) {
                int m = (int) Math.min(BLOCK, n - pos);
                w.read(buf, m);
                meter.accept(buf, m);
                pos += m;
            }
        }
        return meter.finish().integratedLufs();
    }

    /** Pass 1: the bed's sum and its loudness (null when silent). */
    private static Double sum(List<Input> bed, long frames, Path out) {
        List<WavIn> inputs = new ArrayList<>();
        List<GainRamp> gains = new ArrayList<>();
        try {
            for (Input in : bed) {
                inputs.add(open(in));
                gains.add(new GainRamp(dbToGain(in.gainDb()), in.pan()));
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
            return meter.finish().integratedLufs();
        } finally {
            for (WavIn in : inputs) {
                in.close();
            }
        }
    }

    /** Pass 2: the bed to the target, bus compressor, ducking, plus the speech; returns the loudness of the result. */
    private static Double bus(Path in, List<Input> speech, DuckingEnvelope ducking, Path out, long frames, double gainDb,
                              double thresholdDbfs) {
        BusCompressor compressor = new BusCompressor(thresholdDbfs, RATE);
        GainRamp gain = new GainRamp(dbToGain(gainDb), 0);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        float[][] read = new float[2][BLOCK];
        List<WavIn> voices = new ArrayList<>();
        List<GainRamp> voiceGains = new ArrayList<>();
        try (WavIn r = WavIn.open(in, "mix", "the mixer"); WavOut w = WavOut.create(out, WavOut.Encoding.FLOAT32, RATE, 2)) {
            for (Input s : speech) {
                voices.add(open(s));
                voiceGains.add(new GainRamp(dbToGain(s.gainDb()), s.pan()));
            }
            for (long pos = 0; pos < frames; ) {
                int n = (int) Math.min(BLOCK, frames - pos);
                r.read(buf, n);
                gain.apply(buf, n);
                compressor.process(buf, n);
                ducking.apply(buf, pos, n);
                for (int s = 0; s < voices.size(); s++) {
                    voices.get(s).read(read, n);
                    voiceGains.get(s).addTo(read, buf, n);
                }
                meter.accept(buf, n);
                w.write(buf, n);
                pos += n;
            }
            w.commit();
        } finally {
            for (WavIn v : voices) {
                v.close();
            }
        }
        LOG.log(System.Logger.Level.DEBUG, () -> String.format(
                "bus compressor: threshold %.1f dBFS, mean reduction %.2f dB, max %.2f dB; %d ducked spans, %d speech sources",
                thresholdDbfs, compressor.meanReductionDb(), compressor.maxReductionDb(), ducking.spans(), speech.size()));
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
        try (WavIn r = WavIn.open(in, "mix", "the mixer"); WavOut w = WavOut.create(master, WavOut.Encoding.PCM16, RATE, 2)) {
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
