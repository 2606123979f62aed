package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.time.Duration;

/**
 * How long finished work is kept, and how old a file no row names must be before it counts as a
 * crash's leftover rather than another node's work in progress.
 *
 * @param keep   an ended execution, or a video with its analyses and plans untouched this long, is
 *               deleted, rows and files; {@link Duration#ZERO} keeps everything
 * @param grace  files untouched this long, which no row names, are removed; at least {@link #MIN_GRACE}
 * @param keepFailed an execution that ended in error, or an analysis superseded by its retry, is deleted this long after
 *               (SCORECAST_RETENTION_FAILED_HOURS, 72): failed work holds a user's share for less time than finished work
 */
public record RetentionSettings(Duration keep, Duration grace, Duration keepFailed) {
    /** Longer than any write can leave a file untouched: a job's deadline is at most 2 min + 10 × 30 min. */
    public static final Duration MIN_GRACE = Duration.ofHours(6);

    public RetentionSettings {
        if (keep.isNegative()) {
            throw new InvalidParameter(
                    "SCORECAST_RETENTION_HOURS", "SCORECAST_RETENTION_HOURS must be 0 (keep everything) or more.");
        }
        if (keepFailed.compareTo(Duration.ofHours(1)) < 0) {
            throw new InvalidParameter(
                    "SCORECAST_RETENTION_FAILED_HOURS", "SCORECAST_RETENTION_FAILED_HOURS must be at least 1.");
        }
        if (grace.compareTo(MIN_GRACE) < 0) {
            throw new InvalidParameter(
                    "SCORECAST_ORPHAN_GRACE_HOURS",
                    "SCORECAST_ORPHAN_GRACE_HOURS must be at least " + MIN_GRACE.toHours()
                            + ": a younger file may still be another node's work in progress.");
        }
    }

    public boolean keepsEverything() {
        return keep.isZero();
    }

    static RetentionSettings from(Settings settings) {
        return new RetentionSettings(
                Duration.ofHours(settings.integer("SCORECAST_RETENTION_HOURS", 720)),
                Duration.ofHours(settings.integer("SCORECAST_ORPHAN_GRACE_HOURS", 24)),
                Duration.ofHours(settings.integer("SCORECAST_RETENTION_FAILED_HOURS", 72)));
    }
}
