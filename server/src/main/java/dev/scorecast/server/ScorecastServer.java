package dev.scorecast.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.live.ExperienceCatalog;
import dev.scorecast.engine.live.LiveEngine;
import dev.scorecast.engine.live.LiveSettings;
import dev.scorecast.engine.plan.MarkerArrangement;
import dev.scorecast.engine.plan.Planner;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisEngine;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.EngineAnalysis;
import dev.scorecast.server.api.ApiErrors;
import dev.scorecast.server.api.Authenticator;
import dev.scorecast.server.api.BodyCaps;
import dev.scorecast.server.api.DownloadsApi;
import dev.scorecast.server.api.EventLinks;
import dev.scorecast.server.api.EventObjects;
import dev.scorecast.server.api.EventStreamApi;
import dev.scorecast.server.api.HeaderTimeout;
import dev.scorecast.server.api.HlsApi;
import dev.scorecast.server.api.LibraryApi;
import dev.scorecast.server.api.MinimumBodyRate;
import dev.scorecast.server.api.NodeRelay;
import dev.scorecast.server.api.OpenApiDocument;
import dev.scorecast.server.api.PlayerApi;
import dev.scorecast.server.api.Requests;
import dev.scorecast.server.api.StreamRouting;
import dev.scorecast.server.api.SyncAApi;
import dev.scorecast.server.api.SyncBApi;
import dev.scorecast.server.api.ThumbnailsApi;
import dev.scorecast.server.api.WebhooksApi;
import dev.scorecast.server.auth.ApiKeys;
import dev.scorecast.server.auth.FailedAuthentications;
import dev.scorecast.server.auth.RevokedKeys;
import dev.scorecast.server.config.Role;
import dev.scorecast.server.config.ServerConfig;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.db.SharedSecrets;
import dev.scorecast.server.downloads.DownloadLinks;
import dev.scorecast.server.downloads.LinkSecrets;
import dev.scorecast.server.execution.ConformService;
import dev.scorecast.server.execution.ExecutionService;
import dev.scorecast.server.execution.LazySoundBank;
import dev.scorecast.server.execution.PlanService;
import dev.scorecast.server.execution.PlanningPool;
import dev.scorecast.server.jobs.JobFeed;
import dev.scorecast.server.jobs.JobMemory;
import dev.scorecast.server.jobs.JobRepository;
import dev.scorecast.server.jobs.JobRunner;
import dev.scorecast.server.jobs.Upkeep;
import dev.scorecast.server.library.Library;
import dev.scorecast.server.ops.HealthApi;
import dev.scorecast.server.ops.Metrics;
import dev.scorecast.server.ops.Readiness;
import dev.scorecast.server.ops.StartingNode;
import dev.scorecast.server.player.PlayerService;
import dev.scorecast.server.player.StreamRegistry;
import dev.scorecast.server.quota.MemoryBudget;
import dev.scorecast.server.quota.QuotaGuard;
import dev.scorecast.server.quota.RequestsInFlight;
import dev.scorecast.server.retention.OrphanSweeper;
import dev.scorecast.server.retention.Retention;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.storage.LocalBlobStore;
import dev.scorecast.server.storage.S3BlobStore;
import dev.scorecast.server.storage.Scratch;
import dev.scorecast.server.studio.StudioPage;
import dev.scorecast.server.thumbnails.Thumbnails;
import dev.scorecast.server.upload.UploadService;
import dev.scorecast.server.webhooks.AddressGuard;
import dev.scorecast.server.webhooks.DeliveryRepository;
import dev.scorecast.server.webhooks.Dispatcher;
import dev.scorecast.server.webhooks.Outbox;
import dev.scorecast.server.webhooks.Sender;
import dev.scorecast.server.webhooks.WebhookRepository;
import dev.scorecast.server.webhooks.Webhooks;
import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.json.JavalinJackson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The whole service wired in one place: storage, database, jobs, and the HTTP surfaces. */
public final class ScorecastServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScorecastServer.class);
    private static final Set<String> PUBLIC_PATHS = Set.of(OpenApiDocument.PATH);
    /** The request attribute naming the user whose in-flight request this is (RequestsInFlight). */
    private static final String IN_FLIGHT = "scorecast.inFlight";
    /** The request attribute holding what its body reserved of the node's memory budget (MemoryBudget). */
    private static final String BUFFERED = "scorecast.buffered";

    private final Database database;
    private final UploadService uploads;
    private final JobRunner jobs;
    private final Javalin app;
    private final ApiKeys keys;
    private final List<Route> routes;
    private final String developmentKey;
    private final ServerConfig config;
    private final PlayerService player;
    private final NodeRelay relay;
    private final BlobStore blobs;
    private final Dispatcher dispatcher;
    private final JobFeed jobFeed;
    private final EventStreamApi eventStreams;
    private final Javalin ops;
    private final Upkeep upkeep;
    private final RevokedKeys revokedKeys;

    private ScorecastServer(ServerConfig config, Database database, UploadService uploads, JobRunner jobs, Javalin app, ApiKeys keys,
                            List<Route> routes, String developmentKey, PlayerService player, NodeRelay relay, BlobStore blobs,
                            Dispatcher dispatcher, JobFeed jobFeed, EventStreamApi eventStreams, Javalin ops, Upkeep upkeep,
                            RevokedKeys revokedKeys) {
        this.revokedKeys = revokedKeys;
        this.blobs = blobs;
        this.dispatcher = dispatcher;
        this.jobFeed = jobFeed;
        this.eventStreams = eventStreams;
        this.ops = ops;
        this.upkeep = upkeep;
        this.config = config;
        this.player = player;
        this.relay = relay;
        this.database = database;
        this.uploads = uploads;
        this.jobs = jobs;
        this.app = app;
        this.keys = keys;
        this.routes = routes;
        this.developmentKey = developmentKey;
    }

    public static ScorecastServer start(ServerConfig config) {
        return start(config, EngineAnalysis.create(config.uploads().media()));
    }

    /** The service with another analysis engine (tests that must not depend on decoder timing). */
    public static ScorecastServer start(ServerConfig config, AnalysisEngine analysisEngine) {
        // A node's clock set ahead or behind the others (SCORECAST_CLOCK_OFFSET_SECONDS): fault campaigns run one 60 s ahead.
        return start(config, analysisEngine, Clock.offset(Clock.systemUTC(), config.ops().clockOffset()));
    }

    /**
     * The service reading the time from {@code clock}: every expiry, deadline, retention and link
     * signature, so a test can move time on instead of waiting for it.
     */
    public static ScorecastServer start(ServerConfig config, AnalysisEngine analysisEngine, Clock clock) {
        Path data = config.dataDir();
        Path multipartTemp = data.resolve("tmp/multipart");
        createDirectories(multipartTemp);
        Role role = config.role();
        String nodeId = config.nodeId();

        Scratch scratch = Scratch.under(data.resolve("tmp/scratch"));
        // A database or store that does not answer yet is waited for (the port answering /readyz 503 meanwhile), not a reason to exit.
        var opened = StartingNode.await(config.host(), config.port(), () -> openDependencies(config, scratch));
        Database database = opened.value().database();
        BlobStore blobs = opened.value().blobs();
        int listenPort = opened.port();
        ApiKeys keys = new ApiKeys(database);
        // A key for a first look, made and shown once, only on a node of its own (SQLite): a node of a fleet on a shared database
        // would print a working key into logs that others collect.
        String developmentKey = role.servesClients() && database.isSqlite() && keys.none() ? keys.create("dev") : null;
        var quotas = new QuotaGuard(config.quotas(), data, database);
        var uploads = new UploadService(database, blobs, config.uploads(), quotas, clock, nodeId);
        var metrics = new Metrics(database, role.wire());

        ObjectMapper mapper = Json.mapper();
        // Webhooks first: job, upload and stream changes write their deliveries through the outbox, in their own transactions.
        var webhookRepository = new WebhookRepository(database);
        var deliveries = new DeliveryRepository(database);
        var outbox = new Outbox(webhookRepository, deliveries, mapper, config.webhooks().retryFor(), clock);
        uploads.listen(outbox);
        var jobRepository = new JobRepository(database, clock, outbox);
        var analyses = new AnalysisService(database, blobs, uploads, jobRepository, analysisEngine, quotas, mapper,
                clock);
        GenreCatalog genres = GenreCatalog.builtIn();
        var plans = new PlanService(database, blobs, analyses, uploads, new Planner(genres), new MarkerArrangement(genres),
                PlanningPool.standard(), mapper, quotas, clock);
        var listening = new AtomicReference<Javalin>();
        Optional<String> linkSecretSet = Optional.ofNullable(System.getenv("SCORECAST_LINK_SECRET")).filter(v -> !v.isBlank());
        byte[] linkSecret = new SharedSecrets(database).get(DownloadLinks.SECRET_NAME, linkSecretSet, DownloadLinks.legacySecret(data));
        var linkSecrets = new LinkSecrets(database, clock, linkSecret, linkSecretSet,
                Optional.ofNullable(System.getenv("SCORECAST_LINK_SECRET_PREVIOUS")).filter(v -> !v.isBlank()), config.ops().linkSecretOverlap());
        var streams = new StreamRegistry(database, clock, PlayerService.abandonedAfter(config.player().streamTtl()), outbox);
        // A revoked key's live streams end (their nodes drop them at their next sweep), and so do their session tokens.
        var revokedKeys = new RevokedKeys(keys, ids -> {
            int ended = streams.endMadeWith(ids);
            if (ended > 0) {
                LOG.info("ended {} live streams of revoked keys {}", ended, ids);
            }
        });
        var downloadLinks = new DownloadLinks(() -> config.publicUrl(listening.get().port()), linkSecrets, revokedKeys::revoked, clock);
        var soundBank = new LazySoundBank(config.soundFont());
        var executions = new ExecutionService(database, blobs, uploads, plans, jobRepository, soundBank,
                downloadLinks, quotas, mapper, scratch.root().resolve("executions"), clock);
        Supplier<String> nodeUrl = () -> config.nodeUrl(listening.get().port());
        PlayerService player = role.servesClients() ? startPlayer(config, soundBank, genres, streams, nodeUrl, downloadLinks, clock) : null;
        if (player != null) {
            metrics.player(player::streams, () -> player.engine().lateBlocks(), () -> player.engine().lateSections());
        }
        var relay = new NodeRelay(nodeUrl);

        var webhooks = new Webhooks(database, webhookRepository, deliveries, outbox, quotas, config.webhooks(), AddressGuard.Resolver.SYSTEM, clock);
        // Nodes that run jobs send the webhooks; nodes that answer clients stream progress events.
        Dispatcher dispatcher = role.runsJobs() ? new Dispatcher(deliveries, webhookRepository, outbox,
                new EventObjects(uploads, analyses, executions, genres, mapper),
                new Sender(new AddressGuard(config.webhooks().allowLocal()), AddressGuard.Resolver.SYSTEM, defaultTls(), config.webhooks().timeout()),
                config.webhooks(), clock, nodeId, mapper, RandomGenerator.getDefault()) : null;
        JobFeed jobFeed = role.servesClients() ? new JobFeed(database, config.events().pollInterval()) : null;
        EventStreamApi eventStreams = role.servesClients() ? new EventStreamApi(executions, analyses, jobFeed, genres, config.events(), mapper) : null;
        var eventLinks = new EventLinks(downloadLinks, executions, analyses);
        if (eventStreams != null) {
            metrics.eventStreams(eventStreams::open);
        }

        // One node at a time runs each sweep (Upkeep, a thread of its own), on the clock every other service reads.
        var retention = new Retention(database, blobs, quotas, clock, config.retention().keep(), config.retention().keepFailed());
        var orphans = new OrphanSweeper(database, blobs, data, clock, config.retention().grace());

        // Built now, so that requests can queue jobs; run from start() once this node holds its port.
        JobRunner jobs = JobRunner.builder(database, nodeId)
                .runsJobs(role.runsJobs())
                .threads(config.workerThreads())
                .heartbeat(config.jobHeartbeat())
                .fairTurns()
                .memory(new JobMemory(config.ops().jobMemoryBytes() > 0 ? config.ops().jobMemoryBytes() : JobMemory.defaultBudget()))
                .timer(metrics::jobRun)
                .task(AnalysisService.TASK, analyses::run)
                .task(ExecutionService.TASK, executions::run)
                .build();
        Upkeep upkeep = new Upkeep(database, clock, nodeId, List.of(
                new Upkeep.Sweep("expire-uploads", Duration.ofMinutes(10), () -> {
                    int removed = uploads.removeExpired();
                    if (removed > 0) {
                        LOG.info("removed {} expired uploads", removed);
                    }
                }),
                new Upkeep.Sweep("retention", Duration.ofHours(1), () -> {
                    var removed = retention.sweep();
                    if (removed.executions() + removed.videos() + removed.analyses() > 0) {
                        LOG.info("retention removed {} ended executions, {} unused videos and {} superseded analyses", removed.executions(),
                                removed.videos(), removed.analyses());
                    }
                }),
                new Upkeep.Sweep("sweep-orphans", Duration.ofHours(6), orphans::sweep),
                new Upkeep.Sweep("forget-ended-streams", Duration.ofHours(1),
                        () -> streams.forgetEndedBefore(clock.instant().minus(Duration.ofDays(1)))),
                new Upkeep.Sweep("forget-webhook-deliveries", Duration.ofHours(6),
                        () -> webhooks.forgetEndedBefore(clock.instant().minus(Webhooks.KEEP)))));
        analyses.attach(jobs);
        executions.attach(jobs);

        var readiness = new Readiness(() -> database.query(c -> Rows.one(c, "SELECT 1 AS one", row -> row.getInt("one"))), blobs::checkReachable);
        var health = new HealthApi(readiness, metrics, role.wire(), nodeId, config.ops().token());
        var failedAuthentications = new FailedAuthentications(config.ops().authFailuresPerMinute(), clock);
        metrics.guards(readiness::checks, failedAuthentications::refused);
        Javalin ops = config.ops().port().isPresent() ? opsServer(health) : null;
        List<Route> routes = new CopyOnWriteArrayList<>();
        Javalin app = Javalin.create(javalin -> {
            javalin.concurrency.useVirtualThreads = true;
            javalin.jsonMapper(new JavalinJackson(mapper, true));
            javalin.http.compressionStrategy = CompressionStrategy.NONE;
            javalin.http.maxRequestSize = config.maxJsonBytes();
            // Jetty counts multipart parts against the context's form-key limit (1,000 by default).
            javalin.jetty.modifyServletContextHandler(context -> context.setMaxFormKeys(SyncBApi.MAX_PARTS));
            // A body trickled in (slow-loris) ends in 408 once its average rate falls under the minimum
            // (MinimumBodyRate says why not Jetty's own minRequestDataRate).
            javalin.jetty.modifyServletContextHandler(handler -> handler.addFilter(
                    new FilterHolder(new MinimumBodyRate(config.uploads().minBytesPerSecond())),
                    "/*", java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST)));
            javalin.startup.showJavalinBanner = false;
            // At most this many connections open at once: past it Jetty stops accepting until one closes (they wait in the backlog).
            javalin.jetty.modifyServer(server -> server.addBean(new NetworkConnectionLimit(
                    config.ops().maxConnections(), server)));
            // Jetty's idle timeout is renewed by each header byte: headers sent a byte a second are cut off here instead.
            javalin.jetty.modifyServer(server -> server.addBean(new HeaderTimeout(server, config.ops().headerTimeout())));
            javalin.events.handlerAdded(info -> {
                if (info.getHttpMethod().isHttpMethod()) {
                    routes.add(new Route(info.getHttpMethod().name(), info.getPath()));
                }
            });
            javalin.requestLogger.http((ctx, millis) -> {
                var endpoint = ctx.endpoints().matchedHttpEndpoint();
                metrics.request(ctx.method().name(), endpoint == null ? "unmatched" : endpoint.path, ctx.statusCode(), millis / 1000.0);
            });
            ApiErrors.install(javalin);
            if (ops == null) {
                health.register(javalin.routes);
            } else {
                health.registerLiveness(javalin.routes); // readiness and metrics on the operations port alone
            }
            if (role.servesClients()) {
                var requests = new Requests(mapper, config.maxJsonBytes());
                var bodyCaps = bodyCaps(config);
                // First, before authentication: a declared body over the cap is refused before anything reads it.
                javalin.routes.beforeMatched(bodyCaps::check);
                var authenticator = new Authenticator(keys, player, eventLinks, failedAuthentications, revokedKeys);
                var inFlight = new RequestsInFlight(config.quotas().maxRequestsInFlight());
                var memory = new MemoryBudget(config.ops().maxBufferedBytes() > 0 ? config.ops().maxBufferedBytes() : MemoryBudget.defaultCapacity());
                javalin.routes.beforeMatched(ctx -> {
                    if (!PUBLIC_PATHS.contains(ctx.path()) && !HealthApi.PATHS.contains(ctx.path())
                            && !ctx.path().startsWith(DownloadLinks.PREFIX) && !StudioPage.isStudioPath(ctx.path())
                            && !ctx.path().startsWith(HlsApi.PREFIX)) { // shared experiences' HLS is public (docs/PLAYER.md, "HLS")
                        authenticator.authenticate(ctx);
                        String user = Authenticator.principal(ctx).user();
                        // Links made for this request carry its key, so revoking the key ends them (cleared in the after-handler).
                        DownloadLinks.issuer(Authenticator.principal(ctx).keyId());
                        inFlight.enter(user);
                        ctx.attribute(IN_FLIGHT, user); // counted: the after-handler lets it go, however the request ended
                        // What its body may cost in memory, over every user's requests on this node (503 when it does not fit).
                        long cost = MemoryBudget.cost(ctx.contentType(), ctx.req().getContentLengthLong(), config.maxJsonBytes());
                        ctx.attribute(BUFFERED, memory.reserve(cost));
                    }
                });
                javalin.routes.afterMatched(ctx -> {
                    DownloadLinks.clearIssuer();
                    String user = ctx.attribute(IN_FLIGHT);
                    if (user != null) {
                        ctx.attribute(IN_FLIGHT, null);
                        inFlight.leave(user);
                    }
                    Long buffered = ctx.attribute(BUFFERED);
                    if (buffered != null) {
                        ctx.attribute(BUFFERED, null);
                        memory.release(buffered);
                    }
                });
                new SyncAApi(uploads, analyses, plans, executions, genres, requests, config.uploads().maxChunkBytes(), eventLinks,
                        new ConformService(analyses, executions, plans, uploads, blobs, genres))
                        .register(javalin.routes);
                eventStreams.register(javalin.routes);
                new WebhooksApi(webhooks, requests, config.webhooks().maxPerUser()).register(javalin.routes);
                new SyncBApi(uploads, analyses, plans, executions, genres, config.analysisWait(), requests, multipartTemp,
                        config.uploads().maxChunkBytes()).register(javalin.routes);
                new PlayerApi(player, new StreamRouting(player, relay), genres, requests).register(javalin.routes);
                new HlsApi(player.hls(), player.experiences()).register(javalin.routes);
                new DownloadsApi(downloadLinks, executions, blobs, config.storage().presignedDownloads()).register(javalin.routes);
                new OpenApiDocument().register(javalin.routes);
                new LibraryApi(new Library(database)).register(javalin.routes);
                new ThumbnailsApi(uploads, new Thumbnails(blobs, config.uploads().media(), quotas)).register(javalin.routes);
                new StudioPage(() -> config.publicUrl(listening.get().port())).register(javalin.routes);
            }
        });
        Instant started = Instant.now();
        try {
            listening.set(app);
            app.start(config.host(), listenPort);
            if (ops != null) {
                ops.start(config.host(), config.ops().port().getAsInt());
            }
            // Only now, holding the port: an earlier run of this node is surely gone, so what it held is free.
            uploads.recover();
            jobs.start();
            if (dispatcher != null) {
                dispatcher.start();
            }
            if (role.runsJobs()) {
                upkeep.start();
                analyses.requeueUnfinished();
                executions.requeueUnfinished();
            }
        } catch (RuntimeException e) {
            app.stop();
            closeAll(dispatcher, jobFeed, revokedKeys);
            if (ops != null) {
                ops.stop();
            }
            upkeep.close();
            relay.close();
            if (player != null) {
                player.close();
            }
            jobs.close();
            uploads.close();
            closeStore(blobs);
            database.close();
            throw e;
        }
        if (player != null) {
            player.releaseStreamsOfEarlierRuns(started);
        }
        LOG.info("Scorecast {} node {} listening on http://{}:{} (links use {}, other nodes reach it at {}), files in {}, data in {}",
                role.wire(), nodeId, config.host(), app.port(), config.publicUrl(app.port()), nodeUrl.get(), config.storage().describe(), data);
        if (config.nodeUrlIsDefault() && !database.isSqlite() && role.servesClients()) {
            LOG.warn("SCORECAST_NODE_URL is unset: nodes on other machines cannot forward player calls to {}; set it to this node's address",
                    nodeUrl.get());
        }
        return new ScorecastServer(config, database, uploads, jobs, app, keys, routes, developmentKey, player, relay, blobs, dispatcher, jobFeed,
                eventStreams, ops, upkeep, revokedKeys);
    }

    /** The database and the store, both answering; what opened is closed again when the other fails. */
    private static Dependencies openDependencies(ServerConfig config, Scratch scratch) {
        Database database = Database.open(config.dbUrl());
        try {
            BlobStore blobs = config.storage().isS3() ? S3BlobStore.open(config.storage(), scratch)
                    : new LocalBlobStore(config.dataDir().resolve("files"), scratch);
            try {
                if (config.storage().isS3()) {
                    blobs.checkReachable();
                }
                return new Dependencies(database, blobs);
            } catch (RuntimeException e) {
                closeStore(blobs);
                throw e;
            }
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private record Dependencies(Database database, BlobStore blobs) {}

    /** {@code /healthz}, {@code /readyz} and {@code /metrics} on a port of their own (SCORECAST_OPS_PORT). */
    private static Javalin opsServer(HealthApi health) {
        return Javalin.create(javalin -> {
            javalin.startup.showJavalinBanner = false;
            javalin.concurrency.useVirtualThreads = true;
            ApiErrors.install(javalin);
            health.register(javalin.routes);
        });
    }

    /** JSON bodies up to SCORECAST_MAX_JSON_BYTES; a raw chunk up to the chunk limit; multipart bodies a chunk and a JSON part. */
    private static BodyCaps bodyCaps(ServerConfig config) {
        long maxChunk = config.uploads().maxChunkBytes();
        var caps = new HashMap<String, Long>();
        caps.put("/sync/upload_chunk", maxChunk);
        SyncBApi.MULTIPART_PATHS.forEach(path -> caps.put(path, SyncBApi.maxBodyBytes(maxChunk, config.maxJsonBytes())));
        return new BodyCaps(config.maxJsonBytes(), caps);
    }

    private static PlayerService startPlayer(ServerConfig config, LazySoundBank soundBank, GenreCatalog genres, StreamRegistry streams,
                                             Supplier<String> nodeUrl, DownloadLinks downloadLinks, Clock clock) {
        var playerSettings = config.player();
        var liveEngine = new LiveEngine(soundBank, genres, ExperienceCatalog.builtIn(genres), new LiveSettings(playerSettings.blockFrames(),
                playerSettings.lookaheadMillis() * LiveSettings.DEFAULT_RATE / 1000, playerSettings.threads(), LiveSettings.DEFAULT.polyphony(),
                LiveSettings.DEFAULT.interpolation(), LiveSettings.DEFAULT.masterGain(), playerSettings.maxPerformances(),
                playerSettings.burstMillis() * LiveSettings.DEFAULT_RATE / 1000));
        if (playerSettings.warmUpSeconds() > 0) {
            // Before the port opens: the first streams get compiled code and instruments in memory.
            long started = System.nanoTime();
            int played = liveEngine.warmUp(playerSettings.warmUpSeconds());
            LOG.info("live player warmed up: {} s of each of {} experiences in {} ms", playerSettings.warmUpSeconds(), played,
                    (System.nanoTime() - started) / 1_000_000);
        }
        return new PlayerService(liveEngine, streams, nodeUrl, downloadLinks, playerSettings.streamTtl(), clock);
    }

    /** The JDK's TLS with its default trust store: webhook receivers need a certificate any client would accept. */
    private static SSLSocketFactory defaultTls() {
        try {
            return SSLContext.getDefault().getSocketFactory();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no default TLS context", e);
        }
    }

    private static void closeAll(AutoCloseable... parts) {
        for (AutoCloseable part : parts) {
            if (part != null) {
                try {
                    part.close();
                } catch (Exception e) {
                    LOG.warn("closing {} failed", part.getClass().getSimpleName(), e);
                }
            }
        }
    }

    private static void closeStore(BlobStore blobs) {
        if (blobs instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("closing the object store client failed", e);
            }
        }
    }

    public int port() {
        return app.port();
    }

    /** The base of the links this server hands out. */
    public String publicUrl() {
        return config.publicUrl(app.port());
    }

    public ApiKeys keys() {
        return keys;
    }

    /** The key created because the database had none, to be shown once; empty on later starts. */
    /** The revoked keys as this node knows them (read from the database every second). */
    public RevokedKeys revokedKeys() {
        return revokedKeys;
    }

    public Optional<String> developmentKey() {
        return Optional.ofNullable(developmentKey);
    }

    /** Every HTTP route Javalin registered, as the OpenAPI test compares them. */
    public List<Route> routes() {
        return List.copyOf(routes);
    }

    /** The base URL other nodes forward player calls to. */
    public String nodeUrl() {
        return config.nodeUrl(app.port());
    }

    /** The live player's streams (tests look at what expiry frees); none on a worker. */
    public PlayerService player() {
        return player;
    }

    /** The name this node holds jobs under. */
    public String nodeId() {
        return jobs.nodeId();
    }

    /** This node's webhook sender; none on an api node. Tests run a round of deliveries with it. */
    public Optional<Dispatcher> webhookDispatcher() {
        return Optional.ofNullable(dispatcher);
    }

    /** Progress event streams open on this node. */
    public int openEventStreams() {
        return eventStreams == null ? 0 : eventStreams.open();
    }

    /** The port of /readyz and /metrics when they have their own (SCORECAST_OPS_PORT), else the API's. */
    public int opsPort() {
        return ops != null ? ops.port() : app.port();
    }

    @Override
    public void close() {
        app.stop();
        closeAll(dispatcher, jobFeed, revokedKeys);
        if (ops != null) {
            ops.stop();
        }
        upkeep.close();
        relay.close();
        if (player != null) {
            player.close();
        }
        jobs.close();
        uploads.close();
        closeStore(blobs);
        database.close();
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    /** An HTTP method and path as registered. */
    public record Route(String method, String path) {}
}
