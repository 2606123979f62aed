package dev.scorecast.engine.render;

import dev.scorecast.engine.dsp.GainRamp;
import dev.scorecast.engine.dsp.LoudnessMeter;
import dev.scorecast.engine.dsp.TruePeakLimiter;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.StereoPipe;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.style.Production;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoubleConsumer;

/**
 * Mixes stems into the master, streaming in blocks of {@value #BLOCK} frames: memory grows with
 * the length only by the limiter forecast's 12 bytes a millisecond. Three passes, each over a file:
 * <ol>
 *   <li>sum ({@link StemSum}): the bed, each stem through its production chain and its group's
 *       {@link GainRamp} (gain and balance), plus the video's own sound at its gain when it is
 *       background, into a float WAV beside the master; its loudness measured. Each speech source
 *       (voiceover, dialogue) is measured on its own;</li>
 *   <li>bus: gain to bring the bed to the target, the {@link BusCompressor} (threshold
 *       {@value #COMPRESSOR_BELOW_TARGET_DB} dB below the target), then the {@link DuckingEnvelope};
 *       then the speech sources, each at the gain that puts its loudness at the target plus its
 *       trim, into a second float WAV; measured, and what the limiter will take forecast
 *       ({@link LimiterForecast}). The compressor comes before the ducking, so it
 *       cannot give back the depth, and the speech passes neither;</li>
 *   <li>master: gain to the target again (the compressor lowered it) plus what the limiter is
 *       forecast to take, a 10 ms fade on the last
 *       samples, the {@link TruePeakLimiter} at {@value #CEILING_DBTP} dBTP, 16-bit with TPDF dither;
 *       measured. If the limiter pulled the loudness more than {@value #RETRY_BELOW_DB} dB under the
 *       target, this pass runs once more with the shortfall added, and, when that still leaves it
 *       more than 1 dB short, a third time with a secant step on the measured slope.</li>
 * </ol>
 */
public final class Mixer {

    static final int RATE = Renderer.RATE;
    static final int BLOCK = 4096;
    /** Pass 1's share of {@link #mixdown}'s time, for its progress. */
    private static final double PASS_1_SHARE = 0.85;

    static final double CEILING_DBTP = MixSettings.CEILING_DBTP;
    static final double COMPRESSOR_BELOW_TARGET_DB = 5;
    static final double RETRY_BELOW_DB = 0.5;
    static final int FADE_OUT_FRAMES = 480;
    private static final double SILENT_LUFS = -70;
    private static final double SILENT_DBTP = -144;

    private static final System.Logger LOG = System.getLogger(Mixer.class.getName());

    private Mixer() {}

    /** One file into the mix: its field name for errors, its gain and balance. */
    record Input(Path wav, String field, double gainDb, double pan) {}

    /**
     * Mixes {@code stems} and writes the master to {@code masterWav} (48 kHz 16-bit stereo PCM),
     * replacing any file there; the name only ever holds a complete file.
     *
     * @throws InvalidParameter when there is nothing to mix, or the original audio or voiceover file is missing
     * @throws UnsupportedMedia when a stem, the original audio or the voiceover is not a 48 kHz WAV
     */
    public static MasterReport master(List<Stem> stems, MixSettings settings, Path masterWav) {
        try (Mixdown mix = mixdown(stems, settings, masterWav)) {
            return mix.master(settings.ceilingDbtp());
        }
    }

    /**
     * Passes 1 and 2: the stems through their production chains (when {@code settings} has one:
     * the produced stems are written beside the rendered ones, in {@code produced/}), summed,
     * compressed, ducked and joined by the speech. The result waits in a file beside
     * {@code masterWav} until the {@link Mixdown} is closed, so the master stage can be run again
     * with another ceiling (an encoder that overshoots) without mixing again.
     *
     * @throws InvalidParameter when there is nothing to mix, or the original audio or voiceover file is missing
     * @throws UnsupportedMedia when a stem, the original audio or the voiceover is not a 48 kHz WAV
     */
    public static Mixdown mixdown(List<Stem> stems, MixSettings settings, Path masterWav) {
        return mixdown(stems, settings, masterWav, fraction -> {});
    }

    /** As {@link #mixdown(List, MixSettings, Path)}, telling {@code progress} the fraction of passes 1 and 2 done. */
    public static Mixdown mixdown(List<Stem> stems, MixSettings settings, Path masterWav, DoubleConsumer progress) {
        return mixdown(stems, settings, masterWav, progress, produced -> {});
    }

    /**
     * As {@link #mixdown(List, MixSettings, Path, java.util.function.DoubleConsumer)}, handing
     * {@code produced} the stems as mixed ({@link Mixdown#stems()}) as soon as pass 1 has written
     * them, for work that needs them and not the master (the stems zip runs beside pass 2).
     */
    public static Mixdown mixdown(
            List<Stem> stems,
            MixSettings settings,
            Path masterWav,
            DoubleConsumer progress,
            Consumer<List<Stem>> produced) {
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(produced, "produced");
        Objects.requireNonNull(stems, "stems");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(masterWav, "masterWav");
        if (stems.isEmpty()
                && settings.originalAudioWav().isEmpty()
                && settings.voiceoverWav().isEmpty()) {
            throw new InvalidParameter(
                    "parts",
                    "There is nothing to mix: the score has no parts and no original audio or voiceover is kept.");
        }
        List<Input> bed = new ArrayList<>();
        for (Stem stem : stems) {
            bed.add(new Input(
                    stem.wav(),
                    "stems." + stem.group().wire(),
                    settings.groupGainDb().getOrDefault(stem.group(), 0.0),
                    settings.groupPan().getOrDefault(stem.group(), 0.0)));
        }
        List<Input> speech = new ArrayList<>();
        settings.originalAudioWav()
                .ifPresent(wav -> (settings.originalIsSpeech() ? speech : bed)
                        .add(new Input(
                                existing(wav, "original_audio_wav"),
                                "original_audio_wav",
                                settings.originalAudioGainDb(),
                                0)));
        settings.voiceoverWav()
                .ifPresent(wav -> speech.add(
                        new Input(existing(wav, "voiceover_wav"), "voiceover_wav", settings.voiceoverGainDb(), 0)));
        // The score sets the length; without one, the longest of the recordings.
        long frames = 0;
        for (Input in : stems.isEmpty() ? concat(bed, speech) : bed.subList(0, stems.size())) {
            frames = Math.max(frames, frames(in));
        }
        Path dir = masterWav.toAbsolutePath().getParent();
        String base = "." + masterWav.getFileName();
        Path sum = dir.resolve(base + ".sum.wav");
        Path bus = dir.resolve(base + ".bus.wav");
        boolean done = false;
        try {
            double target = settings.targetLufs();
            List<Input> levelled = new ArrayList<>();
            for (Input in : speech) {
                Double lufs = loudness(in, frames);
                double gain = lufs == null ? in.gainDb() : target - lufs + in.gainDb();
                LOG.log(
                        System.Logger.Level.DEBUG,
                        () -> String.format("speech %s: %s LUFS, gain %.2f dB", in.field(), lufs, gain));
                levelled.add(new Input(in.wav(), in.field(), gain, 0));
            }
            // Pass 1 (the production chains) is most of the work: about six times pass 2.
            StemSum.Summed summed =
                    StemSum.run(stems, bed, settings.production(), frames, sum, f -> progress.accept(PASS_1_SHARE * f));
            produced.accept(List.copyOf(summed.stems()));
            Double sumLufs = summed.lufs();
            double preGainDb = sumLufs == null ? 0 : target - sumLufs;
            Production.Glue glue = settings.production()
                    .map(p -> p.production().glue())
                    .orElse(new Production.Glue(COMPRESSOR_BELOW_TARGET_DB, BusCompressor.RATIO));
            LimiterForecast forecast = bus(
                    sum,
                    levelled,
                    new DuckingEnvelope(settings.ducking(), RATE),
                    bus,
                    frames,
                    preGainDb,
                    target - glue.belowTargetDb(),
                    glue.ratio(),
                    f -> progress.accept(PASS_1_SHARE + (1 - PASS_1_SHARE) * f));
            Double busLufs = forecast.unlimitedLufs();
            double goal = target + settings.gainDb();
            double postGainDb = busLufs == null ? 0 : goal - busLufs;
            Mixdown mix = new Mixdown(
                    sum,
                    bus,
                    masterWav,
                    frames,
                    goal,
                    preGainDb,
                    postGainDb,
                    busLufs == null ? null : forecast,
                    summed.stems());
            done = true;
            return mix;
        } finally {
            if (!done) {
                delete(sum);
                delete(bus);
            }
        }
    }

    /**
     * A mix waiting for its master stage: {@link #master} (any number of times, each replacing the
     * master file), then {@link #close()} deletes the waiting files.
     */
    public static final class Mixdown implements AutoCloseable {
        private final Path sum;
        private final Path bus;
        private final Path masterWav;
        private final long frames;
        private final double goal;
        private final double preGainDb;
        private final double postGainDb;
        /** Null when the bus is silent: no gain brings it anywhere. */
        private final LimiterForecast forecast;

        private final List<Stem> stems;
        private double masteredGainDb = Double.NaN;
        private double masteredCeilingDbtp = Double.NaN;

        private Mixdown(
                Path sum,
                Path bus,
                Path masterWav,
                long frames,
                double goal,
                double preGainDb,
                double postGainDb,
                LimiterForecast forecast,
                List<Stem> stems) {
            this.sum = sum;
            this.bus = bus;
            this.masterWav = masterWav;
            this.frames = frames;
            this.goal = goal;
            this.preGainDb = preGainDb;
            this.postGainDb = postGainDb;
            this.forecast = forecast;
            this.stems = List.copyOf(stems);
        }

        /**
         * The stems as they are in the mix: with a production chain, the produced stems (effects,
         * group gain and balance in them; they sum to the mix before the master stage); without,
         * the rendered stems as given.
         */
        public List<Stem> stems() {
            return stems;
        }

        /** Pass 3 at {@code ceilingDbtp}: writes the master, measured; retried as the class describes. */
        public MasterReport master(double ceilingDbtp) {
            return master(ceilingDbtp, List.of());
        }

        /**
         * As {@link #master(double)}, handing the samples of its first pass to {@code taps} as
         * they are written (as the file holds them): each tap is {@link StereoPipe#end() ended}
         * when that pass is the master, {@link StereoPipe#abandon() abandoned} when it runs again.
         */
        public MasterReport master(double ceilingDbtp, List<StereoPipe> taps) {
            // What the limiter will take is forecast from the bus, so this pass usually lands on the goal at once.
            double gainDb = forecast == null ? postGainDb : forecast.gainDb(goal, ceilingDbtp, postGainDb);
            LoudnessMeter.Result result = finish(bus, masterWav, frames, gainDb, ceilingDbtp, taps);
            boolean again = result.integratedLufs() != null && result.integratedLufs() < goal - RETRY_BELOW_DB;
            taps.forEach(again ? StereoPipe::abandon : StereoPipe::end);
            if (again) {
                // The limiter took loudness away: add the shortfall and run the last pass again.
                double firstGain = gainDb;
                double firstLufs = result.integratedLufs();
                gainDb += goal - firstLufs;
                result = finish(bus, masterWav, frames, gainDb, ceilingDbtp, List.of());
                Double second = result.integratedLufs();
                if (second != null && second < goal - 1 && second > firstLufs + 0.05) {
                    // Still short (a hard-driven limiter gives back less than each added dB): one
                    // secant step on the measured gain-to-loudness slope, at most 6 dB more.
                    double slope = Math.max(0.2, (second - firstLufs) / (gainDb - firstGain));
                    gainDb += Math.min(6, (goal - second) / slope);
                    result = finish(bus, masterWav, frames, gainDb, ceilingDbtp, List.of());
                }
            }
            masteredGainDb = gainDb;
            masteredCeilingDbtp = ceilingDbtp;
            return report(result, gainDb);
        }

        /**
         * Pass 3 again with the gain and the ceiling of the last {@link #master} both {@code lowerDb}
         * lower: the same master scaled down (the limiter does the same work), for an encoder that
         * overshot it. Lowering only the ceiling limits harder, and the encoders overshoot flattened
         * peaks more (LAME on a rock master: -1.07 dBTP decoded from a -2.0 dBTP ceiling, -0.98 from -2.43), or
         * needs more gain to keep the loudness (a lo-fi mix went to 14 dB of reduction).
         */
        public MasterReport remasterLower(double lowerDb) {
            return remasterLower(lowerDb, List.of());
        }

        /** As {@link #remasterLower(double)}, handing the samples to {@code taps} as {@link #master(double, List)} does. */
        public MasterReport remasterLower(double lowerDb, List<StereoPipe> taps) {
            if (Double.isNaN(masteredGainDb)) {
                throw new IllegalStateException("remasterLower follows a master");
            }
            masteredGainDb -= lowerDb;
            masteredCeilingDbtp -= lowerDb;
            LoudnessMeter.Result result = finish(bus, masterWav, frames, masteredGainDb, masteredCeilingDbtp, taps);
            taps.forEach(StereoPipe::end);
            return report(result, masteredGainDb);
        }

        private MasterReport report(LoudnessMeter.Result result, double gainDb) {
            double lufs = result.integratedLufs() == null ? SILENT_LUFS : result.integratedLufs();
            double peak = Double.isFinite(result.truePeakDbtp()) ? result.truePeakDbtp() : SILENT_DBTP;
            return new MasterReport(lufs, peak, frames / (double) RATE, preGainDb + gainDb);
        }

        /** Frames in the master. */
        public long frames() {
            return frames;
        }

        /**
         * The bed as it goes into the master stage (pass 1's float sum, before the bus compressor):
         * what the {@link #stems()} add up to, plus the original audio when it is background.
         */
        public Path sum() {
            return sum;
        }

        @Override
        public void close() {
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

    static WavReader open(Input in) {
        WavReader w = WavReader.open(in.wav(), in.field(), "the mixer");
        if (w.rateHz() != RATE) {
            String rate = in.wav().getFileName() + " is at " + w.rateHz() + " Hz; the mixer needs " + RATE + " Hz.";
            w.close();
            throw new UnsupportedMedia(in.field(), rate);
        }
        return w;
    }

    private static long frames(Input in) {
        try (WavReader w = open(in)) {
            return w.frames();
        }
    }

    /** The integrated loudness of the first {@code frames} of one recording (null when silent). */
    private static Double loudness(Input in, long frames) {
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        try (WavReader w = open(in)) {
            long n = Math.min(frames, w.frames());
            for (long pos = 0; pos < n; ) {
                int m = (int) Math.min(BLOCK, n - pos);
                w.readStereo(buf, m);
                meter.accept(buf, m);
                pos += m;
            }
        }
        return meter.finish().integratedLufs();
    }

    /** Where the produced version of {@code stem} goes: {@code produced/<group>.wav} beside it. */
    static Path producedPath(Stem stem) {
        return stem.wav()
                .toAbsolutePath()
                .getParent()
                .resolve("produced")
                .resolve(stem.group().wire() + ".wav");
    }

    /**
     * Pass 2: the bed to the target, bus compressor, ducking, plus the speech; returns the result's
     * measurement, its loudness and what the limiter will take from it.
     */
    private static LimiterForecast bus(
            Path in,
            List<Input> speech,
            DuckingEnvelope ducking,
            Path out,
            long frames,
            double gainDb,
            double thresholdDbfs,
            double ratio,
            DoubleConsumer progress) {
        BusCompressor compressor = new BusCompressor(thresholdDbfs, ratio, RATE);
        GainRamp gain = new GainRamp(dbToGain(gainDb), 0);
        LimiterForecast forecast = new LimiterForecast(RATE);
        float[][] buf = new float[2][BLOCK];
        float[][] read = new float[2][BLOCK];
        List<WavReader> voices = new ArrayList<>();
        List<GainRamp> voiceGains = new ArrayList<>();
        try (WavReader r = WavReader.open(in, "mix", "the mixer");
                WavWriter w = WavWriter.scratch(out, WavEncoding.FLOAT32, RATE, 2)) {
            for (Input s : speech) {
                voices.add(open(s));
                voiceGains.add(new GainRamp(dbToGain(s.gainDb()), s.pan()));
            }
            for (long pos = 0; pos < frames; ) {
                int n = (int) Math.min(BLOCK, frames - pos);
                r.readStereo(buf, n);
                gain.apply(buf, n);
                compressor.process(buf, n);
                ducking.apply(buf, pos, n);
                for (int s = 0; s < voices.size(); s++) {
                    voices.get(s).readStereo(read, n);
                    voiceGains.get(s).addTo(read, buf, n);
                }
                forecast.accept(buf, n);
                w.write(buf, n);
                pos += n;
                progress.accept(pos / (double) frames);
            }
            w.commit();
        } finally {
            for (WavReader v : voices) {
                v.close();
            }
        }
        LOG.log(
                System.Logger.Level.DEBUG,
                () -> String.format(
                        "bus compressor: threshold %.1f dBFS, mean reduction %.2f dB, max %.2f dB; %d ducked spans, %d speech sources",
                        thresholdDbfs,
                        compressor.meanReductionDb(),
                        compressor.maxReductionDb(),
                        ducking.spans(),
                        speech.size()));
        return forecast;
    }

    /**
     * Pass 3: gain, fade-out, limiter, 16-bit; the master's own measurement. Each block goes to the
     * {@code taps} too, as the file holds it; they are abandoned when the pass fails.
     */
    private static LoudnessMeter.Result finish(
            Path in, Path master, long frames, double gainDb, double ceilingDbtp, List<StereoPipe> taps) {
        try {
            return limit(in, master, frames, gainDb, ceilingDbtp, taps);
        } catch (RuntimeException e) {
            taps.forEach(StereoPipe::abandon);
            throw e;
        }
    }

    private static LoudnessMeter.Result limit(
            Path in, Path master, long frames, double gainDb, double ceilingDbtp, List<StereoPipe> taps) {
        TruePeakLimiter limiter = new TruePeakLimiter(ceilingDbtp, RATE);
        GainRamp gain = new GainRamp(dbToGain(gainDb), 0);
        LoudnessMeter meter = new LoudnessMeter(RATE, 2);
        float[][] buf = new float[2][BLOCK];
        float[][] out = new float[2][BLOCK];
        float[][] written16 = new float[2][BLOCK];
        int skip = TruePeakLimiter.LATENCY;
        long fed = 0;
        long written = 0;
        try (WavReader r = WavReader.open(in, "mix", "the mixer");
                WavWriter w = WavWriter.create(master, WavEncoding.PCM16, RATE, 2)) {
            while (written < frames) {
                int n;
                if (fed < frames) {
                    n = (int) Math.min(BLOCK, frames - fed);
                    r.readStereo(buf, n);
                    gain.apply(buf, n);
                    fadeOut(buf, n, fed, frames);
                } else {
                    // Flush the limiter's look-ahead with silence.
                    n = (int) Math.min(BLOCK, frames + TruePeakLimiter.LATENCY - fed);
                    Arrays.fill(buf[0], 0, n, 0f);
                    Arrays.fill(buf[1], 0, n, 0f);
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
                    w.write(out, m, taps.isEmpty() ? null : written16);
                    for (StereoPipe tap : taps) {
                        tap.write(written16, m);
                    }
                    written += m;
                }
            }
            w.commit();
        }
        LOG.log(
                System.Logger.Level.DEBUG,
                () -> String.format(
                        "limiter: gain %.2f dB in, deepest reduction %.2f dB", gainDb, limiter.maxReductionDb()));
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
