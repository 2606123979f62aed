package dev.scorecast.engine.live;

import dev.scorecast.engine.plan.Plan;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a caller asks of a running performance. Controls wait on a queue that the render loop drains
 * at the start of each block (STYLE.md "live"), so no HTTP thread ever touches the loop's state.
 */
sealed interface Control {

    /** Play {@code experience} (at the next bar line when already playing, else at once). */
    record Start(Experience experience, double intensity, boolean vocals, CompletableFuture<AppliesAt> applied)
            implements Control {}

    /** Fade out over one beat; silence keeps flowing. */
    record Stop() implements Control {}

    /** Relative tempo 0.8 + 0.4 x intensity, gliding over one beat; the arrangement follows at the next bar line. */
    record SetIntensity(double intensity) implements Control {}

    /** The sung layer enters or leaves at the next bar line. */
    record SetVocals(boolean vocals, CompletableFuture<AppliesAt> applied) implements Control {}

    /** Play a client's validated plan from the next bar line; answers where that is. */
    record ReplacePlan(Plan plan, CompletableFuture<AppliesAt> applied) implements Control {}

    /** Copy this performance at a block boundary and move {@code listeners} to the copy. */
    record Fork(List<Listener> listeners, CompletableFuture<Performance> forked) implements Control {}
}
