package dev.scorecast.server.ops;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code GET /metrics} reports, in the Prometheus text format. Job counts come from the
 * database (the whole fleet's queue, the same on every node), counted on the index of kind and
 * status at most once every {@link #JOB_COUNTS_FRESH} whatever scrapes (one count at a time; while
 * the database does not answer, the last counts); run times, HTTP latency, readiness checks,
 * throttled authentications and the live player's figures are this node's own.
 */
public final class Metrics {
    private static final double[] JOB_SECONDS = {1, 5, 15, 30, 60, 120, 300, 600, 1800};
    private static final double[] HTTP_SECONDS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    private final Database database;
    private final String role;
    private final ConcurrentMap<String, Histogram> jobRuns = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, Histogram> http = new ConcurrentHashMap<>();
    private volatile LongSupplier liveStreams = () -> 0;
    private volatile LongSupplier lateBlocks = () -> 0;
    private volatile LongSupplier lateSections = () -> 0;
    private volatile LongSupplier eventStreams = () -> 0;
    private volatile LongSupplier readinessChecks = () -> 0;
    private volatile LongSupplier authThrottled = () -> 0;
    static final Duration JOB_COUNTS_FRESH = Duration.ofSeconds(5);
    private Map<String, Map<String, Long>> jobCounts;
    private long jobCountsAt;
    private final AtomicLong jobCountQueries = new AtomicLong();

    public Metrics(Database database, String role) {
        this.database = database;
        this.role = role;
    }

    /** The live player of this node, when it has one: its streams, blocks rendered late, sections whose notes came late. */
    public void player(LongSupplier streams, LongSupplier late, LongSupplier sections) {
        this.liveStreams = streams;
        this.lateBlocks = late;
        this.lateSections = sections;
    }

    /** The progress event streams this node holds open. */
    public void eventStreams(LongSupplier open) {
        this.eventStreams = open;
    }

    /** This node's readiness checks and the authentications it refused for too many failures from one address. */
    public void guards(LongSupplier checks, LongSupplier throttled) {
        this.readinessChecks = checks;
        this.authThrottled = throttled;
    }

    /** One job run of task {@code kind} on this node took {@code took}. */
    public void jobRun(String kind, Duration took) {
        jobRuns.computeIfAbsent(kind, k -> new Histogram(JOB_SECONDS)).observe(took.toNanos() / 1e9);
    }

    /**
     * One HTTP request answered. {@code route} is the matched route pattern (a bounded set), never the
     * raw path, so ids do not become label values.
     */
    public void request(String method, String route, int status, double seconds) {
        String key =
                label("method", method) + "," + label("route", route) + "," + label("status", (status / 100) + "xx");
        http.computeIfAbsent(key, k -> new Histogram(HTTP_SECONDS)).observe(seconds);
    }

    public String render() {
        var out = new StringBuilder(4096);
        out.append("# HELP scorecast_node_info This node's role.\n# TYPE scorecast_node_info gauge\n");
        out.append("scorecast_node_info{").append(label("role", role)).append("} 1\n");

        Map<String, Map<String, Long>> counts = jobCounts();
        out.append(
                "# HELP scorecast_jobs Jobs in the shared queue by kind and status (queued = pending, running = processing, failed = error).\n");
        out.append("# TYPE scorecast_jobs gauge\n");
        for (var kind : counts.entrySet()) {
            for (var state : Map.of(
                            "queued", "pending", "running", "processing", "failed", "error", "finished", "finished")
                    .entrySet()) {
                out.append("scorecast_jobs{")
                        .append(label("kind", kind.getKey()))
                        .append(',')
                        .append(label("state", state.getKey()))
                        .append("} ")
                        .append(kind.getValue().getOrDefault(state.getValue(), 0L))
                        .append('\n');
            }
        }
        out.append(
                "# HELP scorecast_job_seconds Wall time of job runs on this node, by task.\n# TYPE scorecast_job_seconds histogram\n");
        new TreeMap<>(jobRuns).forEach((kind, h) -> h.write(out, "scorecast_job_seconds", label("task", kind)));

        out.append(
                "# HELP scorecast_live_streams Live streams this node plays.\n# TYPE scorecast_live_streams gauge\n");
        out.append("scorecast_live_streams ").append(liveStreams.getAsLong()).append('\n');
        out.append(
                "# HELP scorecast_render_late_blocks_total Live audio blocks rendered after their deadline on this node.\n");
        out.append("# TYPE scorecast_render_late_blocks_total counter\n");
        out.append("scorecast_render_late_blocks_total ")
                .append(lateBlocks.getAsLong())
                .append('\n');
        out.append(
                "# HELP scorecast_live_late_sections_total Live sections (or their rest) whose composition came after they were due,"
                        + " so that notes before its arrival were left out.\n");
        out.append("# TYPE scorecast_live_late_sections_total counter\n");
        out.append("scorecast_live_late_sections_total ")
                .append(lateSections.getAsLong())
                .append('\n');

        out.append("# HELP scorecast_event_streams Progress event streams (/sync/events) open on this node.\n");
        out.append("# TYPE scorecast_event_streams gauge\n");
        out.append("scorecast_event_streams ").append(eventStreams.getAsLong()).append('\n');
        out.append("# HELP scorecast_webhook_deliveries Webhook deliveries in the shared queue by state.\n");
        out.append("# TYPE scorecast_webhook_deliveries gauge\n");
        webhookDeliveries()
                .forEach((state, n) -> out.append("scorecast_webhook_deliveries{")
                        .append(label("state", state))
                        .append("} ")
                        .append(n)
                        .append('\n'));
        out.append(
                "# HELP scorecast_readiness_checks_total Checks of the database and the object store made for /readyz on this node.\n");
        out.append("# TYPE scorecast_readiness_checks_total counter\n");
        out.append("scorecast_readiness_checks_total ")
                .append(readinessChecks.getAsLong())
                .append('\n');
        out.append(
                "# HELP scorecast_job_count_queries_total Counts of the job queue made for /metrics on this node.\n");
        out.append("# TYPE scorecast_job_count_queries_total counter\n");
        out.append("scorecast_job_count_queries_total ")
                .append(jobCountQueries.get())
                .append('\n');
        out.append(
                "# HELP scorecast_auth_throttled_total Authentications refused (429) on this node: their address failed too often.\n");
        out.append("# TYPE scorecast_auth_throttled_total counter\n");
        out.append("scorecast_auth_throttled_total ")
                .append(authThrottled.getAsLong())
                .append('\n');

        out.append(
                "# HELP scorecast_http_request_seconds HTTP latency on this node by method, route and status class.\n");
        out.append("# TYPE scorecast_http_request_seconds histogram\n");
        new TreeMap<>(http).forEach((labels, h) -> h.write(out, "scorecast_http_request_seconds", labels));
        return out.toString();
    }

    /** The counts, read again when older than {@link #JOB_COUNTS_FRESH}; callers meanwhile wait for that one query. */
    private synchronized Map<String, Map<String, Long>> jobCounts() {
        long now = Ticker.SYSTEM.nanos();
        if (jobCounts == null || now - jobCountsAt >= JOB_COUNTS_FRESH.toNanos()) {
            try {
                jobCounts = countJobs();
            } catch (RuntimeException e) {
                LoggerHolder.LOG.warn(
                        "counting the job queue for /metrics failed; reporting the last counts: {}", e.toString());
                if (jobCounts == null) {
                    jobCounts = new TreeMap<>();
                }
            }
            jobCountsAt = now;
        }
        return jobCounts;
    }

    private static final class LoggerHolder {
        static final Logger LOG = LoggerFactory.getLogger(Metrics.class);
    }

    private Map<String, Map<String, Long>> countJobs() {
        jobCountQueries.incrementAndGet();
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        database.query(c -> Rows.list(c, "SELECT kind, status, COUNT(*) AS n FROM jobs GROUP BY kind, status", row -> {
            counts.computeIfAbsent(row.getString("kind"), k -> new TreeMap<>())
                    .put(row.getString("status"), row.getLong("n"));
            return null;
        }));
        for (String kind : new String[] {"analysis", "execution"}) {
            counts.computeIfAbsent(kind, k -> new TreeMap<>());
        }
        return counts;
    }

    private Map<String, Long> webhookDeliveries() {
        Map<String, Long> counts = new TreeMap<>(Map.of("pending", 0L, "delivered", 0L, "failed", 0L));
        database.query(c -> Rows.list(c, "SELECT state, COUNT(*) AS n FROM webhook_deliveries GROUP BY state", row -> {
            counts.put(row.getString("state"), row.getLong("n"));
            return null;
        }));
        return counts;
    }

    static String label(String name, String value) {
        return name + "=\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15
                ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%s", value);
    }
}
