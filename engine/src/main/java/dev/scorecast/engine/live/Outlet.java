package dev.scorecast.engine.live;

import dev.scorecast.engine.media.LiveEncoder;
import java.io.ByteArrayOutputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One format of one performance: a single encoder whose chunks go to every listener in that
 * format, so that listeners of one stream (and sessions sharing a performance) cost one encode.
 * Encoding runs on the render loop; a listener that cannot keep up is dropped, never waited for.
 *
 * <p>A joining listener gets the backlog at once, as one chunk, sized so that a plain player starts at once: Chromium's
 * media cache hands data to its demuxer in 32 KiB blocks and, for a response with neither a length nor a duration (any
 * live stream), reports enough data to play (the moment {@code <audio autoplay>} starts) only once it holds 64 KiB at
 * its first look, or 128 KiB later; and its audio renderer wants about 2.3 s decoded. So the backlog holds at least
 * {@link #startBytes} and {@link #START_FRAMES} of the last audio (docs/PLAYER.md, "Plain players").
 */
final class Outlet implements AutoCloseable {
    /**
     * What a plain player needs at once to start: Chromium's two 32 KiB blocks beyond where its demuxer stands after
     * reading the stream's start, with a margin. Measured on a playing stream: 72 KiB at once started AAC in 0.03 to 3.5 s
     * (the demuxer sometimes reads a block further first); MP3 with 80 KiB in 0.6 s, 90 KiB in 2.7 s, 100 KiB at once.
     */
    static int startBytes(LiveEncoder.Format format) {
        return 112 * 1024;
    }

    /** And this much audio (WAV: Chromium decodes about 2.3 s before it plays). */
    static final int START_FRAMES = 3 * Performance.RATE;
    /** Never more than this in the backlog (a silent AAC stream is small; its bytes must not grow the backlog without end). */
    static final int MAX_BACKLOG_FRAMES = 12 * Performance.RATE;
    /** Chunks kept at least: a few blocks, so that the first bytes leave at once even right after a start. */
    static final int BACKLOG = 8;

    private final LiveEncoder encoder;
    private final byte[] header;
    private final int startBytes;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** The last chunks, given to a listener as it joins (see the class comment). */
    private final ArrayDeque<Chunk> backlog = new ArrayDeque<>();

    private long backlogBytes;
    private long backlogFrames;
    /** Frames the encoder took without giving a chunk yet (its delay): they belong to the next chunk. */
    private int uncounted;
    /** Chunks kept at least: the backlog, plus what covers the performance's lead after a burst. */
    private int keep = BACKLOG;
    /**
     * While a new outlet encodes the recent audio it starts with (on a caller's thread, outside every lock the render loop
     * takes), blocks from the loop wait here, copied, and are encoded after it: the encoder is used by one thread at a time.
     */
    private boolean priming;

    private final ArrayDeque<Block> held = new ArrayDeque<>();

    private record Chunk(long frame, int frames, byte[] bytes) {}

    /** Planar-free audio waiting to be encoded: {@code frames} interleaved stereo frames from performance frame {@code first}. */
    record Block(long first, int frames, float[] interleaved) {}

    Outlet(LiveEncoder.Format format) {
        this.encoder = LiveEncoder.open(format);
        this.header = encoder.header();
        this.startBytes = startBytes(format);
    }

    LiveEncoder.Format format() {
        return encoder.format();
    }

    /**
     * Adds a listener: the header first, the backlog, then every chunk from the next block on. A listener
     * {@code continuing} a stream from another outlet (a fork) gets no WAV header, which would play
     * as a click mid-stream, nor the backlog (audio it would get twice); an Ogg one does get the header, since this
     * outlet's pages are a new chained stream. A listener joining silence ({@code playing} false) gets only the last
     * {@link #keep} chunks: seconds of past silence would start a plain player at once, and then hold the music back
     * that long when it starts.
     */
    synchronized void add(Listener listener, boolean continuing, boolean playing) {
        awaitPrimed();
        if (header.length > 0 && !(continuing && encoder.format() == LiveEncoder.Format.WAV)) {
            listener.offer(header);
        }
        if (!continuing && !backlog.isEmpty()) {
            // One chunk: the backlog may hold more chunks than a listener's queue.
            ByteArrayOutputStream all = new ByteArrayOutputStream((int) backlogBytes);
            int skip = playing ? 0 : Math.max(0, backlog.size() - keep);
            long first = -1;
            for (Chunk c : backlog) {
                if (skip-- > 0) {
                    continue;
                }
                first = first < 0 ? c.frame() : first;
                all.writeBytes(c.bytes());
            }
            listener.firstAudio(first);
            listener.offer(all.toByteArray());
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

    /** How many chunks a joining listener gets at once at least from now on (the backlog, at least). */
    synchronized void keep(int chunks) {
        keep = Math.max(BACKLOG, chunks);
    }

    /** How much of the last audio a new outlet of {@code format} must encode to fill its backlog as a joining listener needs. */
    static int primingFrames(LiveEncoder.Format format) {
        long bytesWorth = (long) startBytes(format) * 8 * Performance.RATE / format.bitRate();
        // A quarter more: the coded rate varies around the nominal one, and VBR Opus runs well under it on quiet music
        // (10 s of a calm opening gave 110 KiB at 96 kb/s nominal).
        return (int) Math.min(MAX_BACKLOG_FRAMES, Math.max(START_FRAMES, bytesWorth * 5 / 4));
    }

    /** Marks this new outlet as about to be primed: the loop's blocks wait until {@link #prime} has run. */
    synchronized void primingStarts() {
        priming = true;
    }

    /** Encodes {@code recent} (oldest first) into the backlog, then the blocks that came meanwhile; on a caller's thread. */
    void prime(List<Block> recent) {
        try {
            for (Block b : recent) {
                byte[] chunk = encoder.encode(
                        b.interleaved(), b.frames()); // the loop does not touch the encoder while priming
                synchronized (this) {
                    remember(b.first(), b.frames(), chunk);
                }
            }
        } finally {
            synchronized (this) {
                for (Block b : held) {
                    send(b.interleaved(), b.frames(), b.first());
                }
                held.clear();
                priming = false;
                notifyAll();
            }
        }
    }

    private void awaitPrimed() {
        boolean interrupted = false;
        while (priming) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** From the render loop. */
    synchronized void accept(float[] interleaved, int frames, long firstFrame) {
        if (priming) {
            held.addLast(new Block(firstFrame, frames, Arrays.copyOf(interleaved, 2 * frames)));
            return;
        }
        send(interleaved, frames, firstFrame);
    }

    private void send(float[] interleaved, int frames, long firstFrame) {
        byte[] chunk = encoder.encode(interleaved, frames);
        if (!remember(firstFrame, frames, chunk)) {
            return;
        }
        for (Listener l : listeners) {
            l.firstAudio(firstFrame);
            l.offer(chunk);
        }
    }

    /** Adds a chunk to the backlog and trims it; false when the encoder gave nothing. */
    private boolean remember(long firstFrame, int frames, byte[] chunk) {
        if (chunk.length == 0) {
            uncounted += frames;
            return false;
        }
        int counted = frames + uncounted;
        uncounted = 0;
        backlog.addLast(new Chunk(firstFrame, counted, chunk));
        backlogBytes += chunk.length;
        backlogFrames += counted;
        while (backlog.size() > keep) {
            Chunk oldest = backlog.getFirst();
            boolean enoughWithout = backlogBytes - oldest.bytes().length >= startBytes
                    && backlogFrames - oldest.frames() >= START_FRAMES;
            if (!enoughWithout && backlogFrames - oldest.frames() < MAX_BACKLOG_FRAMES) {
                break;
            }
            backlog.removeFirst();
            backlogBytes -= oldest.bytes().length;
            backlogFrames -= oldest.frames();
        }
        return true;
    }

    @Override
    public synchronized void close() {
        awaitPrimed(); // the encoder may be in use by prime()
        listeners.forEach(l -> l.close("the stream ended"));
        listeners.clear();
        encoder.close();
    }
}
