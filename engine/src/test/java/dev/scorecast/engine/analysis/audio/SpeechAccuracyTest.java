package dev.scorecast.engine.analysis.audio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.AudioAnalysis;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.dsp.LoudnessVsFfmpegTest;
import dev.scorecast.engine.voice.speech.SileroSpeechDetector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Speech detection end to end ({@link AudioAnalyzer} with Silero VAD) on clips built with espeak-ng
 * and the ffmpeg CLI: utterances placed at known times in silence, over music-like tones and over
 * noise, and clips of music or noise alone. Writes the table of results to
 * {@code target/speech-accuracy.md} (the table in docs/ANALYSIS-ACCURACY.md comes from it).
 *
 * <p>Tagged slow (bin/test --all, CI): the accuracy table of docs/ANALYSIS-ACCURACY.md, measured on built
 * clips, 6 to 9 s; SileroSpeechDetectorTest and SpeechSpansTest stay in the fast tier.
 */
@Tag("slow")
class SpeechAccuracyTest {

    private static final double TOLERANCE_SECONDS = 0.3;
    private static final double CLIP_SECONDS = 14;

    @TempDir
    static Path dir;

    static SileroSpeechDetector detector;
    static AudioAnalyzer analyzer;
    static final List<String> rows = new ArrayList<>();

    record Utterance(String voice, String text, double at) {}

    record Clip(String category, String name, String background, List<Utterance> speech) {}

    static final String CHORD =
            "aevalsrc=0.05*(sin(2*PI*220*t)+sin(2*PI*277.2*t)+sin(2*PI*329.6*t)+0.5*sin(2*PI*440*t)):s=48000";
    static final String BEAT =
            "aevalsrc=0.25*sin(2*PI*55*t)*exp(-8*mod(t\\,0.5))+0.08*sin(2*PI*1760*t)*exp(-30*mod(t\\,0.25))"
                    + "+0.04*sin(2*PI*(330+55*mod(floor(t/0.4)\\,5))*t):s=48000";
    // Harmonic tones with vibrato, the nearest thing to a voice that is not one (a bowed or sung line).
    static final String VIBRATO =
            "aevalsrc=0.05*(sin(2*PI*196*t+0.8*sin(2*PI*5.5*t))+0.6*sin(4*PI*196*t+1.6*sin(2*PI*5.5*t))"
                    + "+0.4*sin(6*PI*196*t+2.4*sin(2*PI*5.5*t))+0.3*sin(8*PI*196*t+3.2*sin(2*PI*5.5*t))):s=48000";
    static final String PINK = "anoisesrc=color=pink:amplitude=0.1:seed=11:sample_rate=48000";
    static final String BROWN = "anoisesrc=color=brown:amplitude=0.3:seed=12:sample_rate=48000";
    static final String WHITE = "anoisesrc=color=white:amplitude=0.04:seed=13:sample_rate=48000";
    static final String LOUD_PINK = "anoisesrc=color=pink:amplitude=0.18:seed=14:sample_rate=48000";
    static final String SILENCE = "anullsrc=r=48000:cl=mono";

    static final List<Clip> CLIPS = List.of(
            new Clip(
                    "speech in silence",
                    "silence-1",
                    SILENCE,
                    List.of(
                            new Utterance("en", "The picture fades to black and the music swells", 1.0),
                            new Utterance("en-us+f3", "Cut to the harbour at dawn", 6.0),
                            new Utterance("de", "Der Hafen liegt still im Morgenlicht", 10.0))),
            new Clip(
                    "speech in silence",
                    "silence-2",
                    SILENCE,
                    List.of(
                            new Utterance("en-gb-scotland", "Every scene needs its own tempo", 2.5),
                            new Utterance("fr", "La musique suit le montage", 7.2))),
            new Clip(
                    "speech in silence",
                    "silence-3",
                    SILENCE,
                    List.of(
                            new Utterance("en+m3", "Quiet please", 0.6),
                            new Utterance("es", "La escena termina con una sonrisa", 4.0),
                            new Utterance("en-us", "And that is a wrap for today", 9.5))),
            new Clip(
                    "speech over music-like tones",
                    "chord",
                    CHORD,
                    List.of(
                            new Utterance("en", "The chord holds while the narrator speaks", 2.0),
                            new Utterance("en-us+f2", "Then the camera pans across the valley", 8.0))),
            new Clip(
                    "speech over music-like tones",
                    "beat",
                    BEAT,
                    List.of(
                            new Utterance("en-gb-x-rp", "A steady beat runs under the dialogue", 1.5),
                            new Utterance("de", "Die Trommel schlaegt im Takt", 7.5))),
            new Clip(
                    "speech over music-like tones",
                    "vibrato",
                    VIBRATO,
                    List.of(
                            new Utterance("en-us", "The strings come in softly", 3.0),
                            new Utterance("fr", "Et le violon chante encore", 9.0))),
            new Clip(
                    "speech over noise",
                    "pink",
                    PINK,
                    List.of(
                            new Utterance("en", "Rain is falling on the roof", 1.2),
                            new Utterance("en-us+f3", "The wind picks up near the shore", 7.0))),
            new Clip(
                    "speech over noise",
                    "brown",
                    BROWN,
                    List.of(
                            new Utterance("es", "El tren llega a la estacion", 2.0),
                            new Utterance("en-gb-scotland", "Traffic hums in the distance", 8.5))),
            new Clip(
                    "speech over noise",
                    "white",
                    WHITE,
                    List.of(
                            new Utterance("en-us", "Static crackles on the old radio", 3.0),
                            new Utterance("fr", "Le moteur tourne toujours", 9.0))),
            new Clip(
                    "speech over noise",
                    "loud pink",
                    LOUD_PINK,
                    List.of(
                            new Utterance("en", "A storm rolls over the hills", 2.0),
                            new Utterance("de", "Der Sturm zieht weiter", 8.0))),
            new Clip("music-like tones only", "chord only", CHORD, List.of()),
            new Clip("music-like tones only", "beat only", BEAT, List.of()),
            new Clip("music-like tones only", "vibrato only", VIBRATO, List.of()),
            new Clip(
                    "noise only",
                    "pink only",
                    "anoisesrc=color=pink:amplitude=0.3:seed=21:sample_rate=48000",
                    List.of()),
            new Clip(
                    "noise only",
                    "brown only",
                    "anoisesrc=color=brown:amplitude=0.5:seed=22:sample_rate=48000",
                    List.of()),
            new Clip(
                    "noise only",
                    "white only",
                    "anoisesrc=color=white:amplitude=0.1:seed=23:sample_rate=48000",
                    List.of()));

    @BeforeAll
    static void load() {
        detector = SileroSpeechDetector.load();
        analyzer = new AudioAnalyzer(detector);
    }

    @AfterAll
    static void report() throws IOException {
        detector.close();
        String table = table();
        System.out.println(table);
        Path out = Path.of("target", "speech-accuracy.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, table);
    }

    /** Per category: sums over its clips. */
    static final class Tally {
        int truths;
        int detected;
        int matched;
        double truthSeconds;
        double detectedSeconds;
        double overlapSeconds;
        double worstEdgeSeconds;
        double sumEdgeSeconds;
        int clips;
        final List<String> backgroundLu = new ArrayList<>();
    }

    static final Map<String, Tally> tallies = new LinkedHashMap<>();

    @Test
    void speechIsFoundWithinTolerance() {
        List<String> failures = new ArrayList<>();
        for (Clip clip : CLIPS) {
            Path wav = build(clip);
            List<Span> truth = truth(clip);
            AudioAnalysis analysis = analyzer.analyze(wav);
            List<Span> found = analysis.speech();
            Tally tally = tallies.computeIfAbsent(clip.category(), k -> new Tally());
            tally.clips++;
            tally.backgroundLu.add(backgroundLoudness(clip, analysis));
            score(tally, truth, found);
            boolean ok = found.size() == truth.size();
            for (int i = 0; ok && i < truth.size(); i++) {
                ok = Math.abs(found.get(i).start() - truth.get(i).start()) <= TOLERANCE_SECONDS
                        && Math.abs(found.get(i).end() - truth.get(i).end()) <= TOLERANCE_SECONDS;
            }
            System.out.printf(
                    Locale.ROOT,
                    "speech %-10s truth %s%n                  found %s%n",
                    clip.name(),
                    spans(truth),
                    spans(found));
            if (!ok) {
                failures.add(clip.name() + ": truth " + spans(truth) + ", found " + spans(found));
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    private static Path build(Clip clip) {
        List<String> args = new ArrayList<>();
        StringBuilder graph = new StringBuilder();
        int n = 0;
        for (Utterance u : clip.speech()) {
            Path spoken = spoken(u);
            args.addAll(List.of("-i", spoken.toString()));
            long ms = Math.round(u.at() * 1000);
            graph.append('[')
                    .append(n)
                    .append(":a]aresample=48000,adelay=")
                    .append(ms)
                    .append("[s")
                    .append(n)
                    .append("];");
            n++;
        }
        args.addAll(List.of("-f", "lavfi", "-t", Double.toString(CLIP_SECONDS), "-i", clip.background()));
        graph.append('[').append(n).append(":a]aresample=48000,aformat=channel_layouts=mono[bg];");
        for (int i = 0; i < n; i++) {
            graph.append("[s").append(i).append(']');
        }
        graph.append("[bg]amix=inputs=")
                .append(n + 1)
                .append(":normalize=0:duration=longest:dropout_transition=0[out]");
        args.addAll(List.of(
                "-filter_complex",
                graph.toString(),
                "-map",
                "[out]",
                "-t",
                Double.toString(CLIP_SECONDS),
                "-ar",
                "48000",
                "-ac",
                "2",
                "-c:a",
                "pcm_s16le"));
        return AudioFixtures.ffmpeg(dir.resolve(clip.name().replace(' ', '-') + ".wav"), args.toArray(String[]::new));
    }

    private static Path spoken(Utterance u) {
        Path wav = dir.resolve("say-" + Integer.toHexString((u.voice() + u.text()).hashCode()) + ".wav");
        return Files.exists(wav) ? wav : AudioFixtures.speak(wav, u.voice(), u.text());
    }

    private static List<Span> truth(Clip clip) {
        List<Span> truth = new ArrayList<>();
        for (Utterance u : clip.speech()) {
            Span audible = AudioFixtures.audibleExtent(spoken(u));
            truth.add(new Span(u.at() + audible.start(), u.at() + audible.end()));
        }
        return truth;
    }

    /** The background's loudness relative to the speech in the clip, for the table. */
    private static String backgroundLoudness(Clip clip, AudioAnalysis mix) {
        if (clip.background().equals(SILENCE)) {
            return "none";
        }
        Path bg = AudioFixtures.lavfi(
                dir.resolve("bg-" + clip.name().replace(' ', '-') + ".wav"), clip.background(), CLIP_SECONDS);
        Double background = LoudnessVsFfmpegTest.measure(bg).integratedLufs();
        if (clip.speech().isEmpty()) {
            return String.format(Locale.ROOT, "%.0f LUFS", background);
        }
        // The speech alone, from the silent build of the same utterances.
        Path speech = build(new Clip(clip.category(), clip.name() + " speech", SILENCE, clip.speech()));
        Double voice = LoudnessVsFfmpegTest.measure(speech).integratedLufs();
        return String.format(Locale.ROOT, "%+.0f LU", background - voice);
    }

    private static void score(Tally t, List<Span> truth, List<Span> found) {
        t.truths += truth.size();
        t.detected += found.size();
        for (Span s : truth) {
            t.truthSeconds += s.length();
            for (Span f : found) {
                t.overlapSeconds += Math.max(0, Math.min(s.end(), f.end()) - Math.max(s.start(), f.start()));
            }
            Span match = found.stream()
                    .filter(f -> Math.abs(f.start() - s.start()) <= TOLERANCE_SECONDS
                            && Math.abs(f.end() - s.end()) <= TOLERANCE_SECONDS)
                    .findFirst()
                    .orElse(null);
            if (match != null) {
                t.matched++;
                double edge = Math.max(Math.abs(match.start() - s.start()), Math.abs(match.end() - s.end()));
                t.worstEdgeSeconds = Math.max(t.worstEdgeSeconds, edge);
                t.sumEdgeSeconds += Math.abs(match.start() - s.start()) + Math.abs(match.end() - s.end());
            }
        }
        for (Span f : found) {
            t.detectedSeconds += f.length();
        }
    }

    private static String table() {
        StringBuilder b = new StringBuilder();
        b.append("| category | clips | background vs speech | utterances | spans found | span precision | span recall "
                + "| time precision | time recall | mean edge error | worst edge error |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        tallies.forEach((category, t) -> b.append(String.format(
                Locale.ROOT,
                "| %s | %d | %s | %d | %d | %s | %s | %s | %s | %s | %s |%n",
                category,
                t.clips,
                String.join(", ", t.backgroundLu),
                t.truths,
                t.detected,
                ratio(t.matched, t.detected),
                ratio(t.matched, t.truths),
                ratio(t.overlapSeconds, t.detectedSeconds),
                ratio(t.overlapSeconds, t.truthSeconds),
                t.matched == 0 ? "-" : String.format(Locale.ROOT, "%.2f s", t.sumEdgeSeconds / (2 * t.matched)),
                t.matched == 0 ? "-" : String.format(Locale.ROOT, "%.2f s", t.worstEdgeSeconds))));
        return b.toString();
    }

    private static String ratio(double part, double whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.2f", part / whole);
    }

    private static String spans(List<Span> spans) {
        return spans.stream()
                .map(s -> String.format(Locale.ROOT, "%.2f-%.2f", s.start(), s.end()))
                .toList()
                .toString();
    }

    @Test
    void silenceHasNoLoudnessAndNoSpeech() {
        Path wav = AudioFixtures.lavfi(dir.resolve("silence.wav"), SILENCE, 5);
        AudioAnalysis a = analyzer.analyze(wav);
        assertEquals(null, a.integratedLufs());
        assertEquals(List.of(), a.speech());
    }
}
