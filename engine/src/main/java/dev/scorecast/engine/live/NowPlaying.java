package dev.scorecast.engine.live;

import dev.scorecast.engine.plan.Section;

/**
 * What a performance plays, published with each block: the experience (null before the first
 * start), whether it plays, the intensity and vocals in force, the tempo with the relative tempo
 * applied, and the section sounding now and the one composed after it.
 */
public record NowPlaying(
        Experience experience,
        String genre,
        boolean playing,
        double intensity,
        boolean vocals,
        double tempo,
        Section section,
        Section upcoming,
        boolean clientPlan) {

    static final NowPlaying IDLE = new NowPlaying(null, null, false, 0.5, false, 0, null, null, false);
}
