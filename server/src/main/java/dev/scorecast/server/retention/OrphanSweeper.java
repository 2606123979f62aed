package dev.scorecast.server.retention;

import dev.scorecast.engine.io.Directories;
import dev.scorecast.server.db.Database;
import dev.scorecast.server.db.Rows;
import dev.scorecast.server.storage.BlobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes files no row names, left by a crash between writing a file and its row (or between a
 * row's delete and its files'): a half-written execution's outputs, an assembled video whose upload
 * never completed, a chunk of an upload still open whose row was never written (the client sends
 * that chunk again, under a new name), a temporary {@code .partial} file, a multipart part Jetty
 * spooled.
 *
 * <p>Only files untouched for the grace time are looked at. Every write in progress touches its file
 * as bytes arrive, and every job ends within its deadline (at most five hours), so a file this old
 * belongs to no live node's work, whichever node it is; a directory goes only when its newest file is
 * that old. What the sweeper does not recognise it leaves alone.
 */
public final class OrphanSweeper {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweeper.class);
    /** Directories of the store named by an id whose row tells whether they are still wanted. */
    private static final List<String> BY_ID = List.of("uploads", "videos", "analyses", "executions");

    private final Database database;
    private final BlobStore blobs;
    private final Path dataDir;
    private final Clock clock;
    private final Duration grace;

    /** {@code dataDir} holds the multipart spool ({@code tmp/multipart}); the store may be elsewhere (S3). */
    public OrphanSweeper(Database database, BlobStore blobs, Path dataDir, Clock clock, Duration grace) {
        this.database = database;
        this.blobs = blobs;
        this.dataDir = dataDir;
        this.clock = clock;
        this.grace = grace;
    }

    /** One sweep; how many orphans (a directory of one id counts once) it removed. */
    public int sweep() {
        Instant untouchedSince = clock.instant().minus(grace);
        int removed = 0;
        for (String kind : BY_ID) {
            Map<String, Instant> newest = new HashMap<>();
            // Each file of an upload, for the chunks no row names; other kinds go by the directory.
            Map<String, Map<String, Instant>> files = new HashMap<>();
            blobs.list(kind, (key, modified) -> {
                String id = key.split("/")[1];
                newest.merge(id, modified, (a, b) -> a.isAfter(b) ? a : b);
                if (kind.equals("uploads")) {
                    files.computeIfAbsent(id, k -> new HashMap<>()).put(key, modified);
                }
            });
            for (var group : newest.entrySet()) {
                if (!wanted(kind, group.getKey())) {
                    if (group.getValue().isBefore(untouchedSince)) {
                        LOG.info(
                                "removing orphaned {}/{} (no row names it; untouched since {})",
                                kind,
                                group.getKey(),
                                group.getValue());
                        blobs.deleteTree(kind + "/" + group.getKey());
                        removed++;
                    }
                } else if (kind.equals("uploads")) {
                    removed += removeUnnamedChunks(group.getKey(), files.get(group.getKey()), untouchedSince);
                }
            }
        }
        Map<String, Instant> plans = new HashMap<>();
        blobs.list("plans", plans::put);
        for (var plan : plans.entrySet()) {
            if (plan.getValue().isBefore(untouchedSince) && !planFileWanted(plan.getKey())) {
                LOG.info("removing orphaned {} (no row names it; untouched since {})", plan.getKey(), plan.getValue());
                blobs.delete(plan.getKey());
                removed++;
            }
        }
        blobs.removeLeftovers(untouchedSince);
        removed += removeOldFiles(dataDir.resolve("tmp/multipart"), untouchedSince);
        return removed;
    }

    private boolean wanted(String kind, String id) {
        return database.query(c -> switch (kind) {
            // A complete upload's chunks were assembled into its video; the chunks are leftovers.
            case "uploads" ->
                Rows.one(c, "SELECT 1 AS x FROM uploads WHERE id = ? AND state <> 'complete'", row -> 1, id)
                        .isPresent();
            // An upload being completed writes its video's files before the video's row exists.
            case "videos" ->
                Rows.one(c, "SELECT 1 AS x FROM videos WHERE id = ?", row -> 1, id)
                                .isPresent()
                        || Rows.one(c, "SELECT 1 AS x FROM uploads WHERE video_id = ?", row -> 1, id)
                                .isPresent();
            case "analyses" ->
                Rows.one(c, "SELECT 1 AS x FROM analyses WHERE id = ?", row -> 1, id)
                        .isPresent();
            case "executions" ->
                Rows.one(c, "SELECT 1 AS x FROM executions WHERE id = ?", row -> 1, id)
                        .isPresent();
            default -> true;
        });
    }

    /** The files of an open upload that no chunk row names and nobody touched for the grace; how many went. */
    private int removeUnnamedChunks(String uploadId, Map<String, Instant> files, Instant untouchedSince) {
        Set<String> named = new HashSet<>(database.query(c -> Rows.list(
                c,
                "SELECT stored_as FROM upload_chunks WHERE upload_id = ?",
                row -> row.getString("stored_as"),
                uploadId)));
        int removed = 0;
        for (var file : files.entrySet()) {
            if (!named.contains(file.getKey()) && file.getValue().isBefore(untouchedSince)) {
                LOG.info(
                        "removing orphaned chunk {} (no row names it; untouched since {})",
                        file.getKey(),
                        file.getValue());
                blobs.delete(file.getKey());
                removed++;
            }
        }
        return removed;
    }

    /** {@code plans/<id>.json} is a plan's; {@code plans/analyses/<id>.json} the analysis a client sent, named by plans and executions. */
    private boolean planFileWanted(String key) {
        return database.query(
                c -> Rows.one(c, "SELECT 1 AS x FROM plans WHERE plan_key = ? OR analysis_key = ?", row -> 1, key, key)
                                .isPresent()
                        || Rows.one(c, "SELECT 1 AS x FROM executions WHERE analysis_key = ?", row -> 1, key)
                                .isPresent());
    }

    /** Jetty deletes a request's spooled parts when it ends; a crash leaves them. A live request's part is still being written. */
    private static int removeOldFiles(Path dir, Instant untouchedSince) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                try {
                    if (Files.getLastModifiedTime(file).toInstant().isBefore(untouchedSince)) {
                        Directories.deleteTree(file);
                        removed++;
                    }
                } catch (IOException | UncheckedIOException gone) {
                    // removed by its request meanwhile
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return removed;
    }
}
