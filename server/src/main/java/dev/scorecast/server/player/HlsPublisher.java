package dev.scorecast.server.player;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.live.Experience;
import dev.scorecast.engine.live.LiveEngine;
import dev.scorecast.engine.media.LiveEncoder;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HLS channels of this node, one per shared experience someone asked for: opened by the first request for it
 * (which holds its shared performance, as one more session) and closed after {@link #IDLE_SECONDS} without a request,
 * so an experience nobody fetches costs nothing. Behind a CDN the origin sees the CDN's requests only.
 */
public final class HlsPublisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HlsPublisher.class);
    /** A channel nobody fetched from for this long is closed (a CDN refreshes a live playlist every part). */
    static final long IDLE_SECONDS = 60;

    private final LiveEngine engine;
    private final Clock clock;
    private final Ticker ticker;
    private final Map<String, HlsChannel> channels = new HashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("scorecast-hls-sweeper").unstarted(r));

    /** Channels date their segments on {@code clock} and time their idleness on {@code ticker}. */
    public HlsPublisher(LiveEngine engine, Clock clock, Ticker ticker) {
        this.engine = engine;
        this.clock = clock;
        this.ticker = ticker;
        sweeper.scheduleWithFixedDelay(this::sweep, 5, 5, TimeUnit.SECONDS);
    }

    /** The channel of {@code experience}, opened on first use (its shared performance starts then). */
    public synchronized HlsChannel channel(Experience experience) {
        HlsChannel c = channels.get(experience.id());
        if (c == null || c.closed()) {
            c = new HlsChannel(engine.tapShared(experience, LiveEncoder.Format.AAC), clock, ticker);
            channels.put(experience.id(), c);
            LOG.info("HLS: publishing {}", experience.id());
        }
        return c;
    }

    /** Channels open now. */
    public synchronized int channels() {
        return channels.size();
    }

    private void sweep() {
        List<HlsChannel> idle = new ArrayList<>();
        synchronized (this) {
            channels.values().removeIf(c -> {
                boolean gone = c.closed() || c.idleNanos() > TimeUnit.SECONDS.toNanos(IDLE_SECONDS);
                if (gone) {
                    idle.add(c);
                }
                return gone;
            });
        }
        for (HlsChannel c : idle) {
            LOG.info(
                    "HLS: {} stopped ({})",
                    c.experienceId(),
                    c.closed() ? "its performance ended" : "no request for " + IDLE_SECONDS + " s");
            c.close();
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        synchronized (this) {
            channels.values().forEach(HlsChannel::close);
            channels.clear();
        }
    }
}
