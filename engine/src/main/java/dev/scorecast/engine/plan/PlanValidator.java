package dev.scorecast.engine.plan;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.ScorecastException.FieldProblem;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.plan.Section.Hit;
import dev.scorecast.engine.plan.Section.Instrument;
import dev.scorecast.engine.style.ChordSymbol;
import dev.scorecast.engine.style.Genre;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.style.Keys;
import dev.scorecast.engine.voice.speaking.NarratorSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a plan (the planner's or a client's edit) field by field against the video it scores and
 * reports every problem at once, each with its path ({@code sections[2].tempo}) and how to fix it.
 * A valid plan comes back with its sections numbered in order and each residual recomputed from
 * its tempo, meter and bars, so that stale numbers in an edited plan cannot mislead the composer.
 */
public final class PlanValidator {
    /** One video frame at 20 fps: how far section edges may miss the video's end or each other. */
    public static final double FRAME_TOLERANCE_SECONDS = 0.05;
    /** How far the bars at the tempo may miss the section's length. */
    public static final double BAR_TOLERANCE_SECONDS = 0.1;

    static final Set<String> METERS = Set.of("4/4", "3/4", "6/8");
    static final Set<String> MODES = Set.of("major", "minor", "dorian", "mixolydian");
    static final Set<String> LABELS = Set.of("intro", "build", "peak", "breakdown", "outro");
    static final Set<String> HIT_KINDS = Set.of("impact", "crash", "drop", "swell", "cadence");
    /** Caps that bound the composer's work whatever a client sends (a generated plan is far inside them). */
    public static final int MAX_SECTIONS = 1000;

    public static final int MAX_HITS_PER_SECTION = 256;
    public static final int MAX_VOICEOVER_LINES_PER_SECTION = 256;
    public static final int MAX_CHORDS = 64;
    public static final int MAX_LYRICS_CHARS = 10_000;
    public static final int MAX_TEXT_CHARS = 2_000;
    /** The longest plan a live stream takes: it loops, so an hour is plenty, and it bounds bars at 4,800. */
    public static final double MAX_LIVE_SECONDS = 3600;

    private static final Pattern PATTERN_ID = Pattern.compile("^([a-z0-9-]+)/([a-z]+)/([0-3])$");

    private PlanValidator() {}

    /**
     * A plan for a live stream, which names its own duration: that duration must be a number of
     * seconds up to {@link #MAX_LIVE_SECONDS}, and the plan is then checked against it as a video's.
     */
    public static Plan validateLive(Plan plan, GenreCatalog genres) {
        if (plan == null) {
            throw new InvalidParameter(
                    "plan",
                    "the plan is missing; send the plan object returned by current_experience, edited as you like");
        }
        if (!(plan.duration() > 0 && plan.duration() <= MAX_LIVE_SECONDS)) {
            throw new InvalidParameter(
                    "duration",
                    "duration must be the plan's length in seconds, above 0 and at most " + (long) MAX_LIVE_SECONDS
                            + " (the stream loops it), not " + num(plan.duration()));
        }
        return validate(plan, plan.duration(), genres);
    }

    public static Plan validate(Plan plan, double videoDurationSeconds, GenreCatalog genres) {
        List<FieldProblem> problems = new ArrayList<>();
        if (plan == null) {
            throw new InvalidParameter(
                    "plan", "the plan is missing; send the plan object returned by generate, edited as you like");
        }
        if (plan.sections().size() > MAX_SECTIONS) {
            throw new InvalidParameter(
                    "sections",
                    "sections holds " + plan.sections().size() + " sections; at most " + MAX_SECTIONS
                            + " are accepted");
        }
        if (plan.version() != Plan.VERSION) {
            problems.add(new FieldProblem("version", "version must be " + Plan.VERSION + ", not " + plan.version()));
        }
        String genreIds = String.join(", ", genres.all().stream().map(Genre::id).toList());
        if (plan.genre() == null || genres.find(plan.genre()).isEmpty()) {
            problems.add(new FieldProblem("genre", "genre " + quote(plan.genre()) + " is not one of " + genreIds));
        }
        if (Math.abs(plan.duration() - videoDurationSeconds) > FRAME_TOLERANCE_SECONDS) {
            problems.add(new FieldProblem(
                    "duration",
                    "duration must be the video's length, " + videoDurationSeconds + " s, not " + plan.duration()));
        }
        Plan.Master master = plan.master() == null ? Plan.Master.DEFAULT : plan.master();
        if (!(master.targetLufs() >= -30 && master.targetLufs() <= -6)) {
            problems.add(new FieldProblem(
                    "master.target_lufs",
                    "target_lufs must be -30 to -6 LUFS, not " + num(master.targetLufs())
                            + " (-14 suits most platforms)"));
        }
        if (!(master.gainDb() >= -60 && master.gainDb() <= 12)) {
            problems.add(
                    new FieldProblem("master.gain_db", "gain_db must be -60 to 12 dB, not " + num(master.gainDb())));
        }
        EditorMarker.check(plan.markers(), videoDurationSeconds, problems);
        if (plan.options() != null) {
            try {
                new NarratorSettings(
                        plan.options().voiceoverVoice(), plan.options().voiceoverWordsPerMinute(), 50);
            } catch (InvalidParameter e) {
                problems.add(new FieldProblem(
                        e.field().equals("voice") ? "options.voiceover_voice" : "options.voiceover_words_per_minute",
                        e.getMessage()));
            }
        }
        List<Section> sections = plan.sections();
        if (sections.isEmpty()) {
            problems.add(new FieldProblem(
                    "sections",
                    "sections must hold at least one section covering the video from 0 to " + videoDurationSeconds
                            + " s"));
        }
        for (int i = 0; i < sections.size(); i++) {
            Section previous = i > 0 ? sections.get(i - 1) : null;
            section(
                    sections.get(i),
                    "sections[" + i + "]",
                    i,
                    previous,
                    i == sections.size() - 1,
                    videoDurationSeconds,
                    genres,
                    genreIds,
                    problems);
        }
        for (int i = 0; plan.source() == null && i < sections.size(); i++) {
            if (sections.get(i).origin() != null) {
                problems.add(
                        new FieldProblem(
                                "sections[" + i + "].origin",
                                "the section has an origin but the plan has no source;"
                                        + " send the plan /sync/conform answered whole, or remove the origin to compose the section afresh"));
            }
        }
        TextBudget.check(plan, videoDurationSeconds, problems);
        Plan source = plan.source() == null ? null : source(plan, genres, problems);
        if (!problems.isEmpty()) {
            throw InvalidParameter.of(problems);
        }
        List<Section> normalised = new ArrayList<>(sections.size());
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            double residual = Math.round((s.durationSeconds() - s.barsSeconds()) * 1e6) / 1e6;
            normalised.add(s.withIndexAndResidual(i, residual));
        }
        return new Plan(
                plan.version(),
                plan.id(),
                plan.seed(),
                plan.genre(),
                plan.duration(),
                plan.options() == null ? PlanOptions.DEFAULT : plan.options(),
                master,
                normalised,
                plan.markers(),
                source);
    }

    /** How many earlier cuts a conformed plan may reach back through (each conform nests the plan before). */
    static final int MAX_SOURCE_DEPTH = 8;

    /**
     * A conformed plan's {@code source} (issue 27): itself a valid plan, not nested past
     * {@link #MAX_SOURCE_DEPTH}, and every section's origin inside it. Answers the source normalised.
     */
    private static Plan source(Plan plan, GenreCatalog genres, List<FieldProblem> problems) {
        int depth = 0;
        for (Plan p = plan.source(); p != null; p = p.source()) {
            if (++depth > MAX_SOURCE_DEPTH) {
                problems.add(new FieldProblem(
                        "source",
                        "source nests " + depth + " earlier plans; at most " + MAX_SOURCE_DEPTH
                                + " are kept: generate a fresh plan for this cut"));
                return null;
            }
        }
        Plan source;
        try {
            source = validate(plan.source(), plan.source().duration(), genres);
        } catch (InvalidParameter e) {
            for (FieldProblem p : e.problems()) {
                problems.add(new FieldProblem("source." + p.field(), p.message()));
            }
            return null;
        }
        for (int i = 0; i < plan.sections().size(); i++) {
            Section.Origin origin = plan.sections().get(i).origin();
            if (origin == null) {
                continue;
            }
            double length = plan.sections().get(i).durationSeconds();
            if (!(origin.sourceStart() >= 0
                    && origin.sourceStart() + length <= source.duration() + FRAME_TOLERANCE_SECONDS)) {
                problems.add(
                        new FieldProblem(
                                "sections[" + i + "].origin.source_start",
                                "source_start " + num(origin.sourceStart())
                                        + " with the section's " + num(round3(length))
                                        + " s lies outside the source plan (0 to " + num(source.duration())
                                        + " s); keep the origin /sync/conform wrote, or remove it to compose the section afresh"));
            }
        }
        return source;
    }

    private static void section(
            Section s,
            String at,
            int i,
            Section previous,
            boolean last,
            double videoEnd,
            GenreCatalog genres,
            String genreIds,
            List<FieldProblem> problems) {
        boolean timesOk = true;
        if (!Double.isFinite(s.start()) || s.start() < -FRAME_TOLERANCE_SECONDS) {
            problems.add(
                    new FieldProblem(at + ".start", "start must be a time in seconds from 0, not " + num(s.start())));
            timesOk = false;
        } else if (i == 0 && Math.abs(s.start()) > FRAME_TOLERANCE_SECONDS) {
            problems.add(new FieldProblem(
                    at + ".start",
                    "the first section must start at 0, not " + num(s.start()) + "; the music covers the whole video"));
        } else if (previous != null && Double.isFinite(previous.end())) {
            if (s.start() < previous.end() - FRAME_TOLERANCE_SECONDS) {
                problems.add(new FieldProblem(
                        at + ".start",
                        "start " + num(s.start()) + " overlaps sections[" + (i - 1) + "], which ends at "
                                + num(previous.end())
                                + "; sections must be in time order, each starting where the one before ends"));
            } else if (s.start() > previous.end() + FRAME_TOLERANCE_SECONDS) {
                problems.add(new FieldProblem(
                        at + ".start",
                        "start " + num(s.start()) + " leaves a gap after sections[" + (i - 1) + "], which ends at "
                                + num(previous.end()) + "; start it at " + num(previous.end())));
            }
        }
        if (!Double.isFinite(s.end()) || !(s.end() > s.start())) {
            problems.add(new FieldProblem(
                    at + ".end", "end must be after start (" + num(s.start()) + "), not " + num(s.end())));
            timesOk = false;
        } else if (s.end() > videoEnd + FRAME_TOLERANCE_SECONDS) {
            problems.add(new FieldProblem(
                    at + ".end",
                    "end " + num(s.end()) + " is past the end of the video at " + num(videoEnd)
                            + " s; end the last section there"));
            timesOk = false;
        } else if (last && s.end() < videoEnd - FRAME_TOLERANCE_SECONDS) {
            problems.add(new FieldProblem(
                    at + ".end",
                    "the last section must end at the video's end, " + num(videoEnd) + " s, not " + num(s.end())
                            + "; extend it or add a section"));
        }
        boolean tempoOk = s.tempo() >= 40 && s.tempo() <= 240;
        if (!tempoOk) {
            problems.add(
                    new FieldProblem(at + ".tempo", "tempo must be 40 to 240 beats per minute, not " + num(s.tempo())));
        }
        boolean meterOk = s.meter() != null && METERS.contains(s.meter());
        if (!meterOk) {
            problems.add(
                    new FieldProblem(at + ".meter", "meter must be one of 4/4, 3/4, 6/8, not " + quote(s.meter())));
        }
        if (s.bars() < 1) {
            problems.add(new FieldProblem(at + ".bars", "bars must be at least 1, not " + s.bars()));
        } else if (timesOk && tempoOk && meterOk && s.origin() == null) {
            // A section with an origin plays the source's bars where they fall (Section.Origin).
            double miss = s.durationSeconds() - s.barsSeconds();
            if (Math.abs(miss) > BAR_TOLERANCE_SECONDS) {
                double fitting = s.bars() * s.beatsPerBar() * 60.0 / s.durationSeconds();
                problems.add(new FieldProblem(
                        at + ".bars",
                        s.bars() + " bars of " + s.meter() + " at " + num(s.tempo()) + " bpm last "
                                + num(round3(s.barsSeconds())) + " s but the section lasts "
                                + num(round3(s.durationSeconds())) + " s (residual "
                                + num(round3(miss)) + " s, at most " + BAR_TOLERANCE_SECONDS
                                + " allowed); set tempo to " + num(round3(fitting))
                                + " or change bars, start or end"));
            }
        }
        if (Keys.pitchClass(s.key()) < 0) {
            problems.add(new FieldProblem(
                    at + ".key", "key must be one of " + String.join(" ", Keys.NAMES) + ", not " + quote(s.key())));
        }
        if (s.mode() == null || !MODES.contains(s.mode())) {
            problems.add(new FieldProblem(
                    at + ".mode", "mode must be major, minor, dorian or mixolydian, not " + quote(s.mode())));
        }
        if (s.label() == null || !LABELS.contains(s.label())) {
            problems.add(new FieldProblem(
                    at + ".label", "label must be intro, build, peak, breakdown or outro, not " + quote(s.label())));
        }
        if (!(s.intensity() >= 0 && s.intensity() <= 1)) {
            problems.add(new FieldProblem(at + ".intensity", "intensity must be 0 to 1, not " + num(s.intensity())));
        }
        if (s.progression().isEmpty()) {
            problems.add(new FieldProblem(
                    at + ".progression",
                    "progression must hold at least one chord, e.g. [\"i\", \"VI\", \"III\", \"VII\"]"));
        }
        for (int c = 0; c < s.progression().size(); c++) {
            String chord = s.progression().get(c);
            if (!ChordSymbol.isValid(chord)) {
                problems.add(new FieldProblem(
                        at + ".progression[" + c + "]",
                        "chord " + quote(chord) + " is not a chord symbol: write a Roman"
                                + " numeral of the mode's degree (upper case major, lower case minor), optionally b or # before it, dim or aug and"
                                + " 7, maj7, sus2, sus4 or add9 after it, e.g. I, vi, bVII, IVmaj7, viidim"));
            }
        }
        if (s.progression().size() > MAX_CHORDS) {
            problems.add(new FieldProblem(
                    at + ".progression",
                    "progression holds " + s.progression().size() + " chords; at most " + MAX_CHORDS
                            + " are accepted"));
            return;
        }
        if (s.accents().size() > MAX_HITS_PER_SECTION) {
            problems.add(new FieldProblem(
                    at + ".accents",
                    "accents holds " + s.accents().size() + " hits; at most " + MAX_HITS_PER_SECTION
                            + " per section are accepted"));
            return;
        }
        if (s.voiceover().size() > MAX_VOICEOVER_LINES_PER_SECTION) {
            problems.add(new FieldProblem(
                    at + ".voiceover",
                    "voiceover holds " + s.voiceover().size() + " lines; at most " + MAX_VOICEOVER_LINES_PER_SECTION
                            + " per section are accepted"));
            return;
        }
        if (s.lyrics() != null && s.lyrics().length() > MAX_LYRICS_CHARS) {
            problems.add(new FieldProblem(
                    at + ".lyrics",
                    "lyrics hold " + s.lyrics().length() + " characters; at most " + MAX_LYRICS_CHARS
                            + " are accepted"));
        }
        barIntensity(s, at, problems);
        instruments(s.instruments(), at + ".instruments", genres, genreIds, problems);
        if (s.hit() != null) {
            hit(s.hit(), at + ".hit", s, problems);
        }
        for (int k = 0; k < s.accents().size(); k++) {
            hit(s.accents().get(k), at + ".accents[" + k + "]", s, problems);
        }
        for (int k = 0; k < s.voiceover().size(); k++) {
            var line = s.voiceover().get(k);
            if (line.text() == null || line.text().isBlank()) {
                problems.add(new FieldProblem(
                        at + ".voiceover[" + k + "].text", "text must be the words to speak, not empty"));
            } else if (line.text().length() > MAX_TEXT_CHARS) {
                problems.add(new FieldProblem(
                        at + ".voiceover[" + k + "].text",
                        "text holds " + line.text().length() + " characters; at most " + MAX_TEXT_CHARS
                                + " per line are accepted"));
            }
            if (!(line.start() >= s.start() - FRAME_TOLERANCE_SECONDS && line.start() < s.end())) {
                problems.add(new FieldProblem(
                        at + ".voiceover[" + k + "].start",
                        "start " + num(line.start()) + " must be inside its section, " + num(s.start()) + " to "
                                + num(s.end()) + " s"));
            }
        }
    }

    private static void instruments(
            Map<String, Instrument> instruments,
            String at,
            GenreCatalog genres,
            String genreIds,
            List<FieldProblem> problems) {
        for (var entry : instruments.entrySet()) {
            String group = entry.getKey();
            String here = at + "." + group;
            if (InstrumentGroup.fromWire(group).isEmpty()) {
                problems.add(new FieldProblem(
                        here,
                        "instrument group " + quote(group) + " is not one of beats, bass, harmony, pads, tops,"
                                + " melody, fx, vocals"));
                continue;
            }
            Instrument part = entry.getValue();
            if (part == null) {
                continue;
            }
            if (part.soundset() == null || genres.find(part.soundset()).isEmpty()) {
                problems.add(new FieldProblem(
                        here + ".soundset",
                        "soundset must be a genre id (" + genreIds + "), not " + quote(part.soundset())));
            }
            if (!BankCatalog.known(part.program())) {
                problems.add(new FieldProblem(
                        here + ".program",
                        "program must be a General MIDI program 0 to 127, or 128 x bank + program"
                                + " for a bank of instruments/banks.json ("
                                + BankCatalog.banks().stream()
                                        .map(b -> b.msb() + " " + b.id())
                                        .toList()
                                + "), not " + part.program()));
            }
            if (!(part.pan() >= -1 && part.pan() <= 1)) {
                problems.add(
                        new FieldProblem(here + ".pan", "pan must be -1 (left) to 1 (right), not " + num(part.pan())));
            }
            if (!(part.gainDb() >= -60 && part.gainDb() <= 12)) {
                problems.add(
                        new FieldProblem(here + ".gain_db", "gain_db must be -60 to 12 dB, not " + num(part.gainDb())));
            }
            if (part.pattern() != null) {
                Matcher m = PATTERN_ID.matcher(part.pattern());
                if (!m.matches()
                        || genres.find(m.group(1)).isEmpty()
                        || !m.group(2).equals(group)) {
                    problems.add(new FieldProblem(
                            here + ".pattern",
                            "pattern must be <genre>/" + group + "/<level 0-3> with a genre among " + genreIds
                                    + " (e.g. house/" + group + "/2), not " + quote(part.pattern())));
                }
            }
        }
    }

    private static void hit(Hit hit, String at, Section s, List<FieldProblem> problems) {
        if (hit.kind() == null || !HIT_KINDS.contains(hit.kind())) {
            problems.add(new FieldProblem(
                    at + ".kind", "kind must be impact, crash, drop, swell or cadence, not " + quote(hit.kind())));
        }
        if (!(hit.time() >= s.start() - FRAME_TOLERANCE_SECONDS && hit.time() <= s.end() + FRAME_TOLERANCE_SECONDS)) {
            problems.add(new FieldProblem(
                    at + ".time",
                    "time " + num(hit.time()) + " must be inside its section, " + num(s.start()) + " to " + num(s.end())
                            + " s"));
        }
    }

    /**
     * Empty, or values from 0 to 1, at most one per bar of the longest section a plan may have; a
     * curve of another length than the bars (after an edit of bars) is read across them in proportion.
     */
    /** A section of an hour at 240 bpm in 2/4. */
    static final int MAX_BAR_INTENSITIES = 7_200;

    private static void barIntensity(Section s, String at, List<FieldProblem> problems) {
        if (s.barIntensity().size() > MAX_BAR_INTENSITIES) {
            problems.add(new FieldProblem(
                    at + ".bar_intensity",
                    "bar_intensity holds " + s.barIntensity().size() + " values; at most " + MAX_BAR_INTENSITIES
                            + " (one per bar) are accepted"));
            return;
        }
        for (int k = 0; k < s.barIntensity().size(); k++) {
            Double v = s.barIntensity().get(k);
            if (v == null || !(v >= 0 && v <= 1)) {
                problems.add(new FieldProblem(
                        at + ".bar_intensity[" + k + "]",
                        "bar " + k + "'s intensity must be a number from 0" + " (calm) to 1 (the most intense), not "
                                + v));
                return;
            }
        }
    }

    private static String quote(String value) {
        return value == null ? "null" : "'" + value + "'";
    }

    private static String num(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? String.valueOf((long) value)
                : String.valueOf(value);
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
