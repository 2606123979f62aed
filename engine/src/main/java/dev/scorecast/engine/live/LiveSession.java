package dev.scorecast.engine.live;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One user's stream: the performance it plays and the listeners connected to it. While the
 * session plays an experience as it comes, it rides the experience's shared performance; the
 * first control that changes something (stop, intensity, vocals, a plan) forks a private copy at
 * the next block and moves this session's listeners to it, so other sessions hear no change.
 *
 * <p>Thread-safe: every call is serialised on the session; the performance sees only queued controls.
 */
public final class LiveSession {
    private static final long WAIT_SECONDS = 5;

    private final LiveEngine engine;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private Performance performance;
    private boolean shared;
    private Experience sharedExperience;
    private Experience experience;
    private Double intensity;
    private Boolean vocals;
    private boolean ended;

    LiveSession(LiveEngine engine) {
        this.engine = engine;
        this.performance = engine.newPerformance();
    }

    /** Plays {@code next}: at once when stopped, from the next bar line when something plays. */
    public synchronized void start(Experience next) {
        live();
        engine.prepare(next.genre(), null);
        experience = next;
        if (intensity == null && vocals == null) {
            Performance target = engine.acquireShared(next);
            if (target == performance) {
                engine.releaseShared(next, target); // already there: keep one count
                return;
            }
            moveTo(target, next);
            // A new shared performance starts once its first section is composed; answer once it plays
            // (or, past the wait or when it ended, at once: the listeners are on it either way).
            try {
                target.firstPlayed().get(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting", e);
            } catch (ExecutionException | TimeoutException e) {
                // ended or slow: as before, the session rides it all the same
            }
            return;
        }
        if (!performance.now().playing()) {
            engine.admit();
        }
        if (shared) {
            moveTo(engine.newPerformance(), null);
        }
        var applied = new CompletableFuture<AppliesAt>();
        performance.send(new Control.Start(
                next,
                intensity != null ? intensity : next.intensity(),
                vocals != null ? vocals : next.vocals(),
                applied));
        await(applied, "start");
    }

    /** Fades out over one beat; listeners stay connected and hear silence. */
    public synchronized void stop() {
        live();
        if (!performance.now().playing()) {
            return;
        }
        ownCopy();
        performance.send(new Control.Stop());
    }

    public synchronized void setIntensity(double value) {
        live();
        if (!(value >= 0 && value <= 1)) {
            throw new InvalidParameter("intensity", "intensity must be a number from 0 to 1, not " + value + ".");
        }
        intensity = value;
        if (shared) {
            engine.admit();
        }
        ownCopy();
        performance.send(new Control.SetIntensity(value));
    }

    /** The sung layer on or off from the next bar line; answers where that is (null when nothing changes). */
    public synchronized AppliesAt setVocals(boolean on) {
        live();
        vocals = on;
        if (shared && experience != null && on == experience.vocals()) {
            return null; // what the shared performance already does
        }
        if (shared) {
            engine.admit();
        }
        ownCopy();
        var applied = new CompletableFuture<AppliesAt>();
        performance.send(new Control.SetVocals(on, applied));
        return await(applied, "switch the vocals");
    }

    /** Plays {@code plan} (already validated) from the next bar line; answers where that is. */
    public synchronized AppliesAt replacePlan(Plan plan) {
        live();
        engine.prepare(plan.genre(), plan);
        if (shared || !performance.now().playing()) {
            engine.admit();
        }
        ownCopy();
        var applied = new CompletableFuture<AppliesAt>();
        performance.send(new Control.ReplacePlan(plan, applied));
        return await(applied, "apply the plan");
    }

    /** A new listener in {@code format}; it hears this session's audio from the next block on. */
    public synchronized Listener listen(LiveEncoder.Format format) {
        live();
        Listener l = new Listener(format);
        listeners.add(l);
        performance.attach(l);
        return l;
    }

    /** Forgets a listener whose connection ended. */
    public void disconnected(Listener l) {
        l.close("disconnected");
        listeners.remove(l);
    }

    /** Listeners connected now (closed ones are forgotten). */
    public int listeners() {
        listeners.removeIf(Listener::closed);
        return listeners.size();
    }

    public Transport transport() {
        return performance.transport();
    }

    public NowPlaying now() {
        return performance.now();
    }

    /** The experience last started, or null. */
    public synchronized Experience experience() {
        return experience;
    }

    /** Whether the session rides a shared performance (for tests and metrics). */
    public synchronized boolean shared() {
        return shared;
    }

    /** Ends the stream: listeners are disconnected and the performance freed unless others share it. */
    public synchronized void end() {
        if (ended) {
            return;
        }
        ended = true;
        for (Listener l : listeners) {
            performance.detach(l);
            l.close("the stream ended");
        }
        listeners.clear();
        if (shared) {
            engine.releaseShared(sharedExperience, performance);
        } else {
            performance.close();
        }
    }

    public synchronized boolean ended() {
        return ended;
    }

    private void live() {
        if (ended) {
            throw new NotFound("stream", "The stream has ended; create a new one with POST /player/create-stream.");
        }
    }

    /** Moves this session's listeners to {@code target} and lets go of the old performance. */
    private void moveTo(Performance target, Experience targetShared) {
        Performance old = performance;
        for (Listener l : listeners) {
            old.detach(l);
            target.attachMoved(l);
        }
        if (shared) {
            engine.releaseShared(sharedExperience, old);
        } else {
            old.close();
        }
        performance = target;
        shared = targetShared != null;
        sharedExperience = targetShared;
    }

    /** Leaves the shared performance for a copy of it made at a block boundary, taking this session's listeners along. */
    private void ownCopy() {
        if (!shared) {
            return;
        }
        var forked = new CompletableFuture<Performance>();
        Performance source = performance;
        source.send(new Control.Fork(List.copyOf(listeners), forked));
        Performance copy = await(forked, "fork the performance");
        engine.register(copy);
        engine.releaseShared(sharedExperience, source);
        performance = copy;
        shared = false;
        sharedExperience = null;
    }

    private static <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the live loop failed to " + what, e.getCause());
        } catch (TimeoutException e) {
            // The loops are too busy to answer: the machine is past its capacity.
            throw new Busy("The player is too busy to " + what + " now; try again shortly.", Duration.ofSeconds(10));
        }
    }
}
