package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.music.Part.ProgramChange;
import dev.scorecast.engine.music.Score.Accent;
import dev.scorecast.engine.music.Score.TempoChange;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.singing.SungNote;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * Plan -> notes (issue 4). Each sounding instrument group is written section by section by its
 * {@link GroupWriter} from the pattern the plan names ("genre/group/level", data in
 * {@code styles/patterns/<genre>.json}). Deterministic: every random choice comes from a
 * {@link SplittableRandom} seeded from the plan's seed, the section index and the group, so the
 * same plan always gives the same score. The vocals group is a sung line ({@link VocalWriter})
 * that the singer sings; its notes are also a part, so the MIDI file has them.
 */
public final class Composer {
    /** The groups that leave the moment before a hit clear (HitClearance): every group but the effects, whose riser peaks on the hit; the sung line places its own lines. */
    private static final Set<InstrumentGroup> CLEARS_BEFORE_HITS = EnumSet.of(
            InstrumentGroup.BEATS,
            InstrumentGroup.BASS,
            InstrumentGroup.HARMONY,
            InstrumentGroup.PADS,
            InstrumentGroup.TOPS,
            InstrumentGroup.MELODY);

    /**
     * The key the effects play a riser on (impacts are on the section's tonic, 36-47): a riser is a
     * one-shot sample whose swell is placed by its note-on, so whoever moves the effects' notes (the
     * conform) must not strike it again elsewhere.
     */
    public static final int RISER_PITCH = FxWriter.RISER_PITCH;

    private static final GenreCatalog GENRES = GenreCatalog.builtIn();
    /** The single-line groups whose legato instruments slur (Legato); harmony and pads are chords. */
    private static final Set<InstrumentGroup> SLURRED = EnumSet.of(InstrumentGroup.MELODY, InstrumentGroup.BASS);

    private final StyleBook book;

    public Composer() {
        this.book = StyleBook.builtIn();
    }

    /** Composes the plan; a pattern id missing from the style data throws IllegalStateException. */
    public Score compose(Plan plan) {
        return compose(plan, List.of());
    }

    /**
     * Composes the plan around {@code speech} (dialogue or voiceover, seconds): the melody and the
     * sung line rest under it and come back after it.
     */
    public Score compose(Plan plan, List<Span> speech) {
        List<Section> sections = plan.sections();
        double duration = plan.duration();
        StyleBook.GenreStyle planStyle =
                plan.genre() != null && StyleBook.GENRES.contains(plan.genre()) ? book.genre(plan.genre()) : null;
        double chordsPerBar = planStyle == null ? 1 : planStyle.chordsPerBar();
        Bars[] bars = new Bars[sections.size()];
        Chord next = null;
        for (int i = sections.size() - 1; i >= 0; i--) {
            Section s = sections.get(i);
            String pre = planStyle == null ? "V" : planStyle.preCadence(s.mode());
            bars[i] = new Bars(s, i == sections.size() - 1, chordsPerBar, pre, next);
            next = bars[i].first();
        }
        List<TempoChange> tempoMap = new ArrayList<>();
        List<Accent> accents = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            tempoMap.add(new TempoChange(i == 0 ? 0 : s.start(), s.tempo(), s.meter()));
            // A section whose hit the client removed promises no accent, so none is measured.
            if (s.hit() != null && strikes(s.hit())) {
                accents.add(new Accent(s.start(), s.hit().kind(), i));
            }
            for (Section.Hit inside : s.accents()) {
                if (strikes(inside)) {
                    accents.add(new Accent(inside.time(), inside.kind(), i));
                }
            }
        }
        accents.sort(Comparator.comparingDouble(Accent::time));
        if (!sections.isEmpty()) {
            Bars lastBars = bars[bars.length - 1];
            accents.add(new Accent(lastBars.time(lastBars.bars - 1, 0), "cadence", sections.size() - 1));
        }
        // The moments the band steps up to: every accent and every section's first downbeat.
        List<Double> hits = new ArrayList<>(accents.stream().map(Accent::time).toList());
        for (int i = 1; i < sections.size(); i++) {
            hits.add(sections.get(i).start());
        }
        List<Part> parts = new ArrayList<>();
        List<Score.DrumFillPlayed> drumFills = new ArrayList<>();
        for (InstrumentGroup group : InstrumentGroup.values()) {
            if (group == InstrumentGroup.VOCALS) {
                continue;
            }
            Part part = compose(plan, group, bars, duration, hits, drumFills);
            if (part != null && group == InstrumentGroup.MELODY) {
                part = part.withNotes(part.notes().stream()
                        .filter(n -> !VocalWriter.overlaps(speech, n.start(), n.end()))
                        .toList());
            }
            if (part != null) {
                parts.add(part);
            }
        }
        List<SungNote> vocal = new ArrayList<>();
        Section.Instrument voice = null;
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            Section.Instrument instrument = s.instruments().get(InstrumentGroup.VOCALS.wire());
            if (instrument != null && s.lyrics() != null) {
                voice = voice == null ? instrument : voice;
                SplittableRandom rng = new SplittableRandom(seed(plan.seed(), i, InstrumentGroup.VOCALS.ordinal()));
                vocal.addAll(VocalWriter.write(bars[i], s.lyrics(), rng, speech));
            }
        }
        if (voice != null && !vocal.isEmpty()) {
            List<Note> notes = vocal.stream()
                    .map(n -> new Note(n.start(), n.duration(), n.pitch(), n.velocity()))
                    .toList();
            parts.add(new Part(
                    InstrumentGroup.VOCALS, voice.program(), false, voice.gainDb(), voice.pan(), notes, List.of()));
        }
        return new Score(duration, tempoMap, parts.stream().map(Takes::numbered).toList(), accents, vocal, drumFills);
    }

    private Part compose(
            Plan plan,
            InstrumentGroup group,
            Bars[] bars,
            double duration,
            List<Double> hits,
            List<Score.DrumFillPlayed> drumFills) {
        GroupWriter writer = switch (group) {
            case BEATS -> new DrumWriter();
            case BASS -> new BassWriter();
            case HARMONY -> new ChordWriter(false);
            case PADS -> new ChordWriter(true);
            case TOPS -> new TopsWriter();
            case MELODY -> new MelodyWriter();
            case FX -> new FxWriter();
            case VOCALS -> null;
        };
        NoteOut out = new NoteOut(duration);
        List<ProgramChange> changes = new ArrayList<>();
        Section.Instrument firstInstrument = null;
        int program = -1;
        List<Section> sections = plan.sections();
        List<Legato.Span> legato = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            Section.Instrument instrument = s.instruments().get(group.wire());
            if (instrument == null) {
                continue;
            }
            if (SLURRED.contains(group) && playsLegato(instrument, group)) {
                legato.add(new Legato.Span(s.start(), s.start() + s.durationSeconds(), 60 / s.tempo()));
            }
            StyleBook.Pattern pattern = book.pattern(instrument.pattern());
            if (firstInstrument == null) {
                firstInstrument = instrument;
                program = instrument.program();
            } else if (instrument.program() != program && group != InstrumentGroup.FX) {
                changes.add(new ProgramChange(s.start(), instrument.program()));
                program = instrument.program();
            }
            SplittableRandom rng = new SplittableRandom(seed(plan.seed(), i, group.ordinal()));
            Section next = i + 1 < sections.size() ? sections.get(i + 1) : null;
            writer.write(new GroupWriter.Ctx(
                    bars[i], pattern, instrument, rng, out, next, duration, playsAt(pattern, group)));
        }
        if (firstInstrument == null) {
            return null;
        }
        if (writer instanceof DrumWriter drums) {
            drumFills.addAll(drums.played);
        }
        if (writer instanceof FxWriter fx) {
            changes.addAll(fx.programChanges);
            changes.sort(Comparator.comparingDouble(ProgramChange::time));
        }
        List<Note> notes = new ArrayList<>(out.notes());
        if (CLEARS_BEFORE_HITS.contains(group)) {
            HitClearance.clear(notes, hits, HitClearance.seconds(group));
        }
        notes = new ArrayList<>(Legato.slurred(notes, legato, hits));
        notes.sort(Comparator.comparingDouble(Note::start).thenComparingInt(Note::pitch));
        List<Part.Control> controls = List.of();
        if (Expression.sustains(group, firstInstrument.program())) {
            // The swell of each held chord peaks higher the more intense its section.
            controls = Expression.curve(notes, t -> 100 + (int) Math.round(27 * intensityAt(sections, t)));
        } else if (group != InstrumentGroup.FX
                && sections.stream().anyMatch(s -> !s.barIntensity().isEmpty())) {
            // Struck and plucked parts (and, less far, the drums) follow the picture in level too, bar by
            // bar (issue 26), each bar as far under full as it is under the video's most intense one: an
            // even video keeps its level.
            double top = sections.stream()
                    .flatMapToDouble(s -> IntStream.range(0, s.bars()).mapToDouble(s::intensityOfBar))
                    .max()
                    .orElse(1);
            controls = Expression.barLevels(
                    sections,
                    (section, bar) -> 1 - (top - section.intensityOfBar(bar)),
                    group == InstrumentGroup.BEATS ? Expression.DRUM_CALM_LEVEL : Expression.CALM_LEVEL);
        }
        if (group != InstrumentGroup.BEATS && group != InstrumentGroup.FX && bars[bars.length - 1].last) {
            // The closing chord dies away into its release instead of stopping (NoteOut lets it go).
            controls = Expression.fadeOut(controls, out.releaseBy());
        }
        return new Part(
                group,
                firstInstrument.program(),
                group == InstrumentGroup.BEATS,
                firstInstrument.gainDb(),
                firstInstrument.pan(),
                notes,
                changes,
                Legato.framed(controls, legato));
    }

    /**
     * The groove templates the plan's music is played with (every genre its patterns name; docs/STYLES.md,
     * "Groove templates"), for results.json's provenance: the drummers' timing and weight shape every
     * part, and their fills end the drums' phrases.
     */
    public static List<GrooveSource> grooveSources(Plan plan) {
        return grooveSources(plan, List.of());
    }

    /** The same, each template naming which of its fills {@code score}'s drums played. */
    public static List<GrooveSource> grooveSources(Plan plan, Score score) {
        return grooveSources(plan, score.drumFills());
    }

    private static List<GrooveSource> grooveSources(Plan plan, List<Score.DrumFillPlayed> played) {
        StyleBook book = StyleBook.builtIn();
        TreeMap<String, GrooveSource> sources = new TreeMap<>();
        for (Section s : plan.sections()) {
            for (InstrumentGroup group : InstrumentGroup.values()) {
                Section.Instrument instrument = s.instruments().get(group.wire());
                if (instrument == null || group == InstrumentGroup.VOCALS) {
                    continue; // the sung line is the singer's, played from no pattern
                }
                Groove groove = book.pattern(instrument.pattern())
                        .style()
                        .feelOrDefault()
                        .template();
                if (groove != null) {
                    sources.putIfAbsent(groove.name(), groove.source(played));
                }
            }
        }
        return List.copyOf(sources.values());
    }

    /** Whether the palette entry a section's instrument came from is a legato one (styles/genres.json). */
    private static boolean playsLegato(Section.Instrument instrument, InstrumentGroup group) {
        return GENRES.find(instrument.soundset())
                .map(g -> g.arrangement().groups().get(group.wire()))
                .map(style -> style.palette().stream()
                        .anyMatch(sound -> sound.program() == instrument.program() && sound.legato()))
                .orElse(false);
    }

    /**
     * The levels at which the genre plays a group (styles/genres.json), for the bars of a section
     * graded bar by bar; the effects mark accents at any level.
     */
    private static IntPredicate playsAt(StyleBook.Pattern pattern, InstrumentGroup group) {
        if (group == InstrumentGroup.FX) {
            return level -> true;
        }
        return GENRES.find(pattern.style().genre())
                .map(g -> g.arrangement().groups().get(group.wire()))
                .<IntPredicate>map(style -> style::playsAt)
                .orElse(level -> true);
    }

    /** The intensity of the bar sounding at {@code t}. */
    private static double intensityAt(List<Section> sections, double t) {
        Section s = sectionAt(sections, t);
        int bar = (int) Math.floor((t - s.start()) / (s.durationSeconds() / Math.max(1, s.bars())));
        return s.intensityOfBar(Math.clamp(bar, 0, Math.max(0, s.bars() - 1)));
    }

    private static Section sectionAt(List<Section> sections, double t) {
        Section found = sections.get(0);
        for (Section s : sections) {
            if (s.start() <= t + 1e-9) {
                found = s;
            }
        }
        return found;
    }

    /**
     * Whether an accent inside a section is struck (an impact, crash or drop: a transient the drums
     * and effects play exactly on it) rather than swelled into (a riser that peaks there, as for a
     * fade). Only struck accents are heard as onsets, so only they go into the sync report.
     */
    static boolean strikes(Section.Hit accent) {
        return accent.kind() != null && !accent.kind().equals("swell");
    }

    /** A well-mixed seed from the plan's seed, the section and the group (SplitMix64 finaliser). */
    static long seed(long planSeed, int section, int group) {
        long z = planSeed + 0x9E3779B97F4A7C15L * (section + 1) + 0xD1B54A32D192ED03L * (group + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
