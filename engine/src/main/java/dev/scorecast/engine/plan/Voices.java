package dev.scorecast.engine.plan;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.Section.Instrument;
import dev.scorecast.engine.plan.Section.VoiceoverLine;
import dev.scorecast.engine.style.Arrangement;
import dev.scorecast.engine.style.Arrangement.GroupStyle;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.voice.singing.LyricWriter;
import dev.scorecast.engine.voice.singing.Lyrics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The planner's part for voices: which sections sing and what (lyrics written into the plan, so a
 * client can read and change them), and where a voiceover script is spoken (calm sections first,
 * one sentence after another, never overlapping).
 */
final class Voices {
    /** A sung line per this many bars. */
    static final int BARS_PER_LINE = 2;

    static final int MAX_LINES = 8;
    /** Silence left between two spoken sentences and at a section's start. */
    static final double GAP_SECONDS = 0.6;
    /** A sentence keeps this far from a struck accent, so no hit lands on its words. */
    static final double CLEAR_OF_HIT_SECONDS = 0.3;

    private Voices() {}

    /** Refuses {@code with_voiceover} without words, before any work, naming the two ways to give them. */
    static void requireScript(GenerationOptions options) {
        if (options.withVoiceover()
                && (options.voiceoverScript() == null
                        || options.voiceoverScript().isBlank())) {
            throw new InvalidParameter(
                    "voiceover_script",
                    "with_voiceover needs words to speak: send them as voiceover_script"
                            + " (sentences the planner spreads over the calm sections), or generate without with_voiceover and add"
                            + " sections[].voiceover lines ({\"text\", \"start\"}) to the plan before you execute it");
        }
    }

    /**
     * Gives lyrics to every section where the genre's vocals play at its intensity; when none
     * does (a calm video), the most intense section sings.
     */
    static List<Section> sing(List<Section> sections, Genre genre, Analysis.Mood mood, long seed) {
        String vocals = InstrumentGroup.VOCALS.wire();
        List<Section> singing = sections.stream()
                .filter(s -> s.instruments().get(vocals) != null)
                .toList();
        if (singing.isEmpty()) {
            singing = List.of(sections.stream()
                    .max(Comparator.comparingDouble(Section::intensity))
                    .orElseThrow());
        }
        List<Integer> lines = singing.stream()
                .map(s -> Math.clamp(s.bars() / BARS_PER_LINE, 1, MAX_LINES))
                .toList();
        List<Lyrics> song = LyricWriter.builtIn().writeSong(genre.id(), mood.valence(), mood.arousal(), lines, seed);
        GroupStyle style = genre.arrangement().groups().get(vocals);
        List<Section> out = new ArrayList<>(sections);
        for (int k = 0; k < singing.size(); k++) {
            Section s = singing.get(k);
            Map<String, Instrument> instruments = new LinkedHashMap<>(s.instruments());
            if (instruments.get(vocals) == null) {
                var sound = style == null
                        ? new Arrangement.Sound("voice", 53)
                        : style.palette().getFirst();
                instruments.put(
                        vocals,
                        new Instrument(
                                genre.id(),
                                sound.program(),
                                sound.name(),
                                style == null ? -5 : style.gainDb(),
                                style == null ? 0 : style.pan(),
                                genre.id() + "/" + vocals + "/" + Planner.level(s.intensity())));
            }
            out.set(s.index(), s.withVocals(instruments, song.get(k).text()));
        }
        return List.copyOf(out);
    }

    /**
     * Spreads the script's sentences over the video in order: each in the calmest-first run of
     * sections where it fits whole after the previous one (a sentence lasts its words at the
     * plan's speaking rate), else in any section after it.
     */
    static List<Section> speak(List<Section> sections, GenerationOptions options, double duration) {
        List<String> sentences = sentences(options.voiceoverScript());
        double wordsPerSecond = options.planOptions().voiceoverWordsPerMinute() / 60.0;
        double median = sections.stream()
                .mapToDouble(Section::intensity)
                .sorted()
                .skip(sections.size() / 2)
                .findFirst()
                .orElse(0.5);
        List<List<VoiceoverLine>> lines = new ArrayList<>();
        sections.forEach(s -> lines.add(new ArrayList<>()));
        double cursor = GAP_SECONDS;
        double needed = 0;
        for (String sentence : sentences) {
            double seconds = sentence.split("\\s+").length / wordsPerSecond + 0.3;
            needed += seconds + GAP_SECONDS;
            Slot placed = place(sections, cursor, seconds, s -> s.intensity() <= median);
            if (placed == null) {
                placed = place(sections, cursor, seconds, s -> true);
            }
            if (placed == null) {
                throw new Unprocessable(
                        "voiceover_script",
                        String.format(
                                Locale.ROOT,
                                "the script needs about %.0f s of speech at %d words per minute and does not fit the %.1f s video; shorten it"
                                        + " or raise voiceover_rate",
                                needed,
                                options.planOptions().voiceoverWordsPerMinute(),
                                duration));
            }
            double start = Math.round(placed.start() * 1000) / 1000.0;
            lines.get(placed.section()).add(new VoiceoverLine(sentence, start));
            cursor = start + seconds + GAP_SECONDS;
        }
        List<Section> out = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            out.add(lines.get(i).isEmpty() ? sections.get(i) : sections.get(i).withVoiceover(lines.get(i)));
        }
        return List.copyOf(out);
    }

    /** Where a sentence goes: its section and its start. */
    private record Slot(int section, double start) {}

    /**
     * The earliest slot in a section chosen by {@code chosen} where a sentence of {@code seconds}
     * fits whole after {@code cursor} without a struck accent under its words (it may start just
     * after one); null if none.
     */
    private static Slot place(List<Section> sections, double cursor, double seconds, Predicate<Section> chosen) {
        for (Section s : sections) {
            if (!chosen.test(s)) {
                continue;
            }
            List<Double> starts = new ArrayList<>();
            starts.add(Math.max(cursor, s.start() + GAP_SECONDS));
            s.accents().forEach(a -> starts.add(Math.max(cursor, a.time() + CLEAR_OF_HIT_SECONDS)));
            starts.sort(Double::compare);
            for (double start : starts) {
                boolean hitUnderWords = s.accents().stream()
                        .anyMatch(a -> !"swell".equals(a.kind())
                                && a.time() > start - CLEAR_OF_HIT_SECONDS
                                && a.time() < start + seconds + CLEAR_OF_HIT_SECONDS);
                if (start + seconds <= s.end() && !hitUnderWords) {
                    return new Slot(s.index(), start);
                }
            }
        }
        return null;
    }

    static List<String> sentences(String script) {
        List<String> out = new ArrayList<>();
        for (String sentence : script.strip().split("(?<=[.!?;])\\s+|\\n+")) {
            if (!sentence.isBlank()) {
                out.add(sentence.strip());
            }
        }
        return out;
    }
}
