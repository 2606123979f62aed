package dev.scorecast.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.io.Json;
import dev.scorecast.engine.live.ExperienceCatalog;
import dev.scorecast.engine.live.LiveEngine;
import dev.scorecast.engine.live.LiveSettings;
import dev.scorecast.engine.plan.MarkerArrangement;
import dev.scorecast.engine.plan.Planner;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.server.analysis.AnalysisEngine;
import dev.scorecast.server.analysis.AnalysisJob;
import dev.scorecast.server.analysis.AnalysisService;
import dev.scorecast.server.analysis.EngineAnalysis;
import dev.scorecast.server.api.Authenticator;
import dev.scorecast.server.api.BodyCaps;
import dev.scorecast.server.api.DownloadsApi;
import dev.scorecast.server.api.EventLinks;
import dev.scorecast.server.api.EventObjects;
import dev.scorecast.server.api.EventStreamApi;
import dev.scorecast.server.api.HlsApi;
import dev.scorecast.server.api.LibraryApi;
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
import dev.scorecast.server.execution.ExecutionJob;
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
import io.javalin.config.RoutesConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole service wired in one place: storage, database, jobs, and the HTTP surfaces. Each part gets what it needs in
 * its constructor, built in the order they need each other; the HTTP servers are {@link ApiApp}'s, the checks every
 * client request passes {@link RequestGate}'s, and what closes, in which order, one {@link Teardown}.
 */
public final class ScorecastServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScorecastServer.class);

    private final ServerConfig config;
    private final String nodeId;
    private final Javalin app;
    private final Javalin ops;
    private final ApiKeys keys;
    private final RevokedKeys revokedKeys;
    private final String developmentKey;
    private final List<Route> routes;
    private final PlayerService player;
    private final Dispatcher dispatcher;
    private final EventStreamApi eventStreams;
    private final Teardown teardown;

    private ScorecastServer(
            ServerConfig config,
            Javalin app,
            Javalin ops,
            ApiKeys keys,
            RevokedKeys revokedKeys,
            String developmentKey,
            List<Route> routes,
            PlayerService player,
            Dispatcher dispatcher,
            EventStreamApi eventStreams,
            Teardown teardown) {
        this.config = config;
        this.nodeId = config.nodeId();
        this.app = app;
        this.ops = ops;
        this.keys = keys;
        this.revokedKeys = revokedKeys;
        this.developmentKey = developmentKey;
        this.routes = routes;
        this.player = player;
        this.dispatcher = dispatcher;
        this.eventStreams = eventStreams;
        this.teardown = teardown;
    }

    public static ScorecastServer start(ServerConfig config) {
        return start(config, EngineAnalysis.create(config.uploads().media()));
    }

    /** The service with another analysis engine (tests that must not depend on decoder timing). */
    public static ScorecastServer start(ServerConfig config, AnalysisEngine analysisEngine) {
        // A node's clock set ahead or behind the others (SCORECAST_CLOCK_OFFSET_SECONDS): fault campaigns run one 60 s
        // ahead.
        return start(
                config,
                analysisEngine,
                Clock.offset(Clock.systemUTC(), config.ops().clockOffset()));
    }

    /**
     * The service reading the time from {@code clock}: every expiry, deadline, retention and link
     * signature, so a test can move time on instead of waiting for it. Durations and waits (request
     * deadlines, rates, caches) are measured on the system's monotonic {@link Ticker}, never on the clock.
     */
    public static ScorecastServer start(ServerConfig config, AnalysisEngine analysisEngine, Clock clock) {
        Ticker ticker = Ticker.SYSTEM;
        Path data = config.dataDir();
        Path multipartTemp = data.resolve("tmp/multipart");
        createDirectories(multipartTemp);
        Role role = config.role();
        String nodeId = config.nodeId();

        Scratch scratch = Scratch.under(data.resolve("tmp/scratch"));
        // A database or store that does not answer yet is waited for (the port answering /readyz 503 meanwhile), not a
        // reason to exit.
        var opened = StartingNode.await(config.host(), config.port(), () -> openDependencies(config, scratch));
        Database database = opened.value().database();
        BlobStore blobs = opened.value().blobs();
        int listenPort = opened.port();
        ApiKeys keys = new ApiKeys(database, clock);
        // A key for a first look, made and shown once, only on a node of its own (SQLite): a node of a fleet on a
        // shared database
        // would print a working key into logs that others collect.
        String developmentKey = role.servesClients() && database.isSqlite() && keys.none() ? keys.create("dev") : null;
        var quotas = new QuotaGuard(config.quotas(), data, database, clock);
        var uploads = new UploadService(database, blobs, config.uploads(), quotas, clock, nodeId);
        var metrics = new Metrics(database, role.wire());

        ObjectMapper mapper = Json.mapper();
        // Webhooks first: job, upload and stream changes write their deliveries through the outbox, in their own
        // transactions.
        var webhookRepository = new WebhookRepository(database);
        var deliveries = new DeliveryRepository(database);
        var outbox = new Outbox(
                webhookRepository, deliveries, mapper, config.webhooks().retryFor(), clock);
        uploads.listen(outbox);
        var jobRepository = new JobRepository(database, clock, outbox);
        GenreCatalog genres = GenreCatalog.builtIn();
        // The API port, known once it listens: links and the node's URL ask for it then.
        var listening = new AtomicReference<Javalin>();
        Optional<String> linkSecretSet =
                Optional.ofNullable(System.getenv("SCORECAST_LINK_SECRET")).filter(v -> !v.isBlank());
        byte[] linkSecret = new SharedSecrets(database, clock)
                .get(DownloadLinks.SECRET_NAME, linkSecretSet, DownloadLinks.legacySecret(data));
        var linkSecrets = new LinkSecrets(
                database,
                clock,
                ticker,
                linkSecret,
                linkSecretSet,
                Optional.ofNullable(System.getenv("SCORECAST_LINK_SECRET_PREVIOUS"))
                        .filter(v -> !v.isBlank()),
                config.ops().linkSecretOverlap());
        var streams = new StreamRegistry(
                database, clock, PlayerService.abandonedAfter(config.player().streamTtl()), outbox);
        // A revoked key's live streams end (their nodes drop them at their next sweep), and so do their session tokens.
        var revokedKeys = new RevokedKeys(keys, ids -> {
            int ended = streams.endMadeWith(ids);
            if (ended > 0) {
                LOG.info("ended {} live streams of revoked keys {}", ended, ids);
            }
        });
        var downloadLinks = new DownloadLinks(
                () -> config.publicUrl(listening.get().port()), linkSecrets, revokedKeys::revoked, clock);
        var soundBank = new LazySoundBank(config.soundFont());

        // The jobs' work first, then the runner that runs it (built now, so that requests can queue jobs; run from
        // listening on),
        // then the services that queue jobs on it.
        var analysisJob =
                new AnalysisJob(database, blobs, uploads, jobRepository, analysisEngine, quotas, mapper, clock);
        var executionJob = new ExecutionJob(
                database,
                blobs,
                uploads,
                jobRepository,
                soundBank,
                downloadLinks,
                quotas,
                mapper,
                scratch.root().resolve("executions"),
                clock);
        JobRunner jobs = JobRunner.builder(database, nodeId, clock)
                .runsJobs(role.runsJobs())
                .threads(config.workerThreads())
                .heartbeat(config.jobHeartbeat())
                .fairTurns()
                .memory(new JobMemory(
                        config.ops().jobMemoryBytes() > 0 ? config.ops().jobMemoryBytes() : JobMemory.defaultBudget()))
                .timer(metrics::jobRun)
                .task(AnalysisService.TASK, analysisJob::run)
                .task(ExecutionService.TASK, executionJob::run)
                .build();
        var jobFeed = new JobFeed(database, config.events().pollInterval());
        var analyses =
                new AnalysisService(database, blobs, uploads, jobRepository, jobs, jobFeed, quotas, clock, ticker);
        var plans = new PlanService(
                database,
                blobs,
                analyses,
                uploads,
                new Planner(genres),
                new MarkerArrangement(genres),
                PlanningPool.standard(),
                mapper,
                quotas,
                clock);
        var executions =
                new ExecutionService(database, blobs, uploads, jobRepository, jobs, downloadLinks, quotas, clock);

        Supplier<String> nodeUrl = () -> config.nodeUrl(listening.get().port());
        PlayerService player = role.servesClients()
                ? startPlayer(config, soundBank, genres, streams, nodeUrl, downloadLinks, clock, ticker)
                : null;
        if (player != null) {
            metrics.player(
                    player::streams,
                    () -> player.engine().lateBlocks(),
                    () -> player.engine().lateSections());
        }
        var relay = new NodeRelay(nodeUrl);

        var webhooks = new Webhooks(
                database,
                webhookRepository,
                deliveries,
                outbox,
                quotas,
                config.webhooks(),
                AddressGuard.Resolver.SYSTEM,
                clock);
        // Nodes that run jobs send the webhooks; nodes that answer clients stream progress events.
        Dispatcher dispatcher = role.runsJobs()
                ? new Dispatcher(
                        deliveries,
                        webhookRepository,
                        outbox,
                        new EventObjects(uploads, analyses, executions, genres, mapper),
                        new Sender(
                                new AddressGuard(config.webhooks().allowLocal()),
                                AddressGuard.Resolver.SYSTEM,
                                defaultTls(),
                                config.webhooks().timeout()),
                        config.webhooks(),
                        clock,
                        nodeId,
                        mapper,
                        RandomGenerator.getDefault())
                : null;
        EventStreamApi eventStreams = role.servesClients()
                ? new EventStreamApi(executions, analyses, jobFeed, genres, config.events(), mapper, ticker)
                : null;
        var eventLinks = new EventLinks(downloadLinks, executions, analyses);
        if (eventStreams != null) {
            metrics.eventStreams(eventStreams::open);
        }

        // One node at a time runs each sweep (Upkeep, a thread of its own), on the clock every other service reads.
        var retention = new Retention(
                database,
                blobs,
                quotas,
                clock,
                config.retention().keep(),
                config.retention().keepFailed());
        var orphans = new OrphanSweeper(
                database, blobs, data, clock, config.retention().grace());
        Upkeep upkeep = new Upkeep(
                database,
                clock,
                nodeId,
                List.of(
                        new Upkeep.Sweep("expire-uploads", Duration.ofMinutes(10), () -> {
                            int removed = uploads.removeExpired();
                            if (removed > 0) {
                                LOG.info("removed {} expired uploads", removed);
                            }
                        }),
                        new Upkeep.Sweep("retention", Duration.ofHours(1), () -> {
                            var removed = retention.sweep();
                            if (removed.executions() + removed.videos() + removed.analyses() > 0) {
                                LOG.info(
                                        "retention removed {} ended executions, {} unused videos and {} superseded analyses",
                                        removed.executions(),
                                        removed.videos(),
                                        removed.analyses());
                            }
                        }),
                        new Upkeep.Sweep("sweep-orphans", Duration.ofHours(6), orphans::sweep),
                        new Upkeep.Sweep("queue-unscheduled-jobs", JobRunner.UNSCHEDULED_AFTER, () -> {
                            analyses.requeueUnscheduled();
                            executions.requeueUnscheduled();
                        }),
                        new Upkeep.Sweep(
                                "forget-ended-streams",
                                Duration.ofHours(1),
                                () -> streams.forgetEndedBefore(clock.instant().minus(Duration.ofDays(1)))),
                        new Upkeep.Sweep(
                                "forget-webhook-deliveries",
                                Duration.ofHours(6),
                                () -> webhooks.forgetEndedBefore(clock.instant().minus(Webhooks.KEEP)))));

        var readiness = new Readiness(
                () -> database.query(c -> Rows.one(c, "SELECT 1 AS one", row -> row.getInt("one"))),
                blobs::checkReachable,
                ticker);
        var health = new HealthApi(
                readiness, metrics, role.wire(), nodeId, config.ops().token());
        var failedAuthentications = new FailedAuthentications(config.ops().authFailuresPerMinute(), clock);
        metrics.guards(readiness::checks, failedAuthentications::refused);
        Javalin ops = config.ops().port().isPresent() ? ApiApp.ops(health) : null;

        // What the API port serves, in order: health (readiness and metrics only when they have no port of their own),
        // then
        // on a node that answers clients, the request gate before every API.
        List<Consumer<RoutesConfig>> surfaces = new ArrayList<>();
        surfaces.add(ops == null ? health::register : health::registerLiveness);
        if (role.servesClients()) {
            var requests = new Requests(mapper, config.maxJsonBytes());
            var gate = new RequestGate(
                    bodyCaps(config),
                    new Authenticator(keys, player, eventLinks, failedAuthentications, revokedKeys),
                    new RequestsInFlight(config.quotas().maxRequestsInFlight()),
                    new MemoryBudget(
                            config.ops().maxBufferedBytes() > 0
                                    ? config.ops().maxBufferedBytes()
                                    : MemoryBudget.defaultCapacity()),
                    config.maxJsonBytes());
            surfaces.addAll(List.of(
                    gate::register,
                    new SyncAApi(
                            uploads,
                            analyses,
                            plans,
                            executions,
                            genres,
                            requests,
                            config.uploads().maxChunkBytes(),
                            eventLinks,
                            new ConformService(analyses, executions, plans, uploads, blobs, genres))::register,
                    eventStreams::register,
                    new WebhooksApi(webhooks, requests, config.webhooks().maxPerUser())::register,
                    new SyncBApi(
                            uploads,
                            analyses,
                            plans,
                            executions,
                            genres,
                            config.analysisWait(),
                            requests,
                            multipartTemp,
                            config.uploads().maxChunkBytes())::register,
                    new PlayerApi(player, new StreamRouting(player, relay), genres, requests)::register,
                    new HlsApi(player.hls(), player.experiences())::register,
                    new DownloadsApi(
                            downloadLinks, executions, blobs, config.storage().presignedDownloads(), ticker)::register,
                    new OpenApiDocument()::register,
                    new LibraryApi(new Library(database))::register,
                    new ThumbnailsApi(
                            uploads, new Thumbnails(blobs, config.uploads().media(), quotas, ticker))::register,
                    new StudioPage(() -> config.publicUrl(listening.get().port()))::register));
        }
        List<Route> routes = new CopyOnWriteArrayList<>();
        Javalin app = ApiApp.create(config, mapper, metrics, ticker, routes, surfaces);

        // Closed in this order by close(), and by a start that fails from here on.
        var teardown = new Teardown()
                .then("the API port", app::stop)
                .then("the webhook dispatcher", dispatcher)
                .then("the job feed", jobFeed)
                .then("the revoked keys' reader", revokedKeys)
                .then("the operations port", ops == null ? null : ops::stop)
                .then("upkeep", upkeep)
                .then("the node relay", relay)
                .then("the live player", player)
                .then("the job runner", jobs)
                .then("uploads", uploads::close)
                .then("the object store client", storeClient(blobs))
                .then("the database", database);
        // The streams of an earlier run of this node: those made before now, on the clock their rows are dated by.
        Instant started = clock.instant();
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
            teardown.close();
            throw e;
        }
        if (player != null) {
            player.releaseStreamsOfEarlierRuns(started);
        }
        LOG.info(
                "Scorecast {} node {} listening on http://{}:{} (links use {}, other nodes reach it at {}), files in {}, data in {}",
                role.wire(),
                nodeId,
                config.host(),
                app.port(),
                config.publicUrl(app.port()),
                nodeUrl.get(),
                config.storage().describe(),
                data);
        if (config.nodeUrlIsDefault() && !database.isSqlite() && role.servesClients()) {
            LOG.warn(
                    "SCORECAST_NODE_URL is unset: nodes on other machines cannot forward player calls to {}; set it to this node's address",
                    nodeUrl.get());
        }
        return new ScorecastServer(
                config,
                app,
                ops,
                keys,
                revokedKeys,
                developmentKey,
                routes,
                player,
                dispatcher,
                eventStreams,
                teardown);
    }

    /** The database and the store, both answering; what opened is closed again when the other fails. */
    private static Dependencies openDependencies(ServerConfig config, Scratch scratch) {
        Database database = Database.open(config.dbUrl());
        try {
            BlobStore blobs = config.storage().isS3()
                    ? S3BlobStore.open(config.storage(), scratch)
                    : new LocalBlobStore(config.dataDir().resolve("files"), scratch);
            try {
                if (config.storage().isS3()) {
                    blobs.checkReachable();
                }
                return new Dependencies(database, blobs);
            } catch (RuntimeException e) {
                new Teardown()
                        .then("the object store client", storeClient(blobs))
                        .close();
                throw e;
            }
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private record Dependencies(Database database, BlobStore blobs) {}

    /** JSON bodies up to SCORECAST_MAX_JSON_BYTES; a raw chunk up to the chunk limit; multipart bodies a chunk and a JSON part. */
    private static BodyCaps bodyCaps(ServerConfig config) {
        long maxChunk = config.uploads().maxChunkBytes();
        var caps = new HashMap<String, Long>();
        caps.put("/sync/upload_chunk", maxChunk);
        SyncBApi.MULTIPART_PATHS.forEach(
                path -> caps.put(path, SyncBApi.maxBodyBytes(maxChunk, config.maxJsonBytes())));
        return new BodyCaps(config.maxJsonBytes(), caps);
    }

    private static PlayerService startPlayer(
            ServerConfig config,
            LazySoundBank soundBank,
            GenreCatalog genres,
            StreamRegistry streams,
            Supplier<String> nodeUrl,
            DownloadLinks downloadLinks,
            Clock clock,
            Ticker ticker) {
        var playerSettings = config.player();
        var liveEngine = new LiveEngine(
                soundBank,
                genres,
                ExperienceCatalog.builtIn(genres),
                LiveSettings.DEFAULT
                        .withBlockFrames(playerSettings.blockFrames())
                        .withThreads(playerSettings.threads())
                        .withLookaheadFrames(playerSettings.lookaheadMillis() * LiveSettings.DEFAULT_RATE / 1000)
                        .withMaxPerformances(playerSettings.maxPerformances())
                        .withBurstFrames(playerSettings.burstMillis() * LiveSettings.DEFAULT_RATE / 1000),
                ticker);
        if (playerSettings.warmUpSeconds() > 0) {
            // Before the port opens: the first streams get compiled code and instruments in memory.
            long started = Ticker.SYSTEM.nanos();
            int played = liveEngine.warmUp(playerSettings.warmUpSeconds());
            LOG.info(
                    "live player warmed up: {} s of each of {} experiences in {} ms",
                    playerSettings.warmUpSeconds(),
                    played,
                    Ticker.SYSTEM.since(started).toMillis());
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

    /** The store's client, when it holds one (S3); a store of local files has nothing to close. */
    private static AutoCloseable storeClient(BlobStore blobs) {
        return blobs instanceof AutoCloseable closeable ? closeable : null;
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

    /** The revoked keys as this node knows them (read from the database every second). */
    public RevokedKeys revokedKeys() {
        return revokedKeys;
    }

    /** The key created because the database had none, to be shown once; empty on later starts. */
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
        return nodeId;
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
        teardown.close();
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
