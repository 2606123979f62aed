package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;

/**
 * A listener on an experience's shared performance held by something other than a user's session: a publisher that
 * writes the shared music once for any number of listeners elsewhere (HLS segments behind a CDN). It counts as one
 * session of that performance, so the music plays while it is held and stops when the last holder lets go.
 */
public final class SharedTap implements AutoCloseable {
    private final LiveEngine engine;
    private final Experience experience;
    private final Performance performance;
    private final Listener listener;
    private boolean closed;

    SharedTap(LiveEngine engine, Experience experience, LiveEncoder.Format format) {
        this.engine = engine;
        this.experience = experience;
        engine.prepare(experience.genre(), null);
        this.performance = engine.acquireShared(experience);
        this.listener = new Listener(format);
        performance.attach(listener);
    }

    public Experience experience() {
        return experience;
    }

    /** The encoded chunks, as a stream's listener gets them (the backlog first). */
    public Listener listener() {
        return listener;
    }

    /** Where the shared music stands now. */
    public Transport transport() {
        return performance.transport();
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        performance.detach(listener);
        listener.close("the publisher stopped");
        engine.releaseShared(experience, performance);
    }
}
