package dev.scorecast.engine.live;

import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.plan.Continuation;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * What a performance plays, as cues in beats: the section sounding, the one after it (composed a
 * whole section ahead), the changes waiting for a bar line, and the cues still to hand to the
 * synthesizer.
 *
 * <p>Every section is composed on the engine's composing thread, never on a render loop: composing
 * takes 7 ms on average and tens of ms at worst, which a loop carrying dozens of streams cannot
 * spend, and a client's plan could make it far longer. The loop never waits for a composition
 * either. A section is composed a whole section before it begins; a change at a bar line is
 * composed as soon as it is asked for; when a score is nevertheless not there in time (a machine far
 * past its capacity), its section begins on time without it and its cues join when it arrives, the
 * ones already past left out, and {@link LiveContext#lateSections()} counts it.
 *
 * <p>Compositions go through the performance's own {@link ComposingLane}, so the composing thread
 * serves performances in turn; a composition superseded before it ran (a re-levelling replaced by
 * a later one, a change at a bar line replaced by another at the same bar line, a section ahead
 * that no longer fits) is withdrawn and never composed. One that the lane cancelled because the
 * performance asked for too many at once is composed again when it is needed.
 *
 * <p>Bars are counted in {@code long} and beats in {@code double} (exact for whole beats up to
 * 2^53): no count here wraps however long a performance plays.
 *
 * <p>Render loop only; {@link #copy()} for a fork.
 */
final class SectionFeed {
    /** Note ids reserved per composed section, so that sections composed apart never share one. */
    private static final long NOTE_RANGE = 1L << 20;

    /** A section being played: its cues start at {@code startBeat}; {@code bar} counts whole bars before it. */
    record Segment(Section section, double startBeat, double beats, long bar) {
        double end() {
            return startBeat + beats;
        }

        int beatsPerBar() {
            return section.beatsPerBar();
        }
    }

    /**
     * {@code section} (leading into {@code next}) composed, or being composed, on the composing thread to begin at beat
     * {@code at}, bar {@code bar}.
     */
    record Composition(
            Section section, Section next, double at, long bar, CompletableFuture<SectionScore.Composed> score) {
        /** Cancelled while it waited (withdrawn, or its lane was full): it will never be composed. */
        boolean cancelled() {
            return score.isCancelled();
        }
    }

    /** Something that happens when the music reaches a beat (a bar line). */
    sealed interface Due {
        double beat();

        /** At one beat: a change asked for first, then the end of the section, which the change may have replaced. */
        int rank();
    }

    /**
     * A new source of sections from a bar line on: an experience started ({@code start} set) or a
     * client's plan; {@code first} and {@code second} its first sections, {@code first} composed as {@code composition}.
     */
    record Begin(
            double beat,
            Control.Start start,
            SectionSource source,
            Section first,
            Section second,
            Composition composition)
            implements Due {
        public int rank() {
            return 0;
        }

        Begin copy() {
            return new Begin(beat, start, source.copy(), first, second, composition);
        }
    }

    /**
     * The rest of {@code segment} re-arranged at the intensity now ({@code section}, recomposed as
     * {@code composition}; null when nothing of the segment is left), and the sections after it re-levelled.
     */
    record Relevel(double beat, Segment segment, Section section, Composition composition) implements Due {
        public int rank() {
            return 1;
        }
    }

    /** The end of the section sounding: the next one begins. */
    record SectionEnd(double beat) implements Due {
        public int rank() {
            return 2;
        }
    }

    /** A composition whose section already began and whose score had not arrived; {@code whole}: a section's start, else its rest from {@code from}. */
    private record Late(Composition composition, boolean whole, double from, double until) {}

    private static final Comparator<Due> DUE_ORDER =
            Comparator.comparingDouble(Due::beat).thenComparingInt(Due::rank);

    private final LiveContext context;
    private final Composer composer = new Composer();
    /** This feed's compositions on the composing thread (a copy has its own). */
    private final ComposingLane lane;

    private SectionSource source;
    private Segment current;
    private Section upcoming;
    /** The section after {@code upcoming}, chosen when upcoming's composition was started. */
    private Section following;
    /** {@code upcoming} being composed, for when it begins. */
    private Composition prepared;
    /**
     * The upcoming section as composed before a re-levelling composed it again, kept once its score is there: when the
     * new one is not ready at the section's start, the section begins with this one (its notes all there, at the old
     * level) and the new level follows at its next bar line.
     */
    private Composition fallback;

    private long noteIds;
    /** Whole bars played before the current section (or before the stop). */
    private long barsBefore;

    private final PriorityQueue<Cue> cues = new PriorityQueue<>(Cue.ORDER);
    private final PriorityQueue<Due> dues = new PriorityQueue<>(DUE_ORDER);
    private final List<Late> late = new ArrayList<>();
    /** The beat up to which cues have been handed to the synthesizer. */
    private double dispatched = Double.NEGATIVE_INFINITY;

    SectionFeed(LiveContext context) {
        this.context = context;
        this.lane = new ComposingLane(context.composing());
    }

    SectionFeed copy() {
        SectionFeed c = new SectionFeed(context);
        c.source = source == null ? null : source.copy();
        c.current = current;
        c.upcoming = upcoming;
        c.following = following;
        c.prepared = prepared; // its score is immutable: both may take it
        c.fallback = fallback;
        c.noteIds = noteIds;
        c.barsBefore = barsBefore;
        c.cues.addAll(cues);
        for (Due d : dues) {
            c.dues.add(d instanceof Begin b ? b.copy() : d);
        }
        c.late.addAll(late);
        c.dispatched = dispatched;
        return c;
    }

    // ------------------------------------------------------------------ what plays

    Segment current() {
        return current;
    }

    Section upcoming() {
        return upcoming;
    }

    boolean clientPlan() {
        return source != null && source.clientPlan;
    }

    String genre() {
        return source == null ? null : source.genre.id();
    }

    /** The tempo the music is heading for: the section's (or the source's before one plays) at {@code relativeTempo} ({@link Intent#relativeTempo()}). */
    double targetTempo(double relativeTempo) {
        double base = current != null ? current.section().tempo() : source != null ? source.baseTempo() : 0;
        return base * relativeTempo;
    }

    /** The intensity a section plays at: the one asked for ({@code intensity}), breathing as the section's label says. */
    private static double levelFor(Section s, double intensity) {
        double lift = switch (s.label()) {
            case "peak" -> 0.18;
            case "breakdown", "outro" -> -0.2;
            case "intro" -> -0.1;
            default -> 0.05;
        };
        return Math.clamp(intensity + lift, 0, 1);
    }

    // ------------------------------------------------------------------ bars

    /** Whole bars played by beat {@code beat}. */
    long barNow(double beat) {
        if (current == null) {
            return barsBefore;
        }
        return current.bar() + (long) Math.floor((beat - current.startBeat()) / current.beatsPerBar() + 1e-9);
    }

    /** The bar number at beat {@code at}, a bar line of the current section (or the start of a new one). */
    long barAt(double at) {
        if (current == null) {
            return barsBefore;
        }
        return current.bar() + Math.round((at - current.startBeat()) / current.beatsPerBar());
    }

    /** The first bar line at or after {@code horizon} (the first beat whose cues have not been handed on yet). */
    double nextBarLine(double horizon) {
        if (current == null) {
            return horizon;
        }
        int perBar = current.beatsPerBar();
        double bars = Math.floor((horizon - current.startBeat()) / perBar + 1e-9) + 1;
        return current.startBeat() + bars * perBar;
    }

    // ------------------------------------------------------------------ changes

    /**
     * The change to {@code next} (an experience when {@code start} is set, else a client's plan) at
     * beat {@code at}: its first two sections chosen and the first composed from now, off the loop.
     */
    Begin changeTo(Control.Start start, SectionSource next, double at, double atIntensity) {
        Section first = next.next(atIntensity);
        Section second = next.next(atIntensity);
        Composition composition = compose(next, first, second, at, barAt(at));
        return new Begin(at, start, next, first, second, composition);
    }

    /**
     * Queues {@code due} for its beat. The latest change wins: a re-levelling replaces the one still
     * waiting (its composition withdrawn), and a change at a bar line replaces one at the same bar line.
     */
    void schedule(Due due) {
        switch (due) {
            case Relevel r -> dues.removeIf(d -> d instanceof Relevel old && superseded(old.composition()));
            case Begin b ->
                dues.removeIf(d -> d instanceof Begin old
                        && Math.abs(old.beat() - b.beat()) < 1e-9
                        && superseded(old.composition()));
            case SectionEnd e -> {}
        }
        dues.add(due);
    }

    /** Withdraws {@code c} from the composing thread if it still waits there; true (for removeIf). */
    private boolean superseded(Composition c) {
        withdraw(c);
        return true;
    }

    /** A composition no longer wanted: never composed if it still waits (another feed's, a fork's original, is left alone). */
    void withdraw(Composition c) {
        if (c != null) {
            lane.withdraw(c.score());
        }
    }

    /** Plays {@code b}'s sections from its beat: the current section ends there and its first begins; those after it at {@code intensity}. */
    void begin(Begin b, double intensity, LiveVocals vocals) {
        source = b.source();
        upcoming = b.first();
        following = b.second();
        prepared = b.composition();
        fallback = null; // the section the old music would have begun with: never this one's
        beginSection(b.beat(), b.composition().bar(), intensity, vocals);
    }

    /**
     * The re-levelling of the rest of the current section from bar line {@code at} to {@code intensity}, composed from
     * now; null when nothing is to re-level.
     */
    Relevel relevel(double at, double intensity) {
        if (clientPlan() || current == null) {
            return null;
        }
        Segment segment = current;
        if (at >= segment.end() - 1e-9) {
            return new Relevel(at, segment, null, null); // nothing of this section is left: only the ones after it
        }
        Section releveled = Continuation.relevel(
                source.genre, segment.section(), levelFor(segment.section(), intensity), true, source.seed);
        Composition c = compose(source, releveled, upcoming, segment.startBeat(), segment.bar());
        return new Relevel(at, segment, releveled, c);
    }

    /** Applies {@code r} at its bar line; the sections after the current one are re-levelled to {@code intensity}, the one asked for now. */
    void applyRelevel(Relevel r, double intensity, LiveVocals vocals) {
        // The section it was made for (by its start: an earlier re-levelling at this bar line replaced the segment, not
        // the section).
        if (current == null
                || clientPlan()
                || current.startBeat() != r.segment().startBeat()) {
            return;
        }
        double at = r.beat();
        if (r.composition() != null) {
            Composition composed = again(r.composition());
            if (!composed.score().isDone()) {
                // Not composed by its bar line (a busy composing thread): the arrangement playing goes on to the next
                // bar
                // line, where the re-levelling is tried again, rather than the rest of the section playing without
                // notes
                // until the score arrives. Past the section's last bar line only the sections after it are re-levelled.
                double next = at + current.beatsPerBar();
                if (next < current.end() - 1e-9) {
                    dues.add(new Relevel(next, r.segment(), r.section(), composed));
                    return;
                }
                withdraw(composed);
            } else {
                current = new Segment(r.section(), current.startBeat(), current.beats(), current.bar());
                cues.removeIf(c -> c.beat() >= at - 1e-9 && !(c instanceof Cue.NoteOff));
                late.clear();
                take(composed, false, at, current.end(), vocals);
            }
        }
        upcoming = upcoming == null
                ? null
                : Continuation.relevel(source.genre, upcoming, levelFor(upcoming, intensity), true, source.seed);
        following = following == null
                ? null
                : Continuation.relevel(source.genre, following, levelFor(following, intensity), true, source.seed);
        if (upcoming != null && following != null) {
            prepareUpcoming();
        }
    }

    /** The current section has ended: the next begins (the one after it chosen at {@code intensity}); true when its tempo differs. */
    boolean advanceSection(double intensity, LiveVocals vocals) {
        if (current == null) {
            return false;
        }
        long bar = current.bar() + current.section().bars();
        double at = current.end();
        Section before = current.section();
        beginSection(at, bar, intensity, vocals);
        return current.section().tempo() != before.tempo();
    }

    /** The music stops at beat {@code beat}: nothing more is handed on, the bar count is kept. */
    void stop(double beat) {
        barsBefore = barNow(beat);
        clear();
        withdraw(prepared);
        prepared = null;
        fallback = null;
        current = null;
    }

    /** A start from silence: nothing queued from before (what was still to compose for it is withdrawn). */
    void clear() {
        cues.clear();
        for (Due d : dues) {
            switch (d) {
                case Begin b -> withdraw(b.composition());
                case Relevel r -> withdraw(r.composition());
                case SectionEnd e -> {}
            }
        }
        dues.clear();
        late.clear();
    }

    /**
     * Makes {@code upcoming} the section sounding from {@code at} and queues its cues (composed
     * ahead), then starts composing the section after it, chosen at {@code intensity}.
     */
    private void beginSection(double at, long bar, double intensity, LiveVocals vocals) {
        Section section = upcoming;
        Section next = following != null ? following : source.next(intensity);
        following = null;
        Composition composed = takePrepared(section, at);
        Composition before = takeFallback(at);
        Section relevelled = null;
        if (before != null
                && (composed == null || !ready(composed))
                && before.section().bars() == section.bars()
                && before.section().beatsPerBar() == section.beatsPerBar()) {
            // Re-levelled too close to its start for the new score to be there: it begins with the one composed before.
            relevelled = section;
            if (composed == null) {
                composed = compose(source, section, next, at, bar);
            }
            Composition atNewLevel = composed;
            composed = before;
            section = before.section();
            before = atNewLevel;
        } else {
            withdraw(before);
        }
        upcoming = next;
        current = new Segment(section, at, section.bars() * (double) section.beatsPerBar(), bar);
        cues.removeIf(c -> c.beat() >= at - 1e-9 && !(c instanceof Cue.NoteOff));
        dues.removeIf(d -> d.beat() >= at - 1e-9);
        late.clear();
        if (composed == null) {
            composed = compose(source, section, upcoming, at, bar);
        }
        take(composed, true, at, Double.POSITIVE_INFINITY, vocals);
        dues.add(new SectionEnd(current.end()));
        if (relevelled != null && at + section.beatsPerBar() < current.end() - 1e-9) {
            dues.add(new Relevel(at + section.beatsPerBar(), current, relevelled, before));
        } else if (relevelled != null) {
            withdraw(before);
        }
        following = source.next(intensity);
        prepareUpcoming();
    }

    private void prepareUpcoming() {
        if (prepared != null && ready(prepared)) {
            withdraw(fallback);
            fallback = prepared;
        } else {
            withdraw(prepared);
        }
        prepared = compose(
                source,
                upcoming,
                following,
                current.end(),
                current.bar() + current.section().bars());
    }

    /** What was composed ahead for {@code section} at {@code at}, or null when what was prepared no longer fits. */
    private Composition takePrepared(Section section, double at) {
        Composition p = prepared;
        prepared = null;
        if (p == null || p.section() != section || Math.abs(p.at() - at) > 1e-9) {
            withdraw(p);
            return null;
        }
        return p;
    }

    /** Composes {@code section} (leading into {@code next}) to begin at {@code at}, bar {@code bar}, on the composing thread. */
    private Composition compose(SectionSource from, Section section, Section next, double at, long bar) {
        long first = noteIds;
        noteIds += NOTE_RANGE;
        String genre = from.genre.id();
        long sectionSeed = from.seed + bar;
        return new Composition(
                section,
                next,
                at,
                bar,
                lane.submit(() -> SectionScore.compose(composer, genre, sectionSeed, section, next, at, first)));
    }

    /** What was composed before a re-levelling for the section beginning at {@code at}, if its score is there. */
    private Composition takeFallback(double at) {
        Composition f = fallback;
        fallback = null;
        return f != null && Math.abs(f.at() - at) <= 1e-9 && ready(f) ? f : null;
    }

    /** Whether {@code c}'s score is there and whole. */
    private static boolean ready(Composition c) {
        return c.score().isDone() && !c.score().isCompletedExceptionally();
    }

    /** {@code c} again, when it was cancelled before it was composed; else {@code c}. */
    private Composition again(Composition c) {
        return c.cancelled() ? compose(source, c.section(), c.next(), c.at(), c.bar()) : c;
    }

    /** Queues {@code c}'s cues now when its score is there, else when it arrives. */
    private void take(Composition c, boolean whole, double from, double until, LiveVocals vocals) {
        c = again(c);
        if (c.score().isDone()) {
            queue(c.score().join(), whole, from, until, Double.NEGATIVE_INFINITY, vocals);
        } else {
            late.add(new Late(c, whole, from, until));
        }
    }

    /**
     * Queues a score: from its section's start ({@code whole}) or its rest from {@code from}. Notes
     * before {@code notBefore} are left out (they were due before the score arrived); the channels'
     * sounds are set all the same.
     */
    private void queue(
            SectionScore.Composed composed,
            boolean whole,
            double from,
            double until,
            double notBefore,
            LiveVocals vocals) {
        // A channel-sound cue sets a channel's program, volume and pan when the section (or its rest) starts.
        for (SectionScore.ChannelSound v : composed.sounds()) {
            cues.add(v.at(from));
        }
        for (Cue c : composed.cues()) {
            boolean note = c instanceof Cue.NoteOn || c instanceof Cue.NoteOff;
            if ((whole || c.beat() >= from - 1e-9) && !(note && c.beat() < notBefore)) {
                cues.add(c);
            }
        }
        vocals.replace(from, until, composed.phrases());
    }

    /** Queues the scores that arrived since the last block (a failed composition fails the performance, as any error on its loop). */
    private void arrivals(LiveVocals vocals) {
        if (late.isEmpty()) {
            return;
        }
        for (int i = 0; i < late.size(); i++) {
            Late l = late.get(i);
            if (l.composition().cancelled()) {
                late.set(i, new Late(again(l.composition()), l.whole(), l.from(), l.until()));
            } else if (l.composition().score().isDone()) {
                late.remove(i--);
                queue(l.composition().score().join(), l.whole(), l.from(), l.until(), dispatched, vocals);
                context.lateSections().incrementAndGet();
            }
        }
    }

    /** Hands the singer the lines of the section composed ahead as soon as it is, a section before they play. */
    void singAhead(LiveVocals vocals) {
        Composition p = prepared;
        if (p != null && p.score().isDone() && !p.score().isCompletedExceptionally()) {
            SectionScore.Composed composed = p.score().join();
            vocals.lookAhead(p.at(), composed.beats(), composed.phrases());
        }
    }

    // ------------------------------------------------------------------ handing on, in beat order

    /** Called before a block's cues are taken: scores that arrived late join the queue. */
    void beforeDispatch(LiveVocals vocals) {
        arrivals(vocals);
    }

    /** The next due change before {@code horizon} that comes no later than the next cue, or null. */
    Due nextDue(double horizon) {
        Due due = dues.peek();
        Cue cue = cues.peek();
        if (due != null && due.beat() < horizon && (cue == null || due.beat() <= cue.beat())) {
            return dues.poll();
        }
        return null;
    }

    /** The next cue before {@code horizon}, or null (then everything before it has been handed on). */
    Cue nextCue(double horizon) {
        Cue cue = cues.peek();
        if (cue == null || cue.beat() >= horizon) {
            dispatched = Math.max(dispatched, horizon);
            return null;
        }
        return cues.poll();
    }
}
