package dev.scorecast.engine.conform;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.HitClearance;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Part.Control;
import dev.scorecast.engine.music.Part.ProgramChange;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The score of a conformed plan (issue 27): the sections with an {@link Section.Origin} play the
 * notes, program changes and expression the source plan's own score plays at their source times,
 * moved by the section's shift; the other sections are composed as any plan's are. Why not compose
 * the kept sections again from their seeds: a writer's voicings lead on from the section before
 * (ChordWriter, TopsWriter, BassWriter, MelodyWriter keep the last voicing), and a section's bar
 * grid and fills depend on where it starts and what follows, so only the source's own score gives
 * back the same notes; composing it again is deterministic (the plan and its seed fix every choice).
 *
 * <p>At the joins the band does what it does at every struck cut: nothing starts in the 200 ms
 * before the new cut and what still sounds is let go there, so no note is cut off mid-way (the
 * synthesiser releases it) and the cut is struck by the new composition's hit on the frame. Pure
 * apart from the composer it calls.
 */
public final class ConformedScore {
    /** The fastest a transition's beats go: the plan's own ceiling for a bar (docs/PLAN.md). */
    static final double MAX_TRANSITION_BPM = 240;
    /** Notes struck this close to a new cut are the new composition's hit on it. */
    private static final double ON_HIT_SECONDS = 0.001;
    /** The groups that strike a new cut inside kept music. */
    private static final Set<InstrumentGroup> STRIKES_INSIDE_KEPT =
            EnumSet.of(InstrumentGroup.BEATS, InstrumentGroup.FX);
    /** How long an impact struck on a new cut inside kept music sounds before it is let go. */
    static final double IMPACT_INSIDE_KEPT_SECONDS = 0.25;
    /** General MIDI crash, china, splash and second crash cymbals: they ring for seconds. */
    private static final Set<Integer> CYMBALS = Set.of(49, 52, 55, 57);

    private static final Set<InstrumentGroup> CLEARS_BEFORE_HITS = EnumSet.of(
            InstrumentGroup.BEATS,
            InstrumentGroup.BASS,
            InstrumentGroup.HARMONY,
            InstrumentGroup.PADS,
            InstrumentGroup.TOPS,
            InstrumentGroup.MELODY);

    private ConformedScore() {}

    /** The score of {@code plan}: the composer's own for a plan without a source. */
    public static Score compose(Plan plan, List<Span> speech) {
        return compose(plan, speech, true);
    }

    /**
     * {@code heldOver}: whether notes held across an entry are played from their onsets ({@link HeldOver})
     * or struck again at the entry. A conform of a conform scores its source the second way: there the
     * source's own held-over parts would be a second part of a group, which the kept stretches here do
     * not carry over.
     */
    private static Score compose(Plan plan, List<Span> speech, boolean heldOver) {
        if (plan.source() == null) {
            return new Composer().compose(plan, speech);
        }
        List<Kept> kept = kept(plan);
        // The source is scored as its own execution scored it, with the speech it made room for: under the
        // kept stretches that is this cut's speech moved back with the shots (the voiceover lines the kept
        // sections carry are spoken again where they moved; the kept shots' dialogue moved with them).
        Score source = compose(plan.source(), sourceSpeech(speech, kept), false);
        Score fresh = new Composer().compose(composable(plan), speech);
        List<Double> newHits = newHits(plan, source, kept);
        // Where kept music starts after other music, the music before it clears the way as before any
        // struck cut, even where the source strikes the same moment itself.
        List<Double> clears = new ArrayList<>(newHits);
        // A cut the kept music came in just before (on its own beat, Conformer.leadIn) is struck on top
        // of it: clearing there would let go what the kept shot opens with.
        for (int i = 1; i < plan.sections().size(); i++) {
            Section s = plan.sections().get(i);
            if (s.origin() != null
                    && s.hit() == null
                    && plan.sections().get(i - 1).origin() == null) {
                double beat = 60.0 / s.tempo();
                clears.removeIf(t -> t > s.start() + 1e-6 && t < s.start() + beat - 1e-6);
            }
        }
        for (int i = 0; i < kept.size(); i++) {
            boolean joined = i > 0
                    && kept.get(i - 1).continues()
                    && Math.abs(kept.get(i - 1).end() - kept.get(i).start()) < 1e-6;
            if (!joined && kept.get(i).start() > 0) {
                clears.add(kept.get(i).start());
            }
        }
        List<Double> allHits =
                new ArrayList<>(fresh.accents().stream().map(Score.Accent::time).toList());
        for (int i = 1; i < plan.sections().size(); i++) {
            allHits.add(plan.sections().get(i).start());
        }
        List<Bridge> bridges = bridges(plan);
        Map<InstrumentGroup, Part> freshParts = byGroup(fresh.parts());
        Map<InstrumentGroup, Part> sourceParts = byGroup(source.parts());
        List<Part> parts = new ArrayList<>();
        for (InstrumentGroup group : InstrumentGroup.values()) {
            Part f = freshParts.get(group);
            Part s = sourceParts.get(group);
            if (f == null && s == null) {
                continue;
            }
            List<Note> notes = new ArrayList<>();
            List<Note> strikes = new ArrayList<>();
            // Not the singer's line: a sung syllable does not come back mid-way (its note is struck again).
            HeldOver held = s == null || s.drums() || group == InstrumentGroup.VOCALS || !heldOver
                    ? null
                    : new HeldOver(s, clears, HitClearance.seconds(group));
            // The effects play each event on its own program (FxWriter switches it at every note): here, per
            // note, the program its own score played it on.
            Map<String, Integer> fxPrograms = new HashMap<>();
            boolean fx = group == InstrumentGroup.FX;
            if (f != null) {
                for (Note n : f.notes()) {
                    Kept in = at(kept, n.start());
                    // A new cut inside kept music is struck by the drums and the effects alone: a ringing
                    // cymbal, a bass note or a chord stab there would cover seconds of the kept music.
                    boolean strike = in != null
                            && STRIKES_INSIDE_KEPT.contains(group)
                            && !(f.drums() && CYMBALS.contains(n.pitch()))
                            && newHits.stream()
                                    .anyMatch(h -> Math.abs(n.start() - h) < ON_HIT_SECONDS && in.contains(h));
                    if (in == null || strike) {
                        // An impact struck inside kept music is let go soon: its boom rings for seconds over
                        // the kept music's opening (the real trim's kept span matched the old render over 72 %
                        // of its windows with the whole 1.7 s impact).
                        notes.add(
                                strike && fx
                                        ? n.moved(n.start(), Math.min(n.duration(), IMPACT_INSIDE_KEPT_SECONDS))
                                        : n);
                        if (fx) {
                            fxPrograms.put(key(n), programAt(f, n.start()));
                        }
                    }
                    if (strike) {
                        strikes.add(n);
                    }
                }
            }
            if (s != null) {
                for (int ki = 0; ki < kept.size(); ki++) {
                    Kept k = kept.get(ki);
                    boolean joined = ki > 0 && kept.get(ki - 1).continues();
                    if (!joined && !s.drums()) {
                        // What the source still holds where the kept music comes in (a pad's chord, a long
                        // bass note) sounds from there, so the kept shot does not open on a hole until the
                        // next chord: from the join, or from the first beat after a transition; played from
                        // its own onset where it can be (HeldOver), else struck again for what is left of it.
                        double entry = bridges.stream()
                                .filter(b -> Math.abs(b.cut() - k.start()) < 1e-6)
                                .mapToDouble(Bridge::to)
                                .findFirst()
                                .orElse(k.start());
                        double sourceEntry = entry - k.shift();
                        List<Note> across = new ArrayList<>();
                        for (Note n : s.notes()) {
                            if (fx) {
                                // An effect is a one-shot sample: struck again at the join it would be a second
                                // impact, or a riser restarted out of step with the old render (0.4 s behind in
                                // ConformTest's trim). A riser sounding across the join keeps its old start, so the
                                // kept music swells into its hit as before; an impact is not struck again.
                                Note riser = keptRiser(n, k, sourceEntry, notes);
                                if (riser != null) {
                                    notes.add(riser);
                                    fxPrograms.put(key(riser), programAt(s, n.start()));
                                }
                                continue;
                            }
                            // (Notes struck on the join itself ring on from it: the transition keeps them.)
                            boolean onJoin =
                                    Math.abs(n.start() - k.sourceStart()) < ON_HIT_SECONDS && entry > k.start();
                            if (n.start() < sourceEntry - 1e-9
                                    && n.end() > sourceEntry + 0.05
                                    && sourceEntry < k.sourceEnd()
                                    && !onJoin) {
                                across.add(n);
                            }
                        }
                        if (held == null || !held.take(across, k, entry)) {
                            for (Note n : across) {
                                double end = Math.min(n.end(), k.sourceEnd());
                                notes.add(n.moved(entry, end - sourceEntry));
                            }
                        }
                    }
                    for (Note n : s.notes()) {
                        if (n.start() >= k.sourceStart() - 1e-9 && n.start() < k.sourceEnd() - 1e-9) {
                            double start = n.start() + k.shift();
                            // A note that would ring on into music of another origin is let go at the join.
                            double end = Math.min(n.end() + k.shift(), k.continues() ? n.end() + k.shift() : k.end());
                            if (end - start >= 0.01
                                    && strikes.stream()
                                            .noneMatch(o ->
                                                    o.pitch() == n.pitch() && Math.abs(o.start() - start) < 0.005)) {
                                notes.add(n.moved(start, end - start));
                                if (fx) {
                                    fxPrograms.put(key(n.moved(start, end - start)), programAt(s, n.start()));
                                }
                            }
                        }
                    }
                }
            }
            if (CLEARS_BEFORE_HITS.contains(group)) {
                HitClearance.clear(notes, clears, HitClearance.seconds(group));
            }
            for (Bridge b : bridges) {
                b.apply(notes, base(f, s).drums(), group == InstrumentGroup.BEATS, fx);
            }
            notes.removeIf(n -> n.start() >= plan.duration());
            notes.sort(Comparator.comparingDouble(Note::start).thenComparingInt(Note::pitch));
            Part base = base(f, s);
            parts.add(new Part(
                    group,
                    base.program(),
                    base.drums(),
                    base.gainDb(),
                    base.pan(),
                    notes,
                    fx ? fxProgramChanges(notes, fxPrograms, programChanges(f, s, kept)) : programChanges(f, s, kept),
                    controls(f, s, kept)));
            Part heldPart = held == null ? null : held.part(base, plan.duration());
            if (heldPart != null) {
                parts.add(heldPart);
            }
        }
        List<Score.Accent> accents = new ArrayList<>();
        for (Score.Accent a : fresh.accents()) {
            Kept in = at(kept, a.time());
            if (a.kind().equals("cadence") && in != null) {
                // The source's own ending plays here: its cadence is where the source struck it.
                source.accents().stream()
                        .filter(c -> c.kind().equals("cadence"))
                        .findFirst()
                        .ifPresent(c -> accents.add(new Score.Accent(c.time() + in.shift(), c.kind(), a.section())));
            } else {
                accents.add(a);
            }
        }
        // The drummers' fills this music plays: the fresh ones outside the kept stretches, the source's inside them.
        List<Score.DrumFillPlayed> drumFills = new ArrayList<>();
        for (Score.DrumFillPlayed d : fresh.drumFills()) {
            if (at(kept, d.time()) == null) {
                drumFills.add(d);
            }
        }
        for (Kept k : kept) {
            for (Score.DrumFillPlayed d : source.drumFills()) {
                if (d.time() >= k.sourceStart() - 1e-9 && d.time() < k.sourceEnd() - 1e-9) {
                    drumFills.add(new Score.DrumFillPlayed(d.time() + k.shift(), d.performance()));
                }
            }
        }
        drumFills.sort(Comparator.comparingDouble(Score.DrumFillPlayed::time));
        return new Score(plan.duration(), tempoMap(plan), parts, accents, fresh.vocal(), drumFills);
    }

    /**
     * The riser of the source that sounds across {@code k}'s entry ({@code sourceEntry}, source time) at
     * its old start moved by the stretch's shift and ending where it ended (or where the stretch does);
     * null when {@code n} is no such riser, or when another riser sounds across the join itself (one
     * riser at a time swells into a hit; the music before the join stops its own riser short of the cut,
     * so that one and the kept one may overlap where the kept one is still quiet).
     */
    static Note keptRiser(Note n, Kept k, double sourceEntry, List<Note> placed) {
        if (n.pitch() != Composer.RISER_PITCH
                || n.start() >= sourceEntry - 1e-9
                || n.end() <= sourceEntry + 0.05
                || sourceEntry >= k.sourceEnd()) {
            return null;
        }
        double start = n.start() + k.shift();
        double end = Math.min(n.end(), k.sourceEnd()) + k.shift();
        boolean taken = placed.stream()
                .anyMatch(
                        o -> o.pitch() == Composer.RISER_PITCH && o.start() < k.start() && o.end() > k.start() + 1e-6);
        return start < 0 || taken ? null : n.moved(start, end - start);
    }

    /** The program a part plays a note struck at {@code time} on: the last change at or before it. */
    static int programAt(Part part, double time) {
        int program = part.program();
        for (ProgramChange c : part.programChanges()) {
            if (c.time() <= time + 1e-9) {
                program = c.program();
            }
        }
        return program;
    }

    private static String key(Note n) {
        return Math.round(n.start() * 1e5) + ":" + n.pitch();
    }

    /**
     * The effects' program changes: one at every note, to the program its own score struck it on (a
     * fresh impact on a new cut inside kept music keeps its impact sound instead of taking the kept
     * stretch's program), the stretches' changes for any note the map does not know.
     */
    static List<ProgramChange> fxProgramChanges(
            List<Note> notes, Map<String, Integer> programs, List<ProgramChange> stretches) {
        List<ProgramChange> out = new ArrayList<>();
        for (Note n : notes) {
            Integer program = programs.get(key(n));
            if (program == null) {
                program = -1;
                for (ProgramChange c : stretches) {
                    if (c.time() <= n.start() + 1e-9) {
                        program = c.program();
                    }
                }
            }
            if (program >= 0) {
                out.add(new ProgramChange(n.start(), program));
            }
        }
        out.sort(Comparator.comparingDouble(ProgramChange::time));
        return out;
    }

    private static Part base(Part fresh, Part source) {
        return fresh != null ? fresh : source;
    }

    /** Beat lines at {@code origin + n * beat} (seconds of the new video). */
    record Grid(double origin, double beat) {
        /** A time within this share of a beat of a beat line is on it. */
        static final double ON_BEAT = 0.02;

        double lastAtOrBefore(double t) {
            return origin + Math.floor((t - origin) / beat + ON_BEAT) * beat;
        }

        double firstAtOrAfter(double t) {
            return origin + Math.ceil((t - origin) / beat - ON_BEAT) * beat;
        }
    }

    /** The beat grid a section's music plays to: its source section's, moved by its shift, or its own bars'. */
    static Grid grid(Plan plan, Section s, boolean atEnd) {
        if (s.origin() == null) {
            return new Grid(s.start(), s.durationSeconds() / (s.bars() * s.beatsPerBar()));
        }
        double shift = s.start() - s.origin().sourceStart();
        Section src = Conformer.sectionAt(plan.source(), (atEnd ? s.end() - 1e-6 : s.start() + 1e-6) - shift);
        return new Grid(src.start() + shift, 60.0 / src.tempo());
    }

    /**
     * Where music of one origin gives way to music of another at a cut: the outgoing music stops on
     * its last beat line at or before the cut ({@code from}), the incoming starts on its first beat
     * line at or after it ({@code to}), and between them is a transition of {@code beats} beats at
     * {@code tempo} (a ramp from the music's own where the gap is not a whole number of its beats):
     * a snare fill up to the band's quiet moment before the cut, the strike on the cut (with what the
     * incoming music plays on it, ringing), the incoming music on its beat. So no note is cut off (what sounds at {@code from} is let go there and the
     * synthesiser releases it), and the bar across the join is a bar of whole beats, the outgoing
     * music's since its bar line, the transition's and the incoming music's to its next bar line.
     * A join on the beat of both ({@code from == cut == to}) needs no transition.
     */
    public record Bridge(double from, double cut, double to, int beats, double tempo) {
        /** The snare the fill is played on (General MIDI acoustic snare). */
        static final int SNARE = 38;

        public boolean onTheBeat() {
            return to - from < 1e-6;
        }

        /**
         * How early a note on the incoming music's first beat line may be played and still be on it: the
         * drummer's feel puts a downbeat a few milliseconds ahead (in the real trim the kept bar's kick,
         * 2 ms early, was taken for a note before the beat and dropped: the bar opened without its kick).
         */
        static final double EARLY_ON_BEAT = 0.04;

        /**
         * The outgoing music's notes from {@code from} to the cut are taken out and what still sounds at
         * {@code from} is let go there; the incoming music's notes after the cut and before {@code to}
         * are taken out (what it holds over {@code to} sounds from there; a note played up to
         * {@link #EARLY_ON_BEAT} ahead of {@code to} is on it and stays), those struck on the cut stay:
         * the strike, and the incoming music's own notes on it ring through the transition; on the
         * drums, the fill.
         */
        void apply(List<Note> notes, boolean drums, boolean fill, boolean oneShots) {
            if (onTheBeat()) {
                return;
            }
            List<Note> out = new ArrayList<>();
            for (Note n : notes) {
                boolean onCut = Math.abs(n.start() - cut) < ON_HIT_SECONDS;
                if (n.start() < from - 1e-6) {
                    // The outgoing music: let go on its beat line.
                    if (n.end() > from + 1e-6 && from - n.start() >= 0.02) {
                        out.add(n.moved(n.start(), from - n.start()));
                    } else if (n.end() <= from + 1e-6) {
                        out.add(n);
                    }
                } else if (n.start() < cut - ON_HIT_SECONDS) {
                    // Outgoing notes after its last beat line: the transition replaces them.
                    continue;
                } else if (n.start() < to - EARLY_ON_BEAT && !onCut) {
                    // Incoming notes before its first beat line: a held one sounds again from that beat.
                    if (oneShots) {
                        // An effect is not struck again on the beat: a riser swells on from where it began, an
                        // impact there is no hit of the cut's.
                        if (n.pitch() == Composer.RISER_PITCH) {
                            out.add(n);
                        }
                    } else if (!drums && n.end() > to + 0.05) {
                        out.add(n.moved(to, n.end() - to));
                    }
                } else {
                    out.add(n);
                }
            }
            if (fill && drums) {
                // Sixteenths of the transition's beats, growing louder, up to the quiet moment before the cut.
                int steps = 4 * beats;
                double step = (to - from) / steps;
                for (int i = 0; i < steps; i++) {
                    double t = from + i * step;
                    if (t >= cut - HitClearance.DRUM_SECONDS - 1e-4) {
                        break;
                    }
                    out.add(new Note(t, Math.min(step, 0.1), SNARE, 56 + 50 * i / steps));
                }
            }
            out.sort(Comparator.comparingDouble(Note::start).thenComparingInt(Note::pitch));
            notes.clear();
            notes.addAll(out);
        }
    }

    /**
     * The transitions of a conformed plan: one at every section start where the music changes origin
     * (kept music after other music, or other music after kept music). Where the gap between the two
     * beat lines is too short for one beat at {@link #MAX_TRANSITION_BPM}, one more beat of the music
     * goes to it, from the side whose shot (up to its other cut) has more music left.
     */
    public static List<Bridge> bridges(Plan plan) {
        List<Bridge> out = new ArrayList<>();
        List<Section> sections = plan.sections();
        List<Double> cuts = new ArrayList<>();
        for (Section s : sections) {
            cuts.add(s.start());
            s.accents().forEach(a -> cuts.add(a.time()));
        }
        for (int i = 1; i < sections.size(); i++) {
            Section before = sections.get(i - 1);
            Section after = sections.get(i);
            if (before.origin() == null && after.origin() == null) {
                continue;
            }
            boolean continues = before.origin() != null
                    && after.origin() != null
                    && Math.abs((before.start() - before.origin().sourceStart())
                                    - (after.start() - after.origin().sourceStart()))
                            < 1e-6;
            if (continues) {
                continue;
            }
            double cut = after.start();
            Grid out1 = grid(plan, before, true);
            Grid in = grid(plan, after, false);
            // Within the two sections: a section shorter than a beat (a slow one of about a second) gives at most
            // itself.
            double from = Math.max(before.start(), Math.min(cut, out1.lastAtOrBefore(cut)));
            double to = Math.min(after.end(), Math.max(cut, in.firstAtOrAfter(cut)));
            if (cut - from < 1e-3 && to - cut < 1e-3) {
                out.add(new Bridge(cut, cut, cut, 0, 0));
                continue;
            }
            double beat = (out1.beat() + in.beat()) / 2;
            if (to - from < 60.0 / MAX_TRANSITION_BPM) {
                // The beat goes to the side whose shot has more of its music left.
                double previousCut = cuts.stream()
                        .filter(c -> c < cut - 1e-6)
                        .max(Double::compare)
                        .orElse(0.0);
                double nextCut = cuts.stream()
                        .filter(c -> c > cut + 1e-6)
                        .min(Double::compare)
                        .orElse(plan.duration());
                boolean incomingLonger = nextCut - to > from - previousCut;
                if (incomingLonger && to + in.beat() <= after.end() - 1e-6) {
                    to += in.beat();
                } else if (from - out1.beat() >= before.start() - 1e-6) {
                    from -= out1.beat();
                }
            }
            int beats = Math.max(1, (int) Math.round((to - from) / beat));
            out.add(new Bridge(from, cut, to, beats, 60.0 * beats / (to - from)));
        }
        return out;
    }

    /** The speech under the kept stretches, in the source's time. */
    static List<Span> sourceSpeech(List<Span> speech, List<Kept> kept) {
        List<Span> out = new ArrayList<>();
        for (Kept k : kept) {
            for (Span s : speech) {
                double from = Math.max(s.start(), k.start());
                double to = Math.min(s.end(), k.end());
                if (to - from > 1e-6) {
                    out.add(new Span(from - k.shift(), to - k.shift()));
                }
            }
        }
        out.sort(Comparator.comparingDouble(Span::start));
        // Stretches cut at a section boundary of the new plan are one again in the source.
        List<Span> merged = new ArrayList<>();
        for (Span s : out) {
            if (!merged.isEmpty() && s.start() <= merged.getLast().end() + 1e-6) {
                Span last = merged.removeLast();
                merged.add(new Span(last.start(), Math.max(last.end(), s.end())));
            } else {
                merged.add(s);
            }
        }
        return merged;
    }

    /** One stretch of the new video that plays the source's music, {@code shift} seconds later. */
    record Kept(double start, double end, double shift, boolean continues) {
        double sourceStart() {
            return start - shift;
        }

        double sourceEnd() {
            return end - shift;
        }

        boolean contains(double t) {
            return t >= start - 1e-9 && t < end - 1e-9;
        }
    }

    /** The kept stretches in order; {@code continues} when the next section carries on the same source music. */
    static List<Kept> kept(Plan plan) {
        List<Section> sections = plan.sections();
        List<Kept> out = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (s.origin() == null) {
                continue;
            }
            double shift = s.start() - s.origin().sourceStart();
            Section next = i + 1 < sections.size() ? sections.get(i + 1) : null;
            boolean continues = next != null
                    && next.origin() != null
                    && Math.abs((next.start() - next.origin().sourceStart()) - shift) < 1e-6;
            out.add(new Kept(s.start(), s.end(), shift, continues));
        }
        return out;
    }

    private static Kept at(List<Kept> kept, double t) {
        for (Kept k : kept) {
            if (k.contains(t)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The plan the composer can write: each section with an origin gets whole bars of its length
     * (so none of its notes spill into the next section) and no lyrics; only its hit is used.
     */
    static Plan composable(Plan plan) {
        List<Section> out = new ArrayList<>();
        for (Section s : plan.sections()) {
            if (s.origin() == null) {
                out.add(s);
                continue;
            }
            double barSeconds = s.beatsPerBar() * 60.0 / s.tempo();
            int bars = Math.max(1, (int) Math.floor(s.durationSeconds() / barSeconds + 1e-6));
            double tempo = Math.clamp(bars * s.beatsPerBar() * 60.0 / s.durationSeconds(), 1, 10_000);
            out.add(s.toBuilder()
                    .tempo(tempo)
                    .bars(bars)
                    .residual(0)
                    .lyrics(null)
                    .composedAgain()
                    .build());
        }
        return new Plan(
                plan.version(),
                plan.id(),
                plan.seed(),
                plan.genre(),
                plan.duration(),
                plan.options(),
                plan.master(),
                out,
                plan.markers(),
                null);
    }

    /**
     * The struck moments of the new plan inside kept stretches that the source does not strike at
     * the same place: the cuts of the new video that are not the source's own boundaries or accents.
     */
    static List<Double> newHits(Plan plan, Score source, List<Kept> kept) {
        List<Double> sourceHits = new ArrayList<>(
                source.accents().stream().map(Score.Accent::time).toList());
        for (Section s : plan.source().sections()) {
            sourceHits.add(s.start());
        }
        List<Double> out = new ArrayList<>();
        for (Section s : plan.sections()) {
            List<Double> struck = new ArrayList<>();
            if (s.hit() != null && !"swell".equals(s.hit().kind())) {
                struck.add(s.start());
            }
            s.accents().stream().filter(a -> !"swell".equals(a.kind())).forEach(a -> struck.add(a.time()));
            for (double t : struck) {
                Kept in = at(kept, t);
                if (in == null || sourceHits.stream().noneMatch(h -> Math.abs(h + in.shift() - t) < 0.005)) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** The fresh part's program changes outside the kept stretches, the source's inside them (and the one in force at each start). */
    private static List<ProgramChange> programChanges(Part fresh, Part source, List<Kept> kept) {
        List<ProgramChange> out = new ArrayList<>();
        if (fresh != null) {
            for (ProgramChange c : fresh.programChanges()) {
                if (at(kept, c.time()) == null) {
                    out.add(c);
                }
            }
        }
        for (Kept k : kept) {
            int atStart = source == null ? -1 : source.program();
            if (source != null) {
                for (ProgramChange c : source.programChanges()) {
                    if (c.time() <= k.sourceStart() + 1e-9) {
                        atStart = c.program();
                    } else if (c.time() < k.sourceEnd() - 1e-9) {
                        out.add(new ProgramChange(c.time() + k.shift(), c.program()));
                    }
                }
            }
            if (atStart >= 0) {
                out.add(new ProgramChange(k.start(), atStart));
            }
            // After the stretch, the fresh part's program in force there comes back.
            if (fresh != null && !k.continues() && k.end() < Double.MAX_VALUE) {
                int after = fresh.program();
                for (ProgramChange c : fresh.programChanges()) {
                    if (c.time() <= k.end() + 1e-9) {
                        after = c.program();
                    }
                }
                out.add(new ProgramChange(k.end(), after));
            }
        }
        out.sort(Comparator.comparingDouble(ProgramChange::time));
        return out;
    }

    /**
     * Controllers the same way: the source's moves inside the kept stretches, the fresh ones outside.
     * Where a kept stretch begins, every controller the source had set by then is set again (expression
     * 127 when it had none), and where it ends before fresh music, every controller the fresh part had
     * set by then: expression, and a legato part's mono mode and portamento (music.Legato), so the
     * kept music plays as it did and the fresh music as it was composed.
     */
    private static List<Control> controls(Part fresh, Part source, List<Kept> kept) {
        List<Control> out = new ArrayList<>();
        if ((fresh == null || fresh.controls().isEmpty())
                && (source == null || source.controls().isEmpty())) {
            return out;
        }
        if (fresh != null) {
            for (Control c : fresh.controls()) {
                if (at(kept, c.time()) == null) {
                    out.add(c);
                }
            }
        }
        for (Kept k : kept) {
            List<Control> before = new ArrayList<>();
            if (source != null) {
                for (Control c : source.controls()) {
                    if (c.time() <= k.sourceStart() + 1e-9) {
                        before.add(c);
                    } else if (c.time() < k.sourceEnd() - 1e-9) {
                        out.add(new Control(c.time() + k.shift(), c.controller(), c.value()));
                    }
                }
            }
            out.addAll(inForce(before, k.start()));
            if (!k.continues()) {
                List<Control> fresher = new ArrayList<>();
                if (fresh != null) {
                    for (Control c : fresh.controls()) {
                        if (c.time() <= k.end() + 1e-9) {
                            fresher.add(c);
                        }
                    }
                }
                out.addAll(inForce(fresher, k.end()));
            }
        }
        out.sort(Comparator.comparingDouble(Control::time));
        return out;
    }

    /**
     * The controllers {@code moves} (in time order) leave in force, set again at {@code time}:
     * expression (127 when never moved), then the last of each other controller, the mono and poly
     * mode switches (126, 127) counting as one.
     */
    static List<Control> inForce(List<Control> moves, double time) {
        Map<Integer, Control> last = new LinkedHashMap<>();
        for (Control c : moves) {
            int key = c.switchesMode() ? Control.MONO_ON : c.controller();
            last.remove(key);
            last.put(key, c);
        }
        List<Control> out = new ArrayList<>();
        Control expression = last.remove(Control.EXPRESSION);
        out.add(new Control(time, Control.EXPRESSION, expression == null ? 127 : expression.value()));
        for (Control c : last.values()) {
            out.add(new Control(time, c.controller(), c.value()));
        }
        return out;
    }

    /** Each section's tempo: a kept section's is its source section's (the plan shows it), so the mix's tempo-synced effects match. */
    private static List<Score.TempoChange> tempoMap(Plan plan) {
        List<Score.TempoChange> out = new ArrayList<>();
        for (int i = 0; i < plan.sections().size(); i++) {
            Section s = plan.sections().get(i);
            out.add(new Score.TempoChange(i == 0 ? 0 : s.start(), s.tempo(), s.meter()));
        }
        return out;
    }

    private static Map<InstrumentGroup, Part> byGroup(List<Part> parts) {
        Map<InstrumentGroup, Part> out = new EnumMap<>(InstrumentGroup.class);
        for (Part p : parts) {
            out.put(p.group(), p);
        }
        return out;
    }
}
