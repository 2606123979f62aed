package dev.scorecast.engine.plan;

/**
 * What a client asks of a generated plan (DESIGN.md §5). {@code genre} null: chosen from the
 * analysis. {@code seed} null: derived deterministically from the analysis, so the same video
 * plans the same way twice.
 */
public record GenerationOptions(boolean withVocals, boolean withVoiceover, boolean withInstrument, String genre,
                                boolean originalAudio, boolean originalAudioVoiceover, boolean noDucking, boolean multitrack,
                                Long seed) {

    /** Everything off except multitrack; genre and seed chosen from the analysis. */
    public static final GenerationOptions DEFAULT = new GenerationOptions(false, false, false, null, false, false, false, true, null);

    /** The plan-level switches these options ask for. */
    public PlanOptions planOptions() {
        return new PlanOptions(withVocals, withVoiceover, withInstrument, originalAudio, originalAudioVoiceover, !noDucking, multitrack);
    }
}
