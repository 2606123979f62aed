package dev.scorecast.engine.media;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Pictures of a video decoded by several decoders at once and delivered in order, for a machine
 * with more than one core. The video is cut at keyframes into segments that decode independently
 * ({@link PacketTimeline}); each worker thread has a {@link FfmpegFrameSource} of its own that
 * decodes one segment after another, reference pictures only with a fresh {@link GapScreen} per
 * segment, and the reader takes the segments' pictures in turn. Before the workers start, the
 * {@link BidirectionalCheck} says whether every B picture may be passed over; every segment (and a
 * video too short to cut, read by one decoder) follows its verdict.
 *
 * <p>Why: one H.264 decoder with frame threads keeps about 1.5 of two cores busy, because each
 * reference picture waits for rows of the one before; two decoders on different segments have
 * nothing to wait for. The pictures delivered are the ones a single {@link FfmpegFrameSource}
 * delivers, with the same indices and times: a segment decodes the next segment's keyframe too, to
 * show its screen the gap before it, and delivers every picture before that keyframe, an open
 * GOP's leading pictures included.
 *
 * <p>Memory: a worker runs at most {@code workers} segments ahead of the reader, and a segment
 * holds at most {@link #QUEUE_PICTURES} decoded pictures, so at most about
 * {@code (workers + 1) * 128} small pictures (5.5 MB each 128 at 160 x 90) wait at once, whatever
 * the video's length. A file the timeline cannot guide (a packet without timestamps, no keyframe,
 * too short to cut into two) is read by one {@link FfmpegFrameSource}, as before.
 */
public final class SegmentedFrameSource implements FrameSource {
    /**
     * A segment is at least this many pictures, four seconds at 30 fps: each segment also decodes the
     * next one's keyframe and a picture or two after it, which costs a few per cent at this length.
     */
    static final int MIN_SEGMENT_PICTURES = 120;
    /** Decoded pictures a segment may hold before its worker waits for the reader. */
    static final int QUEUE_PICTURES = 128;

    private static final int MAX_WORKERS = 4;
    /** Each worker's decoder runs on its own thread: the workers, not FFmpeg's frame threads, use the cores. */
    private static final int THREADS_PER_DECODER = 1;

    private static final Slot END = new Slot(null, 0, 0, null);
    /** How often a reader waiting for pictures looks whether a worker failed. */
    private static final long FAILURE_CHECK_MILLIS = 100;

    private final int width;
    private final int height;
    private final double durationSeconds;
    private final List<PacketTimeline.Segment> segments;
    private final List<BlockingQueue<Slot>> queues;
    private final Supplier<GapScreen> screens;
    private final int workers;
    private final AtomicInteger nextSegment;
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong passedOver = new AtomicLong();
    private final ConcurrentLinkedQueue<byte[]> pool = new ConcurrentLinkedQueue<>();
    private final Object turn = new Object();
    private final List<Thread> threads = new ArrayList<>();
    /** Whether the segments pass over every B picture: {@link BidirectionalCheck}'s verdict. */
    private final boolean bidirectional;

    private volatile int reading;
    /** The first failure of any worker. */
    private volatile Throwable failure;

    private volatile boolean closed;

    private SegmentedFrameSource(
            FfmpegFrameSource first,
            List<PacketTimeline.Segment> segments,
            Supplier<GapScreen> screens,
            int workers,
            boolean bidirectional) {
        this.bidirectional = bidirectional;
        this.width = first.width();
        this.height = first.height();
        this.durationSeconds = first.durationSeconds();
        this.segments = segments;
        this.screens = screens;
        this.workers = workers;
        this.nextSegment = new AtomicInteger(workers);
        this.queues = new ArrayList<>(segments.size());
        for (int i = 0; i < segments.size(); i++) {
            queues.add(new LinkedBlockingQueue<>(QUEUE_PICTURES + 1)); // room for the end mark
        }
    }

    /**
     * Opens {@code video} to decode reference pictures only, each segment looking into its gaps
     * with a screen from {@code screens}, on as many workers as the machine has cores (at most 4).
     * Errors as {@link FfmpegFrameSource#open(Path, MediaLimits, int, GapScreen)}.
     */
    public static FrameSource open(Path video, MediaLimits limits, int longSidePixels, Supplier<GapScreen> screens) {
        return open(
                video,
                limits,
                longSidePixels,
                screens,
                Math.min(MAX_WORKERS, Runtime.getRuntime().availableProcessors()),
                MIN_SEGMENT_PICTURES);
    }

    static FrameSource open(
            Path video,
            MediaLimits limits,
            int longSidePixels,
            Supplier<GapScreen> screens,
            int workers,
            int minSegmentPictures) {
        Objects.requireNonNull(screens, "screens");
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, not " + workers);
        }
        // Segmented even on one core: a segment's screen starts afresh, so the pictures looked into,
        // and with them the motion curve, depend on the segments; the same on every machine.
        // The check decodes the first second twice; it runs beside the reading of the timeline.
        CompletableFuture<Boolean> bidirectional = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("picture-check").start(() -> {
            try {
                bidirectional.complete(BidirectionalCheck.passOverIsSafe(video, limits));
            } catch (Throwable e) {
                bidirectional.complete(false);
            }
        });
        PacketTimeline timeline = PacketTimeline.read(video, limits, maxPackets(limits));
        List<PacketTimeline.Segment> segments = timeline == null ? List.of() : timeline.segments(minSegmentPictures);
        // The check looked at the first second; a later piece of another encode may refer otherwise.
        boolean passOverB = bidirectional.join() && timeline != null && !timeline.parametersChange();
        if (segments.size() < 2) {
            FfmpegFrameSource single = FfmpegFrameSource.open(video, limits, longSidePixels, screens.get());
            single.passOverBidirectional(passOverB);
            return single;
        }
        int used = Math.min(workers, segments.size());
        FfmpegFrameSource first =
                FfmpegFrameSource.open(video, limits, longSidePixels, screens.get(), THREADS_PER_DECODER);
        SegmentedFrameSource source;
        try {
            source = new SegmentedFrameSource(first, segments, screens, used, passOverB);
        } catch (RuntimeException | Error e) {
            first.close();
            throw e;
        }
        source.start(first, video, limits, longSidePixels);
        return source;
    }

    /** A bound on the packets worth reading: the longest video allowed at 300 pictures a second. */
    private static int maxPackets(MediaLimits limits) {
        return (int) Math.min(2_000_000, (limits.maxDuration().toSeconds() + 1) * 300);
    }

    private void start(FfmpegFrameSource first, Path video, MediaLimits limits, int longSidePixels) {
        for (int w = 0; w < workers; w++) {
            int firstSegment = w;
            Thread thread = Thread.ofPlatform()
                    .daemon()
                    .name("picture-decoder-" + w)
                    .unstarted(() -> {
                        FfmpegFrameSource own = null;
                        try {
                            own = firstSegment == 0
                                    ? first
                                    : FfmpegFrameSource.open(
                                            video, limits, longSidePixels, screens.get(), THREADS_PER_DECODER);
                            work(own, firstSegment);
                        } catch (RuntimeException | Error e) {
                            fail(firstSegment, e);
                        } finally {
                            if (own != null) {
                                own.close();
                            }
                        }
                    });
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    private void work(FfmpegFrameSource source, int firstSegment) {
        VideoFrame picture = new VideoFrame(width, height);
        int segment = firstSegment;
        while (segment < segments.size() && !closed) {
            try {
                decode(source, segment, picture);
            } catch (InterruptedException e) {
                return; // closed
            } catch (RuntimeException | Error e) {
                fail(segment, e);
                return;
            }
            segment = nextSegment.getAndIncrement();
        }
    }

    private void decode(FfmpegFrameSource source, int index, VideoFrame picture) throws InterruptedException {
        awaitTurn(index);
        PacketTimeline.Segment segment = segments.get(index);
        if (index == 0) {
            source.endBefore(segment.stopPts());
        } else if (!source.startSegment(
                segment.startPts(), segment.startDts(), segment.stopPts(), segment.firstIndex(), screens.get())) {
            throw new IllegalStateException("the video could not be sought to its keyframe at " + segment.startPts());
        }
        source.passOverBidirectional(bidirectional);
        long skippedBefore = source.framesSkipped();
        long passedBefore = source.framesPassedOver();
        BlockingQueue<Slot> queue = queues.get(index);
        while (!closed && source.read(picture)) {
            byte[] rgb = pool.poll();
            if (rgb == null) {
                rgb = new byte[picture.rgb().length];
            }
            System.arraycopy(picture.rgb(), 0, rgb, 0, rgb.length);
            queue.put(new Slot(rgb, picture.index(), picture.timeSeconds(), null));
        }
        skipped.addAndGet(source.framesSkipped() - skippedBefore);
        passedOver.addAndGet(source.framesPassedOver() - passedBefore);
        queue.put(END);
    }

    /** Waits until the reader is close enough behind for segment {@code index} to be decoded without piling up pictures. */
    private void awaitTurn(int index) throws InterruptedException {
        synchronized (turn) {
            while (!closed && index > reading + workers) {
                turn.wait();
            }
        }
    }

    private void fail(int segment, Throwable e) {
        // Noted first, in a field: putting it in the queue allocates, which fails again when the
        // failure is the heap running out, and the reader must never wait for a worker that died.
        if (failure == null) {
            failure = e;
        }
        try {
            if (segment < queues.size()) {
                queues.get(segment).clear(); // the reader stops at the failure; what was queued is not needed
                queues.get(segment).offer(new Slot(null, 0, 0, e));
            }
        } catch (Throwable again) {
            // The reader finds the failure in the field.
        }
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public int height() {
        return height;
    }

    @Override
    public double durationSeconds() {
        return durationSeconds;
    }

    @Override
    public boolean read(VideoFrame frame) {
        if (frame.width() != width || frame.height() != height) {
            throw new IllegalArgumentException(
                    "frame is " + frame.width() + "x" + frame.height() + ", source delivers " + width + "x" + height);
        }
        while (reading < segments.size()) {
            Slot slot;
            try {
                slot = queues.get(reading).poll(FAILURE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                if (slot == null) {
                    Throwable died = failure; // a worker that died before it could say so in its queue
                    if (died instanceof RuntimeException e) {
                        throw e;
                    }
                    if (died instanceof Error e) {
                        throw e;
                    }
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a decoded picture", e);
            }
            if (slot.failure() instanceof RuntimeException e) {
                throw e; // the worker's own exception: UnsupportedMedia, Unprocessable, ...
            }
            if (slot.failure() instanceof Error e) {
                throw e;
            }
            if (slot == END) {
                synchronized (turn) {
                    reading++;
                    turn.notifyAll();
                }
                continue;
            }
            System.arraycopy(slot.rgb(), 0, frame.rgb(), 0, slot.rgb().length);
            frame.stamp(slot.index(), slot.timeSeconds());
            pool.offer(slot.rgb());
            return true;
        }
        return false;
    }

    @Override
    public long framesSkipped() {
        return skipped.get();
    }

    @Override
    public long framesPassedOver() {
        return passedOver.get();
    }

    /** Stops the workers and waits for them to free their decoders. */
    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        for (Thread thread : threads) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A decoded picture, the end of a segment ({@link #END}), or the failure that stopped its worker. */
    private record Slot(byte[] rgb, long index, double timeSeconds, Throwable failure) {}
}
