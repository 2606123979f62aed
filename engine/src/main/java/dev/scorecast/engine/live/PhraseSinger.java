package dev.scorecast.engine.live;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.voice.singing.Singer;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Sings the phrases of every live performance of an engine, off the render loops: one thread
 * that always sings the phrase due soonest, and a cache of sung phrases keyed by their notes at the
 * tempo they are played (the notes' times carry the tempo), so performances playing the same thing
 * share one singing and a line sung again costs nothing.
 *
 * <p>A render loop {@link #ask asks} for a phrase with the moment it must be ready, holds on to
 * the future, and {@link #drop drops} its interest once the phrase has started or is no longer
 * wanted (a tempo change, vocals off, stop). A phrase nobody wants any more is not sung; one whose
 * moment has passed before its turn is not sung either (its future is cancelled): the loop would
 * skip it anyway, and singing it would only make the next phrases late as well.
 */
final class PhraseSinger implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PhraseSinger.class.getName());
    /** Sung audio kept for reuse once no performance holds it: 8 M samples, about 3 minutes of vocals, 32 MB. */
    static final long DEFAULT_CACHE_SAMPLES = 8L << 20;

    private final Supplier<? extends Singer> singers;
    private final Ticker ticker;
    private final long cacheSamples;
    private final Object lock = new Object();
    /** Every phrase asked for and not evicted, least recently asked first. */
    private final LinkedHashMap<List<SungNote>, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);

    private final PriorityQueue<Entry> due = new PriorityQueue<>(Comparator.comparingLong((Entry e) -> e.deadline));
    private long cachedSamples;
    private Singer singer;
    private Thread thread;
    private volatile boolean closed;
    private boolean failureLogged;

    private final AtomicLong sung = new AtomicLong();
    private final AtomicLong sungSamples = new AtomicLong();
    private final AtomicLong singingNanos = new AtomicLong();
    private final AtomicLong expired = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    /** Lines that expired waiting for the render loops to have CPU to spare. */
    private final AtomicLong shed = new AtomicLong();

    private static final long HEADROOM_WAIT_MILLIS = 50;
    private final BooleanSupplier headroom;
    private final AtomicLong started = new AtomicLong();

    /** A phrase: its future, how many performances want it, and when the soonest needs it. */
    private static final class Entry {
        final List<SungNote> notes;
        final CompletableFuture<Vocal> future = new CompletableFuture<>();
        int interest;
        long deadline;
        boolean waitedForHeadroom;
        boolean queued;
        long samples;

        Entry(List<SungNote> notes, long deadline) {
            this.notes = notes;
            this.deadline = deadline;
        }
    }

    /**
     * @param singers      makes the singer, on first use on the singing thread (espeak-ng is started only when a line is sung)
     * @param ticker       the time deadlines are given in ({@link Ticker#SYSTEM} live, {@link Ticker.Manual} in tests)
     * @param cacheSamples sung samples to keep for reuse beyond those the performances hold
     */
    PhraseSinger(Supplier<? extends Singer> singers, Ticker ticker, long cacheSamples) {
        this(singers, ticker, cacheSamples, () -> true);
    }

    /**
     * @param headroom whether the render loops can spare the CPU a line takes now; when they cannot,
     *                 the line is not sung (its loop skips it) rather than have every stream fall behind
     */
    PhraseSinger(Supplier<? extends Singer> singers, Ticker ticker, long cacheSamples, BooleanSupplier headroom) {
        this.singers = singers;
        this.ticker = ticker;
        this.cacheSamples = cacheSamples;
        this.headroom = headroom;
    }

    /**
     * Starts the singing thread ("scorecast-live-singer"), which first warms the singer up; without
     * it, phrases are sung only by {@link #singNext}.
     */
    PhraseSinger start() {
        synchronized (lock) {
            if (thread == null && !closed) {
                thread = new Thread(this::run, "scorecast-live-singer");
                thread.setDaemon(true);
                // Below the render loops: a singer short of CPU costs skipped lines, a late loop costs everyone's
                // audio.
                thread.setPriority(Thread.MIN_PRIORITY);
                thread.start();
            }
        }
        return this;
    }

    /**
     * The phrase {@code notes} sung, ready by {@code deadlineNanos} if the singer keeps up; counts
     * one more interest in it until {@link #drop}. Cancelled when its deadline passes unsung.
     */
    CompletableFuture<Vocal> ask(List<SungNote> notes, long deadlineNanos) {
        synchronized (lock) {
            Entry e = entries.get(notes);
            if (e != null && e.future.isCompletedExceptionally()) {
                entries.remove(notes); // missed or failed before: try again
                e = null;
            }
            if (e == null) {
                e = new Entry(notes, deadlineNanos);
                entries.put(notes, e);
                e.queued = true;
                due.add(e);
                lock.notifyAll();
            } else if (e.queued && deadlineNanos < e.deadline) {
                due.remove(e);
                e.deadline = deadlineNanos;
                due.add(e);
            }
            e.interest++;
            return e.future;
        }
    }

    /** One more interest in a phrase already asked for (a forked performance holds it too). */
    void share(List<SungNote> notes) {
        synchronized (lock) {
            Entry e = entries.get(notes);
            if (e != null) {
                e.interest++;
            }
        }
    }

    /** One interest less: the phrase started (its samples are held by the voice) or is not wanted any more. */
    void drop(List<SungNote> notes) {
        synchronized (lock) {
            Entry e = entries.get(notes);
            if (e != null && e.interest > 0) {
                e.interest--;
                evict();
            }
        }
    }

    /**
     * Sings the phrase due soonest that someone still wants and that can still be on time.
     *
     * @param wait whether to wait for one to be asked for
     * @return false when there was none (and {@code wait} was false), or the singer is closed
     */
    boolean singNext(boolean wait) {
        Entry e;
        synchronized (lock) {
            while (true) {
                e = due.poll();
                if (e == null) {
                    if (!wait || closed) {
                        return false;
                    }
                    try {
                        lock.wait();
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                    continue;
                }
                e.queued = false;
                if (e.interest > 0 && e.deadline >= ticker.nanos()) {
                    if (headroom.getAsBoolean()) {
                        break;
                    }
                    // In time, but the render loops are short of CPU: the voice waits for them, and
                    // gives way (its line expires) if they stay busy, rather than every stream falling behind.
                    e.waitedForHeadroom = true;
                    e.queued = true;
                    due.add(e);
                    try {
                        lock.wait(HEADROOM_WAIT_MILLIS);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                    continue;
                }
                // Nobody wants it any more, or it can no longer be on time: its loop skips it.
                if (e.interest > 0) {
                    (e.waitedForHeadroom ? shed : expired).incrementAndGet();
                }
                entries.remove(e.notes, e);
                e.future.cancel(false);
            }
        }
        sing(e);
        return true;
    }

    /** Sings everything asked for so far (tests and measurements drive the singer this way instead of the thread). */
    void singAll() {
        while (singNext(false)) {
            // next
        }
    }

    private void sing(Entry e) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadCpuTime();
        // The singer's real cost, for the log: read on the system's ticker, not the injected one, because a test on
        // virtual time would log every line as sung in no time.
        long wallBefore = Ticker.SYSTEM.nanos();
        Vocal vocal;
        try {
            vocal = singer().sing(e.notes);
        } catch (RuntimeException failure) {
            synchronized (lock) {
                entries.remove(e.notes, e);
                if (!failureLogged) {
                    failureLogged = true;
                    LOG.log(System.Logger.Level.WARNING, "the live singer failed; its phrases are skipped", failure);
                }
            }
            e.future.completeExceptionally(failure);
            return;
        }
        long cpu = threads.getCurrentThreadCpuTime() - before;
        singingNanos.addAndGet(cpu);
        LOG.log(
                System.Logger.Level.DEBUG,
                () -> String.format(
                        "sang %d notes (%.2f s) in %.0f ms (%.0f ms CPU), %.0f ms before its deadline",
                        e.notes.size(),
                        vocal.durationSeconds(),
                        (Ticker.SYSTEM.nanos() - wallBefore) / 1e6,
                        cpu / 1e6,
                        (e.deadline - ticker.nanos()) / 1e6));
        sung.incrementAndGet();
        sungSamples.addAndGet(vocal.samples().length);
        synchronized (lock) {
            e.samples = vocal.samples().length;
            if (entries.get(e.notes) == e) {
                cachedSamples += e.samples;
            }
            e.future.complete(vocal);
            evict();
        }
    }

    private Singer singer() {
        if (singer == null) {
            singer = singers.get();
        }
        return singer;
    }

    /** Forgets the least recently asked phrases that nobody holds until the cache is within its size. */
    private void evict() {
        Iterator<Map.Entry<List<SungNote>, Entry>> it = entries.entrySet().iterator();
        while (cachedSamples > cacheSamples && it.hasNext()) {
            Entry e = it.next().getValue();
            if (e.interest == 0 && e.future.isDone()) {
                it.remove();
                cachedSamples -= e.samples;
            }
        }
    }

    private void run() {
        warmUp();
        while (!closed && !Thread.currentThread().isInterrupted()) {
            try {
                singNext(true);
            } catch (RuntimeException e) {
                // A broken phrase must not end the thread that sings every performance's.
                LOG.log(System.Logger.Level.ERROR, "the live singer thread failed on a phrase", e);
            }
        }
    }

    /**
     * Sings one note before any line is asked for: espeak-ng's voice gets its pitch range measured
     * and the analysis code compiled, which made the first line of a fresh process take seconds.
     */
    private void warmUp() {
        try {
            singer().sing(List.of(SungNote.sung(0, 0.3, 64, 100, "la")));
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "the live singer could not warm up; vocal lines will be skipped if it stays broken",
                    e);
        }
    }

    /** A phrase that was due and did not sound (not sung in time, or asked for too late); for the counters and the log. */
    void skipped(String performance, double beat, String why) {
        skipped.incrementAndGet();
        LOG.log(
                System.Logger.Level.DEBUG,
                () -> performance + ": vocal phrase at beat " + Math.round(beat * 1000) / 1000.0 + " skipped: " + why);
    }

    void started() {
        started.incrementAndGet();
    }

    /** What the singer has done: for the engine's metrics and the cost test. */
    record Counters(
            long sung,
            double sungSeconds,
            double cpuSeconds,
            long expired,
            long started,
            long skipped,
            long cachedSamples,
            long shed) {}

    Counters counters() {
        long cached;
        synchronized (lock) {
            cached = cachedSamples;
        }
        return new Counters(
                sung.get(),
                sungSamples.get() / (double) Singer.SAMPLE_RATE_HZ,
                singingNanos.get() / 1e9,
                expired.get(),
                started.get(),
                skipped.get(),
                cached,
                shed.get());
    }

    /** Stops the singing thread once it has finished the line it sings (not interrupted: espeak-ng would be cut off mid-run). */
    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }
}
