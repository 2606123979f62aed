package dev.scorecast.server.player;

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
import dev.scorecast.server.api.Authenticator;
import dev.scorecast.server.auth.Ids;
import dev.scorecast.server.auth.Principal;
import dev.scorecast.server.downloads.DownloadLinks;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live streams of every user: at most one per user, found by owner (another user's stream
 * does not exist for the caller), by session token, or by signed link. A sweeper ends streams idle
 * longer than the TTL, which frees their synthesizer, encoders and loop.
 */
public final class PlayerService implements Authenticator.PlayerCredentials, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlayerService.class);
    public static final String STREAM_PATH = "/player/stream";
    static final Duration LINK_LIFETIME = Duration.ofDays(1);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LiveEngine engine;
    private final DownloadLinks links;
    private final Duration ttl;
    private final Clock clock;
    private final Map<String, LiveStream> byOwner = new ConcurrentHashMap<>();
    private final Map<String, LiveStream> byToken = new ConcurrentHashMap<>();
    private final Map<String, LiveStream> byId = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;

    public PlayerService(LiveEngine engine, DownloadLinks links, Duration ttl, Clock clock) {
        this.engine = engine;
        this.links = links;
        this.ttl = ttl;
        this.clock = clock;
        this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("scorecast-stream-ttl").unstarted(r));
        sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
        // FFmpeg's natives unpack on first use (about half a second): do it now, not on the first listener's time.
        sweeper.execute(() -> LiveEncoder.open(LiveEncoder.Format.AAC).close());
    }

    /** What create-stream answers. */
    public record Created(String streamId, String sessionToken, Map<String, String> streamUrls, double ttl) {}

    public synchronized Created create(Principal owner) {
        LiveStream existing = byOwner.get(owner.user());
        if (existing != null) {
            throw new WrongState("stream", "You already have an active stream (" + existing.id
                    + "); end it with POST /player/end_stream before creating another.", Map.of("stream_id", existing.id));
        }
        String id = Ids.next("str");
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        String token = "st_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        LiveSession session = engine.open();
        LiveStream stream = new LiveStream(id, owner, hash(token), session, clock.instant());
        byOwner.put(owner.user(), stream);
        byToken.put(stream.tokenHash, stream);
        byId.put(id, stream);
        var urls = new java.util.LinkedHashMap<String, String>();
        for (LiveEncoder.Format f : LiveEncoder.Format.values()) {
            urls.put(f.wire, links.link(STREAM_PATH, "stream_id=" + id + "&format=" + f.wire, signedPath(id), LINK_LIFETIME));
        }
        return new Created(id, token, urls, ttl.toSeconds());
    }

    /** The caller's stream, touched (a control call is activity), or 404. */
    public LiveStream active(Principal owner) {
        LiveStream s = byOwner.get(owner.user());
        if (s == null || s.session.ended()) {
            throw new NotFound("stream", "You have no active stream; create one with POST /player/create-stream.");
        }
        s.touch(clock.instant());
        return s;
    }

    /** The caller's stream without counting the call as activity (reading the TTL must not renew it). */
    public LiveStream activeWithoutTouch(Principal owner) {
        return find(owner).orElseThrow(() -> new NotFound("stream",
                "You have no active stream; create one with POST /player/create-stream."));
    }

    public Optional<LiveStream> find(Principal owner) {
        return Optional.ofNullable(byOwner.get(owner.user())).filter(s -> !s.session.ended());
    }

    public void end(Principal owner) {
        LiveStream s = active(owner);
        remove(s, "ended by its owner");
    }

    public double ttlLeft(LiveStream s) {
        return s.ttlLeft(ttl, clock.instant());
    }

    public void start(LiveStream s, String experienceId) {
        ExperienceCatalog catalog = engine.experiences();
        Experience e = experienceId != null ? catalog.require(experienceId)
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
    public Listener listen(LiveStream s, LiveEncoder.Format format) {
        Listener l = s.session.listen(format);
        s.touch(clock.instant());
        return l;
    }

    public void disconnected(LiveStream s, Listener l) {
        s.session.disconnected(l);
        s.touch(clock.instant());
    }

    @Override
    public Optional<Principal> sessionToken(String token) {
        if (token == null || !token.startsWith("st_")) {
            return Optional.empty();
        }
        LiveStream s = byToken.get(hash(token));
        return s == null || s.session.ended() ? Optional.empty() : Optional.of(s.owner);
    }

    @Override
    public Optional<Principal> streamLink(Context ctx) {
        String id = ctx.queryParam("stream_id");
        if (id == null || !ctx.path().equals(STREAM_PATH)) {
            return Optional.empty();
        }
        try {
            links.verify(signedPath(id), ctx.queryParam("expires"), ctx.queryParam("signature"));
        } catch (NotFound e) {
            return Optional.empty();
        }
        LiveStream s = byId.get(id);
        return s == null ? Optional.empty() : Optional.of(s.owner);
    }

    private static String signedPath(String streamId) {
        return STREAM_PATH + "/" + streamId;
    }

    private void sweep() {
        try {
            var now = clock.instant();
            for (LiveStream s : byId.values()) {
                if (s.ttlLeft(ttl, now) <= 0) {
                    remove(s, "expired after " + ttl.toSeconds() + " s without activity");
                }
            }
        } catch (RuntimeException e) {
            LOG.error("the stream sweeper failed", e);
        }
    }

    private synchronized void remove(LiveStream s, String why) {
        byOwner.remove(s.owner.user(), s);
        byToken.remove(s.tokenHash, s);
        byId.remove(s.id, s);
        s.session.end();
        LOG.info("stream {} of {} {}", s.id, s.owner.user(), why);
    }

    /** Streams alive now (for tests and metrics). */
    public int streams() {
        return byId.size();
    }

    public LiveEngine engine() {
        return engine;
    }

    private static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        byId.values().forEach(s -> s.session.end());
        byId.clear();
        byOwner.clear();
        byToken.clear();
        engine.close();
    }
}
