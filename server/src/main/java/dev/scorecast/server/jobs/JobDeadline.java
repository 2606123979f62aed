package dev.scorecast.server.jobs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * How long one run of a job may take. The work reports progress many times a second from every
 * stage, so the progress callback is where the deadline is checked: {@link #check()} throws
 * {@link Passed} there, which unwinds the work like any failure, and the job ends as
 * {@code deadline_exceeded} instead of holding a worker for ever.
 */
public final class JobDeadline {
    private final Clock clock;
    private final Instant at;
    private final Duration allowed;
    /** The memory budget of the job whose worker made this deadline, checked with it (JobMemory). */
    private final Optional<JobMemory.Watch> memory;

    private JobDeadline(Clock clock, Duration allowed) {
        this.clock = clock;
        this.allowed = allowed;
        this.memory = JobMemory.current();
        this.at = clock.instant().plus(allowed);
    }

    /**
     * Two minutes to start, plus ten times the video's length: analysing or scoring a minute of video
     * takes seconds on two cores, so only a stuck or starved run comes near it.
     */
    public static JobDeadline forVideo(double videoSeconds, Clock clock) {
        return new JobDeadline(clock, Duration.ofSeconds(120 + (long) Math.ceil(10 * Math.max(0, videoSeconds))));
    }

    public Duration allowed() {
        return allowed;
    }

    /** Throws {@link Passed} once the deadline has passed, {@link JobMemory.Exceeded} once the job is over its memory budget. */
    public void check() {
        memory.ifPresent(JobMemory.Watch::check);
        if (clock.instant().isAfter(at)) {
            throw new Passed(allowed);
        }
    }

    /** The allowance of the deadline that ended {@code failure}, also when a stage's thread threw it and it arrives wrapped. */
    public static Optional<Duration> passedIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof Passed passed) {
                return Optional.of(passed.allowed);
            }
        }
        return Optional.empty();
    }

    /** The signal; no stack trace, since it is expected and says everything in its allowance. */
    public static final class Passed extends RuntimeException {
        private final Duration allowed;

        Passed(Duration allowed) {
            super("the job passed its deadline of " + allowed.toSeconds() + " s", null, false, false);
            this.allowed = allowed;
        }
    }
}
