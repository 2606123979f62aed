package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.media.MediaLimits;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the server can be told, read once from {@code SCORECAST_*} environment variables.
 * Every setting has a default that works on a fresh machine; README lists them all.
 */
public record ServerConfig(
        String host,
        int port,
        Path dataDir,
        String dbUrl,
        Optional<String> publicUrlSetting,
        Optional<String> nodeUrlSetting,
        Path soundFont,
        UploadLimits uploads,
        long maxJsonBytes,
        int workerThreads,
        Duration analysisWait,
        PlayerSettings player,
        Quotas quotas,
        Role role,
        StorageSettings storage,
        Optional<String> nodeIdSetting,
        Duration jobHeartbeat,
        RetentionSettings retention,
        WebhookSettings webhooks,
        EventStreamSettings events,
        OpsSettings ops) {

    public ServerConfig {
        Objects.requireNonNull(host);
        Objects.requireNonNull(dataDir);
        Objects.requireNonNull(dbUrl);
        Objects.requireNonNull(publicUrlSetting);
        Objects.requireNonNull(nodeUrlSetting);
        Objects.requireNonNull(uploads);
        Objects.requireNonNull(player);
        Objects.requireNonNull(quotas);
        Objects.requireNonNull(role);
        Objects.requireNonNull(storage);
        Objects.requireNonNull(nodeIdSetting);
        Objects.requireNonNull(retention);
        Objects.requireNonNull(webhooks);
        Objects.requireNonNull(events);
        Objects.requireNonNull(ops);
        if (jobHeartbeat.isNegative() || jobHeartbeat.isZero() || jobHeartbeat.toSeconds() > 10) {
            throw new InvalidParameter(
                    "SCORECAST_JOB_HEARTBEAT_SECONDS",
                    "SCORECAST_JOB_HEARTBEAT_SECONDS must be 1 to 10: a dead worker's jobs move after six missed heartbeats, within a minute.");
        }
        if (port < 0 || port > 65535) {
            throw new InvalidParameter("SCORECAST_PORT", "SCORECAST_PORT must be between 0 and 65535.");
        }
        if (workerThreads < 1) {
            throw new InvalidParameter("SCORECAST_WORKERS", "SCORECAST_WORKERS must be at least 1.");
        }
    }

    public static ServerConfig fromEnvironment() {
        return from(System.getenv());
    }

    public static ServerConfig from(Map<String, String> env) {
        var settings = new Settings(env);
        int port = settings.integer("SCORECAST_PORT", 8080);
        Path data = settings.path("SCORECAST_DATA", Path.of("data"))
                .toAbsolutePath()
                .normalize();
        String dbUrl = settings.string("SCORECAST_DB_URL", "jdbc:sqlite:" + data.resolve("scorecast.db"));
        Optional<String> publicUrl = Optional.ofNullable(env.get("SCORECAST_PUBLIC_URL"))
                .filter(url -> !url.isBlank())
                .map(ServerConfig::stripTrailingSlash);
        Optional<String> nodeUrl = Optional.ofNullable(env.get("SCORECAST_NODE_URL"))
                .filter(url -> !url.isBlank())
                .map(String::strip)
                .map(ServerConfig::checkNodeUrl);
        return new ServerConfig(
                settings.string("SCORECAST_HOST", "0.0.0.0"),
                port,
                data,
                dbUrl,
                publicUrl,
                nodeUrl,
                settings.path("SCORECAST_SOUNDFONT", Path.of("/usr/share/sounds/sf2/FluidR3_GM.sf2")),
                UploadLimits.from(settings),
                settings.bytes("SCORECAST_MAX_JSON_BYTES", 4L << 20),
                settings.integer("SCORECAST_WORKERS", 2),
                Duration.ofSeconds(settings.integer("SCORECAST_ANALYSIS_WAIT_SECONDS", 300)),
                PlayerSettings.from(settings),
                Quotas.fromEnvironment(env),
                Role.parse(settings.string("SCORECAST_ROLE", "all"), "SCORECAST_ROLE"),
                StorageSettings.from(settings),
                Optional.ofNullable(env.get("SCORECAST_NODE_ID"))
                        .map(String::strip)
                        .filter(id -> !id.isEmpty())
                        .map(ServerConfig::checkNodeId),
                Duration.ofSeconds(settings.integer("SCORECAST_JOB_HEARTBEAT_SECONDS", 5)),
                RetentionSettings.from(settings),
                WebhookSettings.from(settings),
                EventStreamSettings.from(settings),
                OpsSettings.from(settings, env));
    }

    /** The same configuration listening on another port (tests use port 0). */
    public ServerConfig withPort(int newPort) {
        return new ServerConfig(
                host,
                newPort,
                dataDir,
                dbUrl,
                publicUrlSetting,
                nodeUrlSetting,
                soundFont,
                uploads,
                maxJsonBytes,
                workerThreads,
                analysisWait,
                player,
                quotas,
                role,
                storage,
                nodeIdSetting,
                jobHeartbeat,
                retention,
                webhooks,
                events,
                ops);
    }

    /** The same configuration in another role ({@code serve --role} overrides SCORECAST_ROLE). */
    public ServerConfig withRole(Role newRole) {
        return new ServerConfig(
                host,
                port,
                dataDir,
                dbUrl,
                publicUrlSetting,
                nodeUrlSetting,
                soundFont,
                uploads,
                maxJsonBytes,
                workerThreads,
                analysisWait,
                player,
                quotas,
                newRole,
                storage,
                nodeIdSetting,
                jobHeartbeat,
                retention,
                webhooks,
                events,
                ops);
    }

    /**
     * The name this process holds jobs under (db-scheduler's picked_by): SCORECAST_NODE_ID when set,
     * otherwise this host and the fixed port it listens on, which no other live process on the host
     * can hold at once, so that a restart finds exactly what its earlier run held; on port 0 this
     * host and process id ({@link NodeIds}).
     */
    public String nodeId() {
        return nodeIdSetting.orElseGet(() -> NodeIds.defaultId(port));
    }

    private static String checkNodeId(String id) {
        if (!id.matches("[A-Za-z0-9_.:-]{1,100}")) {
            throw new InvalidParameter(
                    "SCORECAST_NODE_ID",
                    "SCORECAST_NODE_ID must be 1 to 100 letters, digits, _ . : -, unique among the live nodes, not \""
                            + id + "\".");
        }
        return id;
    }

    /**
     * The base of links handed to clients: SCORECAST_PUBLIC_URL when set, otherwise this machine on
     * the port the server actually listens on (which differs from {@link #port} when that is 0).
     */
    public String publicUrl(int listeningPort) {
        return publicUrlSetting.orElse("http://localhost:" + listeningPort);
    }

    /**
     * The base URL other nodes use to reach this one (forwarded player calls): SCORECAST_NODE_URL
     * when set, otherwise the address the server is bound to on the port it listens on. A wildcard
     * address becomes the loopback one, which reaches this node from the same machine only.
     */
    public String nodeUrl(int listeningPort) {
        return nodeUrlSetting.orElseGet(() -> "http://" + reachableHost(host) + ":" + listeningPort);
    }

    /** Whether {@link #nodeUrl} was left to its default. */
    public boolean nodeUrlIsDefault() {
        return nodeUrlSetting.isEmpty();
    }

    private static String reachableHost(String host) {
        return switch (host) {
            case "0.0.0.0", "", "::", "[::]" -> "127.0.0.1";
            default -> host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        };
    }

    private static String checkNodeUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null
                || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            throw new InvalidParameter(
                    "SCORECAST_NODE_URL",
                    "SCORECAST_NODE_URL must be an http:// or https:// base URL such as http://10.0.0.5:8080, not \""
                            + url + "\".");
        }
        return stripTrailingSlash(url);
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /**
     * The live player: how long a stream lives after its last activity, and how its render loops
     * run (docs/PLAYER.md explains the trade-offs).
     */
    public record PlayerSettings(
            Duration streamTtl,
            int blockFrames,
            int lookaheadMillis,
            int threads,
            int maxPerformances,
            double warmUpSeconds,
            int burstMillis) {
        public PlayerSettings {
            if (burstMillis < 0 || burstMillis > 5000) {
                throw new InvalidParameter(
                        "SCORECAST_LIVE_BURST_MS", "SCORECAST_LIVE_BURST_MS must be 0 (off) to 5000.");
            }
            if (streamTtl.isNegative() || streamTtl.isZero()) {
                throw new InvalidParameter(
                        "SCORECAST_STREAM_TTL_SECONDS", "SCORECAST_STREAM_TTL_SECONDS must be at least 1.");
            }
            if (warmUpSeconds < 0 || warmUpSeconds > 60) {
                throw new InvalidParameter(
                        "SCORECAST_LIVE_WARMUP_SECONDS", "SCORECAST_LIVE_WARMUP_SECONDS must be 0 (off) to 60.");
            }
            if (blockFrames < 256 || blockFrames > 8192) {
                throw new InvalidParameter(
                        "SCORECAST_LIVE_BLOCK_FRAMES", "SCORECAST_LIVE_BLOCK_FRAMES must be 256 to 8192.");
            }
            if (lookaheadMillis < 0 || lookaheadMillis > 2000) {
                throw new InvalidParameter(
                        "SCORECAST_LIVE_LOOKAHEAD_MS", "SCORECAST_LIVE_LOOKAHEAD_MS must be 0 to 2000.");
            }
            if (threads < 1) {
                throw new InvalidParameter("SCORECAST_LIVE_THREADS", "SCORECAST_LIVE_THREADS must be at least 1.");
            }
            if (maxPerformances < 1) {
                throw new InvalidParameter(
                        "SCORECAST_LIVE_MAX_PERFORMANCES", "SCORECAST_LIVE_MAX_PERFORMANCES must be at least 1.");
            }
        }

        static PlayerSettings from(Settings settings) {
            return new PlayerSettings(
                    Duration.ofSeconds(settings.integer("SCORECAST_STREAM_TTL_SECONDS", 900)),
                    settings.integer("SCORECAST_LIVE_BLOCK_FRAMES", 1024),
                    settings.integer("SCORECAST_LIVE_LOOKAHEAD_MS", 85),
                    settings.integer(
                            "SCORECAST_LIVE_THREADS", Runtime.getRuntime().availableProcessors()),
                    // What the benchmark found two cores carry, 48 private streams (docs/BENCHMARKS.md); more cores,
                    // more.
                    settings.integer(
                            "SCORECAST_LIVE_MAX_PERFORMANCES",
                            24 * Runtime.getRuntime().availableProcessors()),
                    settings.integer("SCORECAST_LIVE_WARMUP_SECONDS", 4),
                    // A plain <audio> starts on the second it gets at once (docs/PLAYER.md, "Fast start").
                    settings.integer("SCORECAST_LIVE_BURST_MS", 1000));
        }
    }

    /** Limits on what a client may upload. */
    /**
     * @param minBytesPerSecond the slowest a request body may arrive, over the last 10 s spent waiting for it: a client
     *                          trickling a body (slow-loris) is cut off with 408 instead of holding a
     *                          connection and a handler for hours
     */
    public record UploadLimits(
            long maxChunkBytes,
            long maxFileBytes,
            Duration maxDuration,
            int maxFrameWidth,
            int maxFrameHeight,
            int maxChunks,
            Duration expiresAfter,
            long minBytesPerSecond) {
        public UploadLimits {
            if (minBytesPerSecond < 0) {
                throw new InvalidParameter(
                        "SCORECAST_MIN_REQUEST_BYTES_PER_SECOND",
                        "SCORECAST_MIN_REQUEST_BYTES_PER_SECOND must be 0 (no minimum) or more.");
            }
            if (maxChunkBytes < 1 || maxFileBytes < maxChunkBytes) {
                throw new InvalidParameter(
                        "SCORECAST_MAX_CHUNK_BYTES",
                        "SCORECAST_MAX_CHUNK_BYTES must be positive and not above SCORECAST_MAX_FILE_BYTES.");
            }
        }

        /** The limits the media probe and decoders enforce for these uploads. */
        public MediaLimits media() {
            return new MediaLimits(maxFrameWidth, maxFrameHeight, maxDuration, MediaLimits.DEFAULT.maxStreams());
        }

        static UploadLimits from(Settings settings) {
            return new UploadLimits(
                    settings.bytes("SCORECAST_MAX_CHUNK_BYTES", 32L << 20),
                    settings.bytes("SCORECAST_MAX_FILE_BYTES", 2L << 30),
                    Duration.ofSeconds(settings.integer("SCORECAST_MAX_DURATION_SECONDS", 1800)),
                    settings.integer("SCORECAST_MAX_FRAME_WIDTH", 4096),
                    settings.integer("SCORECAST_MAX_FRAME_HEIGHT", 4096),
                    settings.integer("SCORECAST_MAX_CHUNKS", 10_000),
                    Duration.ofHours(settings.integer("SCORECAST_UPLOAD_TTL_HOURS", 24)),
                    settings.bytes("SCORECAST_MIN_REQUEST_BYTES_PER_SECOND", 1024));
        }
    }
}
