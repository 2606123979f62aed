package dev.scorecast.server.player;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.live.Listener;
import dev.scorecast.engine.live.SharedTap;
import dev.scorecast.engine.media.Fmp4Audio;
import dev.scorecast.engine.media.LiveEncoder;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One shared experience published as low-latency HLS: the AAC chunks of one listener on the experience's shared
 * performance, cut into CMAF fragments of {@link #PART_FRAMES} AAC frames (parts of 0.49 s) and segments of
 * {@link #PARTS_PER_SEGMENT} parts (1.96 s), written once for every listener, kept for a short window and served as
 * immutable files. A thread per channel reads the listener; HTTP threads read the window and may wait for the next part
 * (blocking playlist reload and preload hints), never the other way round.
 */
public final class HlsChannel implements AutoCloseable {
    /** AAC frames per part: 23 x 1024 samples = 0.4907 s, the largest whole count within the 0.5 s part target. */
    public static final int PART_FRAMES = 23;
    /** Parts per segment: 4 x 0.4907 = 1.963 s, within the 2 s target duration. */
    public static final int PARTS_PER_SEGMENT = 4;
    /** Segments listed (and kept): 6 x 1.96 s, about 12 s. */
    static final int WINDOW_SEGMENTS = 6;
    /** Segments whose parts are still listed: the last three target durations, as the HLS specification asks. */
    static final int PART_SEGMENTS = 3;

    private static final int RATE = LiveEncoder.RATE;

    private final SharedTap tap;
    private final Thread reader;
    private final byte[] init;
    private final ArrayDeque<Segment> segments = new ArrayDeque<>();
    /** The parts of the segment being written. */
    private final List<byte[]> open = new ArrayList<>();

    private final List<byte[]> frames = new ArrayList<>();
    private long nextSequence; // media sequence number of the segment being written
    private long fragments;
    private long framesWritten;
    /**
     * Wall time at which the first sample was rendered (the program date time of sample 0): over the channel's first
     * {@link #ANCHOR_NANOS}, the latest of (arrival of a chunk - the audio up to its end), since a chunk can arrive late but
     * not before it is rendered; the first chunk (the backlog) and a new performance's burst come at once. Fixed after
     * that, so a segment's date never changes.
     */
    private long epochMillis = Long.MIN_VALUE;

    private static final long ANCHOR_NANOS = 3_000_000_000L;
    /** The node's time, which the program date times are written in. */
    private final Clock clock;
    /** Times the anchoring window and how long the channel has been idle. */
    private final Ticker ticker;

    private final long openedNanos;
    private volatile boolean closed;
    private volatile long lastRequestNanos;
    /**
     * This channel's run, in every file name: a channel opened again (after it was idle) numbers its segments from 0
     * again, and a cache holding the earlier run's files as immutable must never serve them for the new ones.
     */
    private final String run;

    /** A finished segment: its parts (each a fragment) and their concatenation; {@code firstFrame} counts AAC frames. */
    record Segment(long sequence, long firstFrame, List<byte[]> parts, byte[] bytes) {}

    HlsChannel(SharedTap tap, Clock clock, Ticker ticker) {
        this.tap = tap;
        this.clock = clock;
        this.ticker = ticker;
        this.openedNanos = ticker.nanos();
        this.lastRequestNanos = openedNanos;
        // A name, not a time anything is compared with: the wall clock's milliseconds differ between runs even on a
        // node whose injected clock stands still (a test's virtual time), which would name two runs alike.
        this.run = Long.toString(System.currentTimeMillis(), 36);
        this.init = Fmp4Audio.init(RATE, 2, 128_000);
        this.reader = Thread.ofPlatform()
                .daemon()
                .name("scorecast-hls-" + tap.experience().id())
                .start(this::read);
    }

    public String run() {
        return run;
    }

    public String experienceId() {
        return tap.experience().id();
    }

    public byte[] init() {
        touch();
        return init.clone();
    }

    void touch() {
        lastRequestNanos = ticker.nanos();
    }

    long idleNanos() {
        return ticker.nanos() - lastRequestNanos;
    }

    private void read() {
        Listener l = tap.listener();
        try {
            while (!closed) {
                byte[] chunk = l.next(1000);
                if (chunk == null) {
                    break;
                }
                if (chunk.length == 0) {
                    continue;
                }
                List<byte[]> raw = new ArrayList<>();
                Fmp4Audio.adtsFrames(chunk, raw::add);
                synchronized (this) {
                    long end = framesWritten + frames.size() + raw.size();
                    if (ticker.nanos() - openedNanos < ANCHOR_NANOS || epochMillis == Long.MIN_VALUE) {
                        epochMillis = Math.max(epochMillis, clock.millis() - end * Fmp4Audio.FRAME * 1000 / RATE);
                    }
                    for (byte[] f : raw) {
                        add(f);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                closed = true;
                notifyAll();
            }
        }
    }

    /** Under the lock: one raw AAC frame; closes a part (and a segment) when full and wakes whoever waits for it. */
    private void add(byte[] frame) {
        frames.add(frame);
        if (frames.size() < PART_FRAMES) {
            return;
        }
        long first = framesWritten;
        open.add(Fmp4Audio.fragment(++fragments, first * Fmp4Audio.FRAME, frames));
        framesWritten += frames.size();
        frames.clear();
        if (open.size() == PARTS_PER_SEGMENT) {
            int size = open.stream().mapToInt(p -> p.length).sum();
            byte[] all = new byte[size];
            int at = 0;
            for (byte[] p : open) {
                System.arraycopy(p, 0, all, at, p.length);
                at += p.length;
            }
            segments.addLast(new Segment(
                    nextSequence++, framesWritten - (long) PART_FRAMES * PARTS_PER_SEGMENT, List.copyOf(open), all));
            open.clear();
            while (segments.size() > WINDOW_SEGMENTS) {
                segments.removeFirst();
            }
        }
        notifyAll();
    }

    /** Whether part {@code part} of segment {@code sequence} exists (part -1: the whole segment). */
    private boolean has(long sequence, int part) {
        if (sequence < nextSequence) {
            return true;
        }
        return sequence == nextSequence && part >= 0 && part < open.size();
    }

    /**
     * Waits up to {@code millis} for part {@code part} of segment {@code sequence} (or the whole segment for -1) to be
     * written: a low-latency client asks for the next part before it exists. False when it did not come in time.
     */
    public synchronized boolean await(long sequence, int part, long millis) throws InterruptedException {
        touch();
        long deadline = ticker.nanos() + millis * 1_000_000;
        while (!has(sequence, part) && !closed) {
            long left = deadline - ticker.nanos();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return has(sequence, part);
    }

    /** Segment {@code sequence}, null when not (or no longer) in the window. */
    public synchronized byte[] segment(long sequence) {
        touch();
        for (Segment s : segments) {
            if (s.sequence() == sequence) {
                return s.bytes();
            }
        }
        return null;
    }

    /** Part {@code part} of segment {@code sequence}, null when not (or no longer) there. */
    public synchronized byte[] part(long sequence, int part) {
        touch();
        if (sequence == nextSequence) {
            return part >= 0 && part < open.size() ? open.get(part) : null;
        }
        for (Segment s : segments) {
            if (s.sequence() == sequence) {
                return part >= 0 && part < s.parts().size() ? s.parts().get(part) : null;
            }
        }
        return null;
    }

    /** The media sequence number and part of the next part to be written. */
    public synchronized long[] next() {
        return new long[] {nextSequence, open.size()};
    }

    /** Whether at least one segment is there to list. */
    synchronized boolean ready() {
        return !segments.isEmpty();
    }

    /** The media playlist (RFC 8216bis, low-latency HLS), segments and parts named relative to it. */
    public synchronized String playlist() {
        touch();
        StringBuilder m = new StringBuilder(2048);
        double part = PART_FRAMES * (double) Fmp4Audio.FRAME / RATE;
        m.append("#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n");
        m.append(String.format(Locale.ROOT, "#EXT-X-PART-INF:PART-TARGET=%.5f\n", part));
        // Blocking reload; a player holds back three parts from the live edge.
        m.append(String.format(
                Locale.ROOT,
                "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=%.5f,HOLD-BACK=6.0\n",
                3 * part));
        long first = segments.isEmpty() ? nextSequence : segments.getFirst().sequence();
        m.append("#EXT-X-MEDIA-SEQUENCE:").append(first).append('\n');
        m.append("#EXT-X-MAP:URI=\"init.mp4\"\n");
        int listedParts = 0;
        for (Segment s : segments) {
            if (s == segments.getFirst()) {
                long sample = s.firstFrame() * Fmp4Audio.FRAME;
                m.append("#EXT-X-PROGRAM-DATE-TIME:")
                        .append(Instant.ofEpochMilli(epochMillis + sample * 1000 / RATE))
                        .append('\n');
            }
            if (s.sequence() >= nextSequence - PART_SEGMENTS) {
                for (int i = 0; i < s.parts().size(); i++) {
                    partLine(m, part, s.sequence(), i);
                }
                listedParts++;
            }
            m.append(String.format(Locale.ROOT, "#EXTINF:%.5f,\n", PARTS_PER_SEGMENT * part))
                    .append("media/")
                    .append(run)
                    .append("-s")
                    .append(s.sequence())
                    .append(".m4s\n");
        }
        for (int i = 0; i < open.size(); i++) {
            partLine(m, part, nextSequence, i);
        }
        m.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"media/")
                .append(run)
                .append("-p")
                .append(nextSequence)
                .append('.')
                .append(open.size())
                .append(".m4s\"\n");
        return m.toString();
    }

    private void partLine(StringBuilder m, double part, long sequence, int i) {
        // Every AAC frame decodes on its own: every part is independent.
        m.append(String.format(
                Locale.ROOT,
                "#EXT-X-PART:DURATION=%.5f,URI=\"media/%s-p%d.%d.m4s\",INDEPENDENT=YES\n",
                part,
                run,
                sequence,
                i));
    }

    @Override
    public void close() {
        closed = true;
        tap.close();
        reader.interrupt();
    }

    boolean closed() {
        return closed;
    }
}
