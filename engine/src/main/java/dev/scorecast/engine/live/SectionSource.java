package dev.scorecast.engine.live;

import dev.scorecast.engine.plan.Continuation;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.Genre;
import java.util.ArrayDeque;

/**
 * Where a performance's next sections come from: a client's plan, section after section, and then
 * (or from the start, for an experience) the genre's endless continuation, each section chosen at
 * the intensity asked for when it is chosen.
 *
 * <p>Render loop only; {@link #copy()} for a fork.
 */
final class SectionSource {
    final Genre genre;
    final long seed;
    /** True for a client's plan: its sections are played as given, never re-levelled. */
    final boolean clientPlan;

    private final double baseTempo;
    private final ArrayDeque<Section> planned;
    private Continuation.State state;
    private String home;

    private SectionSource(
            Genre genre,
            long seed,
            boolean clientPlan,
            double baseTempo,
            ArrayDeque<Section> planned,
            Continuation.State state,
            String home) {
        this.genre = genre;
        this.seed = seed;
        this.clientPlan = clientPlan;
        this.baseTempo = baseTempo;
        this.planned = planned;
        this.state = state;
        this.home = home;
    }

    /** An experience's endless music: the genre's continuation from its first section. */
    static SectionSource continuation(Genre genre, long seed, double tempo) {
        return new SectionSource(genre, seed, false, tempo, new ArrayDeque<>(), null, null);
    }

    /** A client's plan, then the continuation at its last section's tempo, in its first section's key. */
    static SectionSource plan(Genre genre, Plan plan) {
        return new SectionSource(
                genre,
                plan.seed(),
                true,
                plan.sections().getLast().tempo(),
                new ArrayDeque<>(plan.sections()),
                null,
                plan.sections().getFirst().key());
    }

    SectionSource copy() {
        return new SectionSource(genre, seed, clientPlan, baseTempo, new ArrayDeque<>(planned), state, home);
    }

    /** The tempo before any section plays. */
    double baseTempo() {
        return baseTempo;
    }

    /** The next section, at {@code intensity} when the continuation chooses it. */
    Section next(double intensity) {
        if (!planned.isEmpty()) {
            return planned.poll();
        }
        Section s = Continuation.next(genre, state, baseTempo, intensity, true, seed);
        home = home == null ? s.key() : home;
        state = Continuation.after(s, state == null ? 0 : state.index() + 1, home);
        return s;
    }
}
