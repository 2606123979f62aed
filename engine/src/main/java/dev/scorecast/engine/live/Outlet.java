package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One format of one performance: a single encoder whose chunks go to every listener in that
 * format, so that listeners of one stream (and sessions sharing a performance) cost one encode.
 * Encoding runs on the render loop; a listener that cannot keep up is dropped, never waited for.
 */
final class Outlet implements AutoCloseable {
    private final LiveEncoder encoder;
    private final byte[] header;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /**
     * The last few chunks, given to a listener as it joins: its first bytes leave at once instead
     * of at the next packet, and a player gets a little audio to start on.
     */
    private final java.util.ArrayDeque<Chunk> backlog = new java.util.ArrayDeque<>();
    static final int BACKLOG = 8;
    /** Chunks kept for joining listeners: the backlog, plus what covers the performance's lead after a burst. */
    private int keep = BACKLOG;

    private record Chunk(long frame, byte[] bytes) {}

    Outlet(LiveEncoder.Format format) {
        this.encoder = LiveEncoder.open(format);
        this.header = encoder.header();
    }

    /**
     * Adds a listener: the header first, the backlog, then every chunk from the next block on. A listener
     * {@code continuing} a stream from another outlet (a fork) gets no WAV header, which would play
     * as a click mid-stream, nor the backlog (audio it would get twice); an Ogg one does get the header, since this
     * outlet's pages are a new chained stream.
     */
    synchronized void add(Listener listener, boolean continuing) {
        if (header.length > 0 && !(continuing && encoder.format() == LiveEncoder.Format.WAV)) {
            listener.offer(header);
        }
        if (!continuing) {
            for (Chunk c : backlog) {
                listener.firstAudio(c.frame());
                listener.offer(c.bytes());
            }
        }
        listener.outlet = this;
        listeners.add(listener);
    }

    void remove(Listener listener) {
        listeners.remove(listener);
    }

    boolean idle() {
        return listeners.isEmpty();
    }

    int listeners() {
        return listeners.size();
    }

    List<Listener> snapshot() {
        return List.copyOf(listeners);
    }

    /** How many chunks a joining listener gets at once from now on (the backlog, at least). */
    synchronized void keep(int chunks) {
        keep = Math.max(BACKLOG, chunks);
    }

    /** From the render loop. */
    synchronized void accept(float[] interleaved, int frames, long firstFrame) {
        byte[] chunk = encoder.encode(interleaved, frames);
        if (chunk.length == 0) {
            return;
        }
        backlog.addLast(new Chunk(firstFrame, chunk));
        while (backlog.size() > keep) {
            backlog.removeFirst();
        }
        for (Listener l : listeners) {
            l.firstAudio(firstFrame);
            l.offer(chunk);
        }
    }

    @Override
    public synchronized void close() {
        listeners.forEach(l -> l.close("the stream ended"));
        listeners.clear();
        encoder.close();
    }
}
