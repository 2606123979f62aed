package dev.scorecast.engine.analysis;

import java.util.List;

/** A detector whose findings are transitions between shots. */
public interface TransitionDetector extends FrameDetector {

    /** What was found so far, in time order; complete after {@link #finish()}. */
    List<Cut> transitions();
}
