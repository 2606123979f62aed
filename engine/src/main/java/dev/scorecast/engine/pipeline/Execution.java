package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.conform.ConformedScore;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.io.Directories;
import dev.scorecast.engine.io.DiskSync;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.io.WavReader;
import dev.scorecast.engine.music.MidiWriter;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import dev.scorecast.engine.render.Ducking;
import dev.scorecast.engine.render.MixSettings;
import dev.scorecast.engine.render.Mixer;
import dev.scorecast.engine.render.Renderer;
import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.Stem;
import dev.scorecast.engine.style.ProductionCatalog;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import dev.scorecast.engine.voice.singing.Singer;
import dev.scorecast.engine.voice.speaking.EspeakNarrator;
import dev.scorecast.engine.voice.speaking.Narrator;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Executes a plan: compose, render each group to a stem, mix and master, mux into the video, and
 * write every output of DESIGN.md §9 into one directory. The server's execution job and
 * {@code scorecast score} both run exactly this. Each stage reports when it starts, so a client
 * polling the job sees where it is, and its time is kept for the results.
 */
public final class Execution {

    /** Level of the video's own sound under the music when the plan keeps it. */
    static final double ORIGINAL_AUDIO_GAIN_DB = -6;

    /** Passes 1 and 2 of the mix in the master stage's time; pass 3 with the encoders beside it is the rest. */
    private static final double MIXDOWN_SHARE = 0.45;

    /** The output files' names inside the output directory; links are made from these. */
    public static final String VIDEO = "video.mp4";

    public static final String MASTER_WAV = "audio.wav";
    public static final String MASTER_MP3 = "audio.mp3";
    public static final String STEMS_ZIP = "stems.zip";
    private static final int ZIP_BUFFER_BYTES = 1 << 20;
    public static final String MIDI = "score.mid";
    public static final String PLAN = "plan.json";
    public static final String ANALYSIS = "analysis.json";
    public static final String RESULTS = "results.json";
    /** The editor's timeline (Final Cut Pro, DaVinci Resolve), the same as OpenTimelineIO, and the cue sheet (docs/EDITING.md). */
    public static final String FCPXML = Interchange.FCPXML;

    public static final String OTIO = Interchange.OTIO;
    public static final String CUE_SHEET_CSV = Interchange.CUE_SHEET_CSV;
    public static final String CUE_SHEET_JSON = Interchange.CUE_SHEET_JSON;
    /** The voiceover alone, in stems.zip beside the groups. */
    static final String VOICEOVER_WAV = "voiceover.wav";

    /** Side outputs of executions running at once; daemon threads, so an idle pool never holds the JVM. */
    private static final ExecutorService OUTPUT_THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scorecast-outputs");
        t.setDaemon(true);
        return t;
    });

    private final SoundBank bank;
    private final Voicing voicing;

    /** An execution that sings and speaks with espeak-ng. */
    public Execution(SoundBank bank) {
        this(bank, EspeakSinger.create(), EspeakNarrator.create());
    }

    public Execution(SoundBank bank, Singer singer, Narrator narrator) {
        this.bank = Objects.requireNonNull(bank, "bank");
        this.voicing =
                new Voicing(Objects.requireNonNull(singer, "singer"), Objects.requireNonNull(narrator, "narrator"));
    }

    /**
     * What to score: the video, its extracted sound (when it has one), its analysis and a validated
     * plan; {@code title} names the production in the editor's timeline and the cue sheet (the
     * client's file name without its extension; null: "Scorecast").
     */
    public record Inputs(Path video, Optional<Path> originalAudioWav, Analysis analysis, Plan plan, String title) {
        public Inputs {
            title = title == null || title.isBlank() ? "Scorecast" : title;
        }

        /** Inputs titled "Scorecast". */
        public Inputs(Path video, Optional<Path> originalAudioWav, Analysis analysis, Plan plan) {
            this(video, originalAudioWav, analysis, plan, null);
        }
    }

    /** Told the stage that starts and the overall fraction done. */
    @FunctionalInterface
    public interface Progress {
        void at(Stage stage, double fraction);
    }

    /**
     * The stages in order, with the share of the time each usually takes (the benchmark minute,
     * 2026-11-26: render 0.6-0.8 s, master with the encoders beside it 2.7-3.2 s, what is left of
     * the encoders 0.3 s, outputs 0.15 s).
     */
    public enum Stage {
        COMPOSE(0.02),
        RENDER(0.17),
        VOICES(0.03),
        MASTER(0.66),
        MUX(0.08),
        OUTPUTS(0.04);

        final double share;

        Stage(double share) {
            this.share = share;
        }

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Runs the plan and leaves the outputs in {@code outDir} (created if missing). Writes
     * results.json with {@code links} (output name to URL or path) added.
     */
    public Results run(Inputs in, Path outDir, Map<String, String> links, Progress progress) {
        Timer timer = new Timer(progress);
        try {
            Files.createDirectories(outDir);
            Path work = Files.createDirectories(outDir.resolve(".work"));

            timer.start(Stage.COMPOSE);
            Plan plan = in.plan();
            // The voiceover is spoken first: where it speaks is where the melody and the singer rest.
            // Progress after every line spoken, and around the composer: where the caller checks its deadline.
            Voicing.Voiceover voiceover =
                    voicing.speak(plan, work.resolve(VOICEOVER_WAV), f -> timer.within(Stage.COMPOSE, 0.8 * f));
            List<Span> speech = Voicing.speech(plan, in.analysis(), voiceover);
            timer.within(Stage.COMPOSE, 0.8);
            // A conformed plan (issue 27) plays its kept sections from the earlier cut's own score.
            Score score = ConformedScore.compose(plan, speech);
            timer.within(Stage.COMPOSE, 1);

            timer.start(Stage.RENDER);
            List<Stem> stems = new ArrayList<>(new Renderer(bank)
                    .render(score.instrumental(), work.resolve("stems"), f -> timer.within(Stage.RENDER, f)));

            timer.start(Stage.VOICES);
            Optional<Voicing.Sung> sung = voicing.sing(
                    score,
                    work.resolve("stems").resolve(InstrumentGroup.VOCALS.wire() + ".wav"),
                    f -> timer.within(Stage.VOICES, f));
            sung.ifPresent(v -> stems.add(v.stem()));

            // The stems zip runs beside the master and the encoders once the stems are produced
            // (pass 1 of the mix); the encoders beside the master's last pass (MasterDelivery); the
            // sync check beside the encoders' last blocks and their check of what they wrote.
            boolean zipStems = plan.options().multitrack();
            var stemsZip = new AtomicReference<CompletableFuture<Void>>(CompletableFuture.completedFuture(null));
            var syncCheck = new AtomicReference<CompletableFuture<List<SyncCheck.Point>>>();
            List<Score.Accent> measurable = score.accents().stream()
                    .filter(a -> a.time() < score.duration() - SyncCheck.SEARCH_SECONDS)
                    .toList();
            // The editor's markers are measured in the same pass, after the planned accents (docs/EDITING.md).
            List<Score.Accent> checked = new ArrayList<>(measurable);
            checked.addAll(EditorMarks.accents(plan));
            double fps = in.analysis().video().fps();
            Path master = outDir.resolve(MASTER_WAV);
            MasterDelivery.Delivered delivered;
            try {
                timer.start(Stage.MASTER);
                var settings = mixSettings(plan, in.originalAudioWav(), voiceover.track(), speech)
                        .withProduction(
                                ProductionCatalog.builtIn().forGenre(plan.genre()), productionTempo(plan, score))
                        .withCeiling(MasterDelivery.CEILING_DBTP);
                // The mix's first two passes are about half the stage; the last, with the encoders, the rest.
                try (Mixer.Mixdown mix = Mixer.mixdown(
                        stems, settings, master, f -> timer.within(Stage.MASTER, MIXDOWN_SHARE * f), produced -> {
                            if (zipStems) {
                                stemsZip.set(CompletableFuture.runAsync(
                                        () -> {
                                            Path zip = outDir.resolve(STEMS_ZIP);
                                            zip(produced, voiceover.track(), zip);
                                            // Synced now, while the encoders run, not when it is published (DiskSync).
                                            DiskSync.file(zip);
                                        },
                                        OUTPUT_THREADS));
                            }
                        })) {
                    delivered = new MasterDelivery(
                                    in.video(),
                                    master,
                                    outDir.resolve(VIDEO),
                                    outDir.resolve(MASTER_MP3),
                                    OUTPUT_THREADS)
                            .run(mix, () -> {
                                timer.start(Stage.MUX);
                                // Accents are timing: a master encoded again lower (MasterDelivery) keeps them where
                                // they
                                // are.
                                syncCheck.set(CompletableFuture.supplyAsync(
                                        () -> SyncCheck.measure(master, stems, checked, fps), OUTPUT_THREADS));
                            });
                }
            } catch (RuntimeException e) {
                // The side work reads the work directory, which goes when this fails: let it end first.
                stemsZip.get().exceptionally(ignored -> null).join();
                Optional.ofNullable(syncCheck.get())
                        .ifPresent(s -> s.exceptionally(ignored -> null).join());
                throw e;
            }
            timer.start(Stage.OUTPUTS);
            joinAll(stemsZip.get(), syncCheck.get().thenAccept(points -> {}));
            Map<String, String> files = new LinkedHashMap<>();
            files.put("video", VIDEO);
            files.put("audio_wav", MASTER_WAV);
            files.put("audio_mp3", MASTER_MP3);
            if (zipStems) {
                files.put("stems", STEMS_ZIP);
            }
            MidiWriter.write(score, outDir.resolve(MIDI));
            files.put("midi", MIDI);
            Files.writeString(outDir.resolve(PLAN), PlanJson.write(plan));
            files.put("plan", PLAN);
            Files.write(outDir.resolve(ANALYSIS), Json.indented().writeValueAsBytes(in.analysis()));
            files.put("analysis", ANALYSIS);
            files.put("results", RESULTS);
            List<SyncCheck.Point> measured = syncCheck.get().join();
            List<SyncCheck.Point> sync = measured.subList(0, measurable.size());
            List<SyncCheck.Point> marks = measured.subList(measurable.size(), measured.size());
            Provenance provenance = Provenance.of(plan, score, bank.file());
            var produced = new Interchange.Produced(
                    zipStems ? stems.stream().map(s -> s.group().wire()).toList() : List.of(),
                    zipStems && voiceover.track().isPresent(),
                    frames(master),
                    Renderer.RATE);
            files.putAll(Interchange.write(
                    outDir, in.title(), plan, score, in.analysis(), produced, sync, marks, provenance));
            Directories.deleteTree(work);
            Results.Vocals vocals = sung.map(v -> new Results.Vocals(
                            score.vocal().size(),
                            v.pitch().voicedFrames(),
                            v.pitch().withinFiftyCents(),
                            v.pitch().accuracy()))
                    .orElse(null);
            Results results = Results.of(
                    plan,
                    score,
                    delivered,
                    sync,
                    files,
                    links,
                    timer.seconds(),
                    1 / fps,
                    new Results.Voices(vocals, voiceover.spans()),
                    provenance,
                    marks);
            Files.write(outDir.resolve(RESULTS), Json.indented().writeValueAsBytes(results));
            progress.at(Stage.OUTPUTS, 1);
            return results;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The plan's loudness; the video's own sound as dialogue ({@code original_audio_voiceover}) or
     * under the music ({@code original_audio}); the voiceover; and the music ducking under all
     * speech unless the plan turns ducking off.
     */
    static MixSettings mixSettings(
            Plan plan, Optional<Path> originalAudio, Optional<Path> voiceover, List<Span> speech) {
        var settings = new MixSettings(
                Map.of(), Map.of(), plan.master().targetLufs(), plan.master().gainDb(), Optional.empty(), 0);
        if (originalAudio.isPresent() && plan.options().originalAudioVoiceover()) {
            settings = settings.withOriginalAudio(originalAudio.get(), MixSettings.OriginalAudioRole.DIALOGUE, 0);
        } else if (originalAudio.isPresent() && plan.options().originalAudio()) {
            settings = settings.withOriginalAudio(
                    originalAudio.get(), MixSettings.OriginalAudioRole.BACKGROUND, ORIGINAL_AUDIO_GAIN_DB);
        }
        if (voiceover.isPresent()) {
            settings = settings.withVoiceover(voiceover.get(), 0);
        }
        if (plan.options().ducking() && !speech.isEmpty()) {
            settings = settings.withDucking(Ducking.under(speech));
        }
        return settings;
    }

    private static long frames(Path wav) {
        try (var reader = WavReader.open(wav, "audio", "the editor's timeline")) {
            return reader.frames();
        }
    }

    /** Waits for every piece of side work; the first failure is this execution's failure, as if it had run here. */
    @SafeVarargs
    private static void joinAll(CompletableFuture<Void>... work) {
        RuntimeException first = null;
        for (CompletableFuture<Void> w : work) {
            try {
                w.join();
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (first == null) {
                    first = cause;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void zip(List<Stem> stems, Optional<Path> voiceover, Path out) {
        try {
            zipTo(stems, voiceover, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out, e);
        }
    }

    private static void zipTo(List<Stem> stems, Optional<Path> voiceover, Path out) throws IOException {
        // Buffered in large writes: the zip stream writes each copied chunk through as it comes.
        try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(out), ZIP_BUFFER_BYTES);
                ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Stem stem : stems) {
                store(zip, stem.group().wire() + ".wav", stem.wav());
            }
            if (voiceover.isPresent()) {
                store(zip, VOICEOVER_WAV, voiceover.get());
            }
        }
    }

    /**
     * WAV barely compresses, so the entries are stored. Stored rather than deflated at level 0:
     * zlib still runs every byte through its window (a minute's seven float stems, 161 MB: 0.65
     * CPU-s deflated at level 0, 0.2 stored, CRC pass included), CPU the encoders beside it want.
     */
    private static void store(ZipOutputStream zip, String name, Path wav) throws IOException {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[ZIP_BUFFER_BYTES];
        try (var in = Files.newInputStream(wav)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                crc.update(buf, 0, n);
            }
        }
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(Files.size(wav));
        entry.setCompressedSize(Files.size(wav));
        entry.setCrc(crc.getValue());
        zip.putNextEntry(entry);
        try (var in = Files.newInputStream(wav)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                zip.write(buf, 0, n);
            }
        }
        zip.closeEntry();
    }

    /** Keeps each stage's wall time and turns a stage's own progress into the overall fraction. */
    private static final class Timer {
        private final Progress progress;
        private final Map<String, Double> seconds = new LinkedHashMap<>();
        private Stage current;
        private long startedNanos;

        Timer(Progress progress) {
            this.progress = progress;
        }

        void start(Stage stage) {
            stop();
            current = stage;
            startedNanos = Ticker.SYSTEM.nanos();
            progress.at(stage, before(stage));
        }

        void within(Stage stage, double fraction) {
            progress.at(stage, before(stage) + stage.share * Math.max(0, Math.min(1, fraction)));
        }

        Map<String, Double> seconds() {
            stop();
            return Map.copyOf(seconds);
        }

        private void stop() {
            if (current != null) {
                seconds.put(current.wire(), Math.round((Ticker.SYSTEM.nanos() - startedNanos) / 1e6) / 1000.0);
                current = null;
            }
        }

        private static double before(Stage stage) {
            double sum = 0;
            for (Stage s : Stage.values()) {
                if (s == stage) {
                    break;
                }
                sum += s.share;
            }
            return sum;
        }
    }

    /** Unused groups are listed so a client sees the plan's whole shape. */
    static List<String> groups(Score score) {
        List<String> names = new ArrayList<>();
        // A group may play several parts (a conform's held-over notes have one of their own): named once.
        score.parts().stream().map(p -> p.group().wire()).distinct().forEach(names::add);
        for (InstrumentGroup g : InstrumentGroup.values()) {
            if (!names.contains(g.wire())) {
                names.add(g.wire() + " (silent)");
            }
        }
        return names;
    }

    /**
     * The tempo the genre's production chain times its echoes to: the first section's, and for a
     * conformed plan the first cut's, so a kept span echoes as it did (issue 27).
     */
    static double productionTempo(Plan plan, Score score) {
        Plan first = plan;
        while (first.source() != null) {
            first = first.source();
        }
        return first == plan || first.sections().isEmpty()
                ? score.tempoMap().getFirst().bpm()
                : first.sections().getFirst().tempo();
    }
}
