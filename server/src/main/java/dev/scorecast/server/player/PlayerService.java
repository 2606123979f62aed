package dev.scorecast.server.player;

import dev.scorecast.engine.error.Busy;
import dev.scorecast.engine.error.NotFound;
import dev.scorecast.engine.error.WrongState;
import dev.scorecast.engine.live.AppliesAt;
import dev.scorecast.engine.live.Experience;
import dev.scorecast.engine.live.ExperienceCatalog;
import dev.scorecast.engine.live.Listener;
import dev.scorecast.engine.live.LiveEngine;
import dev.scorecast.engine.live.LiveSession;
import dev.scorecast.engine.media.LiveEncoder;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.player.StreamRegistry.EndReason;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live streams of every user: at most one per user across every node sharing the database,
 * found by owner (another user's stream does not exist for the caller), by session token, or by
 * signed link. The {@link StreamRegistry} says which node plays a stream; this node keeps the
 * sessions of the streams it plays. A sweeper ends streams idle longer than the TTL, which frees
 * their synthesizer, encoders and loop, and tells the database that the others are still alive.
 */
public final class PlayerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlayerService.class);
    public static final String STREAM_PATH = "/player/stream";
    static final Duration LINK_LIFETIME = Duration.ofDays(1);
    /** How often at most a stream's activity is written to the database (for other nodes, not for the TTL, which is kept here). */
    static final Duration ACTIVITY_RECORD_INTERVAL = Duration.ofSeconds(5);
    /** Allowance for clocks of different machines disagreeing, before a silent stream counts as abandoned by its node. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final LiveEngine engine;
    private final HlsPublisher hls;
    private final StreamRegistry registry;
    private final Supplier<String> nodeUrl;
    private final DownloadLinks links;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, LiveStream> playingHere = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;

    /** {@code nodeUrl} is this node's internal base URL, asked when needed: a server on port 0 knows it only once it listens. */
    public PlayerService(
            LiveEngine engine,
            StreamRegistry registry,
            Supplier<String> nodeUrl,
            DownloadLinks links,
            Duration ttl,
            Clock clock) {
        this.engine = engine;
        this.hls = new HlsPublisher(engine, clock, engine.ticker());
        this.registry = registry;
        this.nodeUrl = nodeUrl;
        this.links = links;
        this.ttl = ttl;
        this.clock = clock;
        this.sweeper = Executors.newSingleThreadScheduledExecutor(
                r -> Thread.ofPlatform().daemon().name("scorecast-stream-ttl").unstarted(r));
        sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
        // FFmpeg's natives unpack on first use (about half a second): do it now, not on the first listener's time.
        sweeper.execute(() -> LiveEncoder.open(LiveEncoder.Format.AAC).close());
    }

    /**
     * How long a stream whose node recorded no activity counts as active: its node would have
     * expired it after the TTL, so past that (and the recording interval, and clock skew) the node is gone.
     */
    public static Duration abandonedAfter(Duration ttl) {
        return ttl.plus(ACTIVITY_RECORD_INTERVAL).plus(CLOCK_SKEW);
    }

    /**
     * Ends the streams that an earlier process at this node's URL created: their sessions died
     * with it, and left active they would block their users. Call once this node listens.
     */
    public void releaseStreamsOfEarlierRuns(Instant started) {
        try {
            int released = registry.endAllOn(nodeUrl.get(), started, EndReason.NODE_RESTARTED);
            if (released > 0) {
                LOG.info("ended {} streams that an earlier run of node {} played", released, nodeUrl.get());
            }
        } catch (RuntimeException e) {
            // Not fatal: such a stream is found lost on its user's next create-stream, or ends once nobody kept it
            // alive.
            LOG.warn("could not end the streams of an earlier run of node {}", nodeUrl.get(), e);
        }
    }

    /** What create-stream answers. */
    public record Created(String streamId, String sessionToken, Map<String, String> streamUrls, double ttl) {}

    /**
     * A new stream for {@code owner}, played by this node; 409 while the owner has an active stream
     * on any node. Synchronized so that a stream this node claimed is in {@link #playingHere} before
     * another create here can look for it there.
     */
    public synchronized Created create(Principal owner) {
        String id = Ids.next("str");
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String token = "st_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        Instant now = clock.instant();
        StreamRecord record = new StreamRecord(id, owner, hash(token), nodeUrl.get(), now, now);
        for (int attempt = 1; !registry.claim(record); attempt++) {
            Optional<StreamRecord> existing = registry.active(owner);
            if (existing.isPresent() && lostHere(existing.get())) {
                registry.end(existing.get().id(), EndReason.LOST_BY_NODE);
                LOG.warn(
                        "stream {} of {} was active for node {} but not played here; ended it",
                        existing.get().id(),
                        owner.user(),
                        nodeUrl.get());
            } else if (existing.isPresent() || attempt == 3) {
                // (Absent: the other stream ended between the insert and the read; the next attempt settles it.)
                throw new WrongState(
                        "stream",
                        "You already have an active stream"
                                + existing.map(e -> " (" + e.id() + ")").orElse("")
                                + "; end it with POST /player/end_stream before creating another.",
                        existing.<Map<String, Object>>map(e -> Map.of("stream_id", e.id()))
                                .orElse(Map.of()));
            }
        }
        LiveSession session;
        try {
            session = engine.open();
        } catch (RuntimeException e) {
            registry.end(id, EndReason.LOST_BY_NODE);
            throw e;
        }
        playingHere.put(id, new LiveStream(id, owner, record.tokenHash(), session, now));
        var urls = new LinkedHashMap<String, String>();
        for (LiveEncoder.Format f : LiveEncoder.Format.values()) {
            urls.put(
                    f.wire,
                    links.link(STREAM_PATH, "stream_id=" + id + "&format=" + f.wire, signedPath(id), LINK_LIFETIME));
        }
        return new Created(id, token, urls, ttl.toSeconds());
    }

    /** A stream the database says this node plays, which it does not (only {@link #create} calls this, under its lock). */
    private boolean lostHere(StreamRecord stream) {
        return stream.playsOn(nodeUrl.get()) && !playingHere.containsKey(stream.id());
    }

    /** The caller's stream, touched (a control call is activity), or 404. */
    public LiveStream active(Principal owner) {
        LiveStream s = activeWithoutTouch(owner);
        s.touch(clock.instant());
        return s;
    }

    /** The caller's stream without counting the call as activity (reading the TTL must not renew it). */
    public LiveStream activeWithoutTouch(Principal owner) {
        return find(owner)
                .orElseThrow(() -> new NotFound(
                        "stream", "You have no active stream; create one with POST /player/create-stream."));
    }

    /** The caller's stream when this node plays it. */
    public Optional<LiveStream> find(Principal owner) {
        return registry.active(owner)
                .filter(r -> r.playsOn(nodeUrl.get()))
                .map(r -> playingHere.get(r.id()))
                .filter(s -> !s.session.ended());
    }

    /** The caller's active stream when another node plays it: calls on it belong there. */
    public Optional<StreamRecord> playedElsewhere(Principal owner) {
        return registry.active(owner).filter(r -> !r.playsOn(nodeUrl.get()));
    }

    /** The node that plays {@code stream} does not answer: the stream is over, for every node. */
    public void ownerUnreachable(StreamRecord stream, String why) {
        if (registry.end(stream.id(), EndReason.NODE_UNREACHABLE)) {
            LOG.warn(
                    "stream {} of {} ended: its node {} does not answer ({})",
                    stream.id(),
                    stream.owner().user(),
                    stream.nodeUrl(),
                    why);
        }
    }

    public void end(Principal owner) {
        LiveStream s = active(owner);
        remove(s, EndReason.ENDED_BY_OWNER, "ended by its owner");
    }

    public double ttlLeft(LiveStream s) {
        return s.ttlLeft(ttl, clock.instant());
    }

    public void start(LiveStream s, String experienceId) {
        ExperienceCatalog catalog = engine.experiences();
        Experience e = experienceId != null
                ? catalog.require(experienceId)
                : s.session.experience() != null ? s.session.experience() : catalog.first();
        s.session.start(e);
    }

    public AppliesAt replacePlan(LiveStream s, Plan plan) {
        return s.session.replacePlan(plan);
    }

    public ExperienceCatalog experiences() {
        return engine.experiences();
    }

    /** A listener for the stream a request names (owner checked by the caller). */
    /** Listeners one stream takes at once: a user's devices, not an audience (every listener costs an encoder). */
    public static final int MAX_LISTENERS_PER_STREAM = 8;

    /**
     * A new listener on {@code s}.
     *
     * @throws Busy when the stream already has {@link #MAX_LISTENERS_PER_STREAM} listeners
     */
    public Listener listen(LiveStream s, LiveEncoder.Format format) {
        int listening = s.session.listeners();
        if (listening >= MAX_LISTENERS_PER_STREAM) {
            throw new Busy(
                    "This stream already has " + listening + " listeners (at most " + MAX_LISTENERS_PER_STREAM
                            + "); close one, or share a performance by starting the same experience on another stream.",
                    Duration.ofSeconds(5));
        }
        Listener l = s.session.listen(format);
        s.touch(clock.instant());
        return l;
    }

    public void disconnected(LiveStream s, Listener l) {
        s.session.disconnected(l);
        s.touch(clock.instant());
    }

    /** Any node answers for a session token: the database knows every active stream's token hash. */
    /** The owner of the live stream whose session token this is. */
    public Optional<Principal> sessionToken(String token) {
        if (token == null || !token.startsWith("st_")) {
            return Optional.empty();
        }
        return registry.activeByToken(hash(token)).map(StreamRecord::owner);
    }

    /**
     * The owner of the stream a signed stream link opens: {@code path} must be the stream's, with its
     * {@code streamId}, {@code expires} and {@code signature} query values. Any node answers for a
     * signed link, since every node reads the same link secret from the database.
     */
    public Optional<Principal> streamLink(String path, String streamId, String expires, String signature) {
        String id = streamId;
        if (id == null || !STREAM_PATH.equals(path)) {
            return Optional.empty();
        }
        try {
            links.verify(signedPath(id), expires, signature);
        } catch (NotFound e) {
            return Optional.empty();
        }
        return registry.activeById(id).map(StreamRecord::owner);
    }

    private static String signedPath(String streamId) {
        return STREAM_PATH + "/" + streamId;
    }

    /**
     * Once a second: drops the streams another node ended (it found this one unreachable), expires
     * the idle ones, and records the activity of the rest so other nodes know this one still plays them.
     */
    private void sweep() {
        try {
            // Taken before asking the database: a stream enters the map only after its row is committed.
            List<LiveStream> streams = List.copyOf(playingHere.values());
            if (streams.isEmpty()) {
                return;
            }
            Set<String> active = registry.activeIdsOn(nodeUrl.get());
            var now = clock.instant();
            var activity = new HashMap<String, Instant>();
            for (LiveStream s : streams) {
                if (!active.contains(s.id)) {
                    forget(s, "was ended by another node");
                } else if (s.ttlLeft(ttl, now) <= 0) {
                    remove(s, EndReason.EXPIRED, "expired after " + ttl.toSeconds() + " s without activity");
                } else {
                    s.activityToRecord(ACTIVITY_RECORD_INTERVAL).ifPresent(at -> activity.put(s.id, at));
                }
            }
            registry.recordActivity(activity);
        } catch (RuntimeException e) {
            LOG.error("the stream sweeper failed", e);
        }
    }

    /** Ends a stream here and for every node. */
    private void remove(LiveStream s, EndReason reason, String why) {
        forget(s, why);
        registry.end(s.id, reason);
    }

    /** Ends a stream's session here (listeners, performance) and forgets it. */
    private void forget(LiveStream s, String why) {
        playingHere.remove(s.id, s);
        s.session.end();
        LOG.info("stream {} of {} {}", s.id, s.owner.user(), why);
    }

    /** Streams this node plays now (for tests and metrics). */
    public int streams() {
        return playingHere.size();
    }

    /** Shared experiences published as HLS (opened on first request). */
    public HlsPublisher hls() {
        return hls;
    }

    public LiveEngine engine() {
        return engine;
    }

    private static String hash(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Ends every stream this node plays, in the database too, so that their users can create new ones on another node at once. */
    @Override
    public void close() {
        sweeper.shutdownNow();
        for (LiveStream s : List.copyOf(playingHere.values())) {
            forget(s, "ended: its node stops");
            try {
                registry.end(s.id, EndReason.NODE_STOPPED);
            } catch (RuntimeException e) {
                LOG.warn(
                        "could not record the end of stream {}; it counts as active until its node restarts or is found gone",
                        s.id,
                        e);
            }
        }
        hls.close();
        engine.close();
    }
}
