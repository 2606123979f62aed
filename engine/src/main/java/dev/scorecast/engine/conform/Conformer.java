package dev.scorecast.engine.conform;

import dev.scorecast.engine.conform.ShotMatcher.Match;
import dev.scorecast.engine.conform.ShotMatcher.Shot;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A re-cut's plan from the earlier cut's plan and where each new shot came from (issue 27; the
 * rules are in docs/EDITING.md, "Follow a re-cut"):
 * <ul>
 * <li>a stretch of new shots that runs on in the old cut's time (one shift) plays the old music
 * again: one section per old section it crosses, each with an {@link Section.Origin}, whose notes
 * {@link ConformedScore} takes from the old plan's own score;
 * <li>new shots, and kept bits too short for music of their own (under {@link #MIN_SECONDS}), get
 * new sections in the key, instruments and style of the music beside them, in whole bars at the
 * tempo nearest theirs that fits (a tempo ramp where a bar cannot fit), resuming the kept music on
 * one of its own bar lines, or on its own beat just before the cut ({@link #leadIn});
 * <li>every cut of the new video is struck: a section's hit where it starts, an accent inside;
 * <li>the music ends on the last frame: on the old music's own ending when the last shot keeps it,
 * else on a new closing section of two bars (one where the shot leaves no room for two).
 * </ul>
 * Pure: plans and matches in, a plan and its report out.
 */
public final class Conformer {
    /** A section shorter than this cannot hold one bar at 240 bpm. */
    static final double MIN_SECONDS = 1.0;
    /** Fresh music is written in sections of at most this many bars. */
    static final int MAX_FRESH_BARS = 8;
    /** Seconds within which two times are one. */
    private static final double SAME = 0.005;

    private Conformer() {}

    /** The conformed plan and what happened to every span. */
    public record Conformed(Plan plan, List<ConformSpan> spans) {}

    /**
     * What happened to one span: {@code kind} is kept, moved, trimmed, removed or new; old times are
     * null for a new shot and new times null for a removed one.
     */
    public record ConformSpan(String kind, Double oldStart, Double oldEnd, Double newStart, Double newEnd) {}

    /**
     * Conforms {@code old} (the earlier cut's plan, as executed) to a cut of {@code duration}
     * seconds whose shots are {@code matches} (in time order) and whose cuts are {@code newCuts}.
     */
    public static Conformed conform(
            Plan old, List<Shot> oldShots, List<Match> matches, List<Double> newCuts, double duration) {
        List<ConformSpan> spans = report(oldShots, matches);
        List<Piece> pieces = pieces(old, matches, duration);
        // The longer frame of the two videos: a cut that moved by less is the same cut.
        double frame = matches.stream().mapToDouble(Match::frame).max().orElse(0);
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            if (p.kept()) {
                sections.add(origin(old, p, newCuts, sections.size(), frame));
            } else {
                Section ref = reference(old, pieces, i);
                sections.addAll(fresh(ref, p, newCuts, sections.size(), i == pieces.size() - 1));
            }
        }
        Plan plan = new Plan(
                Plan.VERSION,
                null,
                old.seed(),
                old.genre(),
                duration,
                old.options(),
                old.master(),
                sections,
                List.of(),
                old);
        return new Conformed(plan, spans);
    }

    /** A stretch of the new video: kept (playing the old music {@code shift} later) or fresh. */
    record Piece(double start, double end, boolean kept, double shift) {
        double length() {
            return end - start;
        }
    }

    static List<Piece> pieces(Plan old, List<Match> matches, double duration) {
        List<Piece> raw = new ArrayList<>();
        for (Match m : matches) {
            Piece p = m.found()
                    ? new Piece(m.shot().start(), m.shot().end(), true, m.shift())
                    : new Piece(m.shot().start(), m.shot().end(), false, 0);
            Piece last = raw.isEmpty() ? null : raw.getLast();
            if (last != null && last.kept() == p.kept() && (!p.kept() || Math.abs(last.shift() - p.shift()) < 1e-6)) {
                raw.set(raw.size() - 1, new Piece(last.start(), p.end(), p.kept(), p.shift()));
            } else {
                raw.add(p);
            }
        }
        // One section per old section a kept stretch crosses: each keeps its own tempo, key and instruments.
        List<Piece> split = new ArrayList<>();
        for (Piece p : raw) {
            if (!p.kept()) {
                split.add(p);
                continue;
            }
            double from = p.start();
            for (Section s : old.sections()) {
                double at = s.start() + p.shift();
                if (at > from + SAME && at < p.end() - SAME) {
                    split.add(new Piece(from, at, true, p.shift()));
                    from = at;
                }
            }
            split.add(new Piece(from, p.end(), true, p.shift()));
        }
        List<Piece> pieces = mergeFresh(split.stream()
                .map(p -> p.kept() && p.length() < MIN_SECONDS ? new Piece(p.start(), p.end(), false, 0) : p)
                .toList());
        pieces = widenShortFresh(old, pieces);
        pieces = leadIn(old, pieces);
        return ending(old, pieces, duration);
    }

    /**
     * Kept music after new music comes in on its own beat: where the cut falls after one of its beat
     * lines, the kept music starts on that beat, under the last fraction of a beat of the shot before
     * (the new music, fitted to end there, gives it up), so the kept shot loses none of its own music
     * and the cut is struck inside it. Not where the new music would be left under {@link #MIN_SECONDS}.
     */
    static List<Piece> leadIn(Plan old, List<Piece> in) {
        List<Piece> pieces = new ArrayList<>(in);
        for (int i = 1; i < pieces.size(); i++) {
            Piece before = pieces.get(i - 1);
            Piece kept = pieces.get(i);
            if (before.kept() || !kept.kept()) {
                continue;
            }
            double beat = beatLineBefore(old, kept.start() - kept.shift() + SAME) + kept.shift();
            if (kept.start() - beat > SAME && beat - before.start() >= MIN_SECONDS && beat - kept.shift() >= 0) {
                pieces.set(i - 1, new Piece(before.start(), beat, false, 0));
                pieces.set(i, new Piece(beat, kept.end(), true, kept.shift()));
            }
        }
        return pieces;
    }

    /** The last beat line of the old music at or before old time {@code t}. */
    static double beatLineBefore(Plan old, double t) {
        Section s = sectionAt(old, t);
        double beat = 60.0 / s.tempo();
        return s.start() + Math.max(0, Math.floor((t - s.start()) / beat + 1e-6)) * beat;
    }

    private static List<Piece> mergeFresh(List<Piece> in) {
        List<Piece> out = new ArrayList<>();
        for (Piece p : in) {
            Piece last = out.isEmpty() ? null : out.getLast();
            if (last != null && !last.kept() && !p.kept()) {
                out.set(out.size() - 1, new Piece(last.start(), p.end(), false, 0));
            } else {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * A fresh stretch too short for a bar takes the kept music after it up to that music's next bar
     * line (a bar dropped), or the kept music before it back to its last bar line, or all of a
     * neighbour too short to give that up.
     */
    private static List<Piece> widenShortFresh(Plan old, List<Piece> in) {
        List<Piece> pieces = new ArrayList<>(in);
        for (int i = 0; i < pieces.size(); i++) {
            Piece p = pieces.get(i);
            if (p.kept() || p.length() >= MIN_SECONDS || pieces.size() == 1) {
                continue;
            }
            Piece next = i + 1 < pieces.size() ? pieces.get(i + 1) : null;
            Piece prev = i > 0 ? pieces.get(i - 1) : null;
            if (next != null && next.kept()) {
                double bar = barLineAfter(old, p.start() + MIN_SECONDS - next.shift()) + next.shift();
                if (next.end() - bar >= MIN_SECONDS) {
                    pieces.set(i, new Piece(p.start(), bar, false, 0));
                    pieces.set(i + 1, new Piece(bar, next.end(), true, next.shift()));
                    continue;
                }
            }
            if (prev != null && prev.kept()) {
                double bar = barLineBefore(old, p.end() - MIN_SECONDS - prev.shift()) + prev.shift();
                if (bar - prev.start() >= MIN_SECONDS) {
                    pieces.set(i - 1, new Piece(prev.start(), bar, true, prev.shift()));
                    pieces.set(i, new Piece(bar, p.end(), false, 0));
                    continue;
                }
            }
            Piece eaten = next != null ? next : prev;
            int at = next != null ? i + 1 : i - 1;
            pieces.set(at, new Piece(eaten.start(), eaten.end(), false, 0));
            List<Piece> merged = mergeFresh(pieces);
            pieces.clear();
            pieces.addAll(merged);
            i = -1;
        }
        return pieces;
    }

    /**
     * The ending: a last kept stretch that ends where the old music ended keeps the old cadence;
     * any other gives its last bars (from one of its bar lines at least two bars before the end) to
     * a new closing section.
     */
    private static List<Piece> ending(Plan old, List<Piece> in, double duration) {
        List<Piece> pieces = new ArrayList<>(in);
        Piece last = pieces.getLast();
        if (!last.kept() || Math.abs(last.end() - last.shift() - old.duration()) < 0.05) {
            return pieces;
        }
        Section s = sectionAt(old, last.end() - last.shift() - SAME);
        double barSeconds = s.beatsPerBar() * 60.0 / s.tempo();
        // Two closing bars (the cadence's approach and its tonic) where the shot leaves them, else one.
        for (int closing = 2; closing >= 1; closing--) {
            double bar = barLineBefore(old, duration - closing * barSeconds - last.shift() + SAME) + last.shift();
            if (bar - last.start() >= MIN_SECONDS && duration - bar >= MIN_SECONDS) {
                pieces.set(pieces.size() - 1, new Piece(last.start(), bar, true, last.shift()));
                pieces.add(new Piece(bar, duration, false, 0));
                return mergeFresh(pieces);
            }
        }
        pieces.set(pieces.size() - 1, new Piece(last.start(), last.end(), false, 0));
        return mergeFresh(pieces);
    }

    /** The first bar line of the old music at or after old time {@code t}. */
    static double barLineAfter(Plan old, double t) {
        Section s = sectionAt(old, t);
        double bar = s.beatsPerBar() * 60.0 / s.tempo();
        double line = s.start() + Math.ceil((t - s.start()) / bar - 1e-6) * bar;
        return Math.min(line, s.end());
    }

    /** The last bar line of the old music at or before old time {@code t}. */
    static double barLineBefore(Plan old, double t) {
        Section s = sectionAt(old, t);
        double bar = s.beatsPerBar() * 60.0 / s.tempo();
        return s.start() + Math.max(0, Math.floor((t - s.start()) / bar + 1e-6)) * bar;
    }

    static Section sectionAt(Plan plan, double t) {
        Section found = plan.sections().getFirst();
        for (Section s : plan.sections()) {
            if (s.start() <= t + 1e-9) {
                found = s;
            }
        }
        return found;
    }

    /** A kept piece as a section: the old section's music from the piece's old start. */
    private static Section origin(Plan old, Piece p, List<Double> newCuts, int index, double frame) {
        // A shot kept from the source's very start, moved by a shift worked out in another frame rate,
        // can come out a rounding error below 0 (-3.6e-15 at 30 -> 25 fps, which the plan's validator
        // refused): the source has nothing before 0, so that is 0.
        double shifted = p.start() - p.shift();
        double from = shifted < 0 && shifted > -1e-6 ? 0 : shifted;
        Section s = sectionAt(old, from + SAME);
        double barSeconds = s.beatsPerBar() * 60.0 / s.tempo();
        int bars = Math.max(1, (int) Math.round(p.length() / barSeconds));
        boolean onOwnStart = Math.abs(from - s.start()) < SAME;
        Section.Hit hit;
        if (isCut(newCuts, p.start())) {
            hit = new Section.Hit(
                    p.start(), onOwnStart && s.hit() != null ? s.hit().kind() : "crash");
        } else {
            hit = onOwnStart && s.hit() != null
                    ? new Section.Hit(p.start(), s.hit().kind())
                    : null;
        }
        List<Section.Hit> accents = new ArrayList<>();
        // Where the old music struck: each section's hit on its start, and its accents.
        List<Double> oldStrikes = new ArrayList<>();
        for (Section o : old.sections()) {
            if (o.hit() != null) {
                oldStrikes.add(o.start());
            }
            o.accents().forEach(a -> oldStrikes.add(a.time()));
        }
        for (double c : newCuts) {
            // A cut within a frame of one the old music struck is that cut, moved onto this video's frame grid
            // (33.667 s at 30 fps is 33.680 s at 25): the old strike (an accent added below at its own time, or
            // the hit of the section it starts) is its accent. A second strike a few ms from it would clear the
            // band before it and change the kept music.
            boolean struckByTheOld = oldStrikes.stream().anyMatch(t -> {
                double away = Math.abs(t + p.shift() - c);
                return away >= SAME && away < frame;
            });
            if (c > p.start() + SAME && c < p.end() - SAME && !struckByTheOld) {
                String kind = s.accents().stream()
                        .filter(a -> Math.abs(a.time() + p.shift() - c) < SAME)
                        .map(Section.Hit::kind)
                        .findFirst()
                        .orElse("crash");
                accents.add(new Section.Hit(c, kind));
            }
        }
        for (Section.Hit a : s.accents()) {
            double t = a.time() + p.shift();
            if (t > p.start() + SAME
                    && t < p.end() - SAME
                    && accents.stream().noneMatch(x -> Math.abs(x.time() - t) < SAME)) {
                accents.add(new Section.Hit(t, a.kind()));
            }
        }
        accents.sort(Comparator.comparingDouble(Section.Hit::time));
        List<Section.VoiceoverLine> lines = s.voiceover().stream()
                .filter(v -> v.start() >= from - SAME && v.start() < p.end() - p.shift())
                .map(v -> new Section.VoiceoverLine(v.text(), v.start() + p.shift()))
                .toList();
        return s.toBuilder()
                .index(index)
                .start(p.start())
                .end(p.end())
                .bars(bars)
                .residual(0)
                .hit(hit)
                .lyrics(null)
                .voiceover(lines)
                .accents(accents)
                .barIntensity(List.of())
                .origin(new Section.Origin(from))
                .build();
    }

    /** The old section whose key, instruments and tempo new music beside kept piece {@code i} follows. */
    private static Section reference(Plan old, List<Piece> pieces, int i) {
        for (int k = i - 1; k >= 0; k--) {
            Piece p = pieces.get(k);
            if (p.kept()) {
                return sectionAt(old, p.end() - p.shift() - SAME);
            }
        }
        for (int k = i + 1; k < pieces.size(); k++) {
            Piece p = pieces.get(k);
            if (p.kept()) {
                return sectionAt(old, p.start() - p.shift() + SAME);
            }
        }
        return old.sections().getFirst();
    }

    /**
     * New music over a fresh piece: whole bars at the tempo nearest {@code ref}'s that fills it (one
     * bar when it is short, a ramp to up to 240 bpm), in sections of at most {@link #MAX_FRESH_BARS}.
     */
    static List<Section> fresh(Section ref, Piece p, List<Double> newCuts, int firstIndex, boolean closing) {
        int beats = ref.beatsPerBar();
        double length = p.length();
        int bars = Math.max(1, (int) Math.round(length / (beats * 60.0 / ref.tempo())));
        while (bars > 1 && bars * beats * 60.0 / length > 240) {
            bars--;
        }
        while (bars * beats * 60.0 / length < 40) {
            bars++;
        }
        double tempo = Math.round(bars * beats * 60.0 / length * 1000) / 1000.0;
        int parts = (bars + MAX_FRESH_BARS - 1) / MAX_FRESH_BARS;
        List<Section> out = new ArrayList<>();
        double barSeconds = length / bars;
        int done = 0;
        for (int k = 0; k < parts; k++) {
            int n = bars / parts + (k < bars % parts ? 1 : 0);
            double start = k == 0 ? p.start() : p.start() + done * barSeconds;
            double end = k == parts - 1 ? p.end() : p.start() + (done + n) * barSeconds;
            done += n;
            Section.Hit hit = isCut(newCuts, start) ? new Section.Hit(start, "crash") : null;
            List<Section.Hit> accents = new ArrayList<>();
            for (double c : newCuts) {
                boolean spaced = accents.isEmpty() || c - accents.getLast().time() >= 0.5;
                if (c > start + 0.5 && c < end - SAME && spaced) {
                    accents.add(new Section.Hit(c, "crash"));
                }
            }
            String label = closing && k == parts - 1 ? "outro" : ref.label();
            out.add(new Section(
                    firstIndex + k,
                    start,
                    end,
                    label,
                    tempo,
                    ref.meter(),
                    n,
                    0,
                    ref.key(),
                    ref.mode(),
                    ref.intensity(),
                    ref.progression(),
                    ref.instruments(),
                    hit,
                    null,
                    List.of(),
                    accents,
                    List.of()));
        }
        return out;
    }

    private static boolean isCut(List<Double> cuts, double t) {
        return cuts.stream().anyMatch(c -> Math.abs(c - t) < SAME);
    }

    /**
     * What happened to every shot: new, removed, or found again (moved when it left the order of
     * the shots around it, trimmed when it lost pictures at either end, else kept).
     */
    static List<ConformSpan> report(List<Shot> oldShots, List<Match> matches) {
        List<Match> found = matches.stream().filter(Match::found).toList();
        boolean[] inOrder = longestInOrder(found);
        List<ConformSpan> out = new ArrayList<>();
        int k = 0;
        for (Match m : matches) {
            if (!m.found()) {
                out.add(new ConformSpan(
                        "new",
                        null,
                        null,
                        round(m.shot().start()),
                        round(m.shot().end())));
                continue;
            }
            // Less than a frame is no trim: a cut lands on its own video's frame grid.
            double frame = Math.max(0.02, m.frame());
            boolean trimmed = m.oldStart() > m.old().start() + frame - 1e-9
                    || m.oldEnd() < m.old().end() - frame + 1e-9;
            String kind = !inOrder[k] ? "moved" : trimmed ? "trimmed" : "kept";
            out.add(new ConformSpan(
                    kind,
                    round(m.oldStart()),
                    round(m.oldEnd()),
                    round(m.shot().start()),
                    round(m.shot().end())));
            k++;
        }
        double frame =
                Math.max(0.02, found.stream().mapToDouble(Match::frame).max().orElse(0));
        for (Shot old : oldShots) {
            // What of an old shot no new shot shows is removed (all of it, or the part a trim took).
            List<double[]> shown = found.stream()
                    .filter(m -> m.old().index() == old.index())
                    .map(m -> new double[] {m.oldStart(), m.oldEnd()})
                    .sorted(Comparator.comparingDouble(a -> a[0]))
                    .toList();
            double from = old.start();
            for (double[] s : shown) {
                if (s[0] - from > frame - 1e-9) {
                    out.add(new ConformSpan("removed", round(from), round(s[0]), null, null));
                }
                from = Math.max(from, s[1]);
            }
            if (old.end() - from > frame - 1e-9) {
                out.add(new ConformSpan("removed", round(from), round(old.end()), null, null));
            }
        }
        return out;
    }

    /** Which found shots keep their order (the longest run in the old order); the rest moved. */
    private static boolean[] longestInOrder(List<Match> found) {
        int n = found.size();
        int[] length = new int[n];
        int[] before = new int[n];
        int bestEnd = -1;
        for (int i = 0; i < n; i++) {
            length[i] = 1;
            before[i] = -1;
            for (int j = 0; j < i; j++) {
                if (found.get(j).oldStart() < found.get(i).oldStart() && length[j] + 1 > length[i]) {
                    length[i] = length[j] + 1;
                    before[i] = j;
                }
            }
            if (bestEnd < 0 || length[i] > length[bestEnd]) {
                bestEnd = i;
            }
        }
        boolean[] out = new boolean[n];
        for (int i = bestEnd; i >= 0; i = before[i]) {
            out[i] = true;
        }
        return out;
    }

    private static double round(double t) {
        return Math.round(t * 1000) / 1000.0;
    }
}
