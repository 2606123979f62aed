package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.util.Map;

/**
 * What one user may hold at once, and the free disk below which the node takes no new work.
 * Each is a setting (README, Configuration); the defaults suit a small shared server.
 *
 * @param maxStoredBytes     bytes one user may keep: videos, chunks and everything made from them (SCORECAST_QUOTA_BYTES, 20GiB)
 * @param maxUploadsInFlight uploads one user may have open or assembling (SCORECAST_QUOTA_UPLOADS, 32)
 * @param maxAnalysesQueued  analyses one user may have pending or running (SCORECAST_QUOTA_ANALYSES, 4)
 * @param minFreeBytes       free bytes the data directory must keep; below, uploads and jobs are refused 507
 *                           (SCORECAST_MIN_FREE_BYTES, 1GiB)
 * @param maxRequestsInFlight requests one user may have in progress on a node at once (SCORECAST_MAX_REQUESTS_IN_FLIGHT, 32)
 * @param maxPlansPerVideo   plans one video keeps (SCORECAST_QUOTA_PLANS_PER_VIDEO, 50): generating one more removes the oldest
 */
public record Quotas(
        long maxStoredBytes,
        int maxUploadsInFlight,
        int maxAnalysesQueued,
        long minFreeBytes,
        int maxRequestsInFlight,
        int maxPlansPerVideo) {
    public static final Quotas DEFAULT = new Quotas(20L << 30, 32, 4, 1L << 30, 32, 50);

    public Quotas {
        if (maxStoredBytes < 1) {
            throw new InvalidParameter("SCORECAST_QUOTA_BYTES", "SCORECAST_QUOTA_BYTES must be at least 1 byte.");
        }
        if (maxUploadsInFlight < 1) {
            throw new InvalidParameter("SCORECAST_QUOTA_UPLOADS", "SCORECAST_QUOTA_UPLOADS must be at least 1.");
        }
        if (maxAnalysesQueued < 1) {
            throw new InvalidParameter("SCORECAST_QUOTA_ANALYSES", "SCORECAST_QUOTA_ANALYSES must be at least 1.");
        }
        if (maxRequestsInFlight < 1) {
            throw new InvalidParameter(
                    "SCORECAST_MAX_REQUESTS_IN_FLIGHT", "SCORECAST_MAX_REQUESTS_IN_FLIGHT must be at least 1.");
        }
        if (maxPlansPerVideo < 1) {
            throw new InvalidParameter(
                    "SCORECAST_QUOTA_PLANS_PER_VIDEO", "SCORECAST_QUOTA_PLANS_PER_VIDEO must be at least 1.");
        }
    }

    public static Quotas fromEnvironment(Map<String, String> env) {
        Settings settings = new Settings(env);
        return new Quotas(
                settings.bytes("SCORECAST_QUOTA_BYTES", DEFAULT.maxStoredBytes()),
                settings.integer("SCORECAST_QUOTA_UPLOADS", DEFAULT.maxUploadsInFlight()),
                settings.integer("SCORECAST_QUOTA_ANALYSES", DEFAULT.maxAnalysesQueued()),
                settings.bytes("SCORECAST_MIN_FREE_BYTES", DEFAULT.minFreeBytes()),
                settings.integer("SCORECAST_MAX_REQUESTS_IN_FLIGHT", DEFAULT.maxRequestsInFlight()),
                settings.integer("SCORECAST_QUOTA_PLANS_PER_VIDEO", DEFAULT.maxPlansPerVideo()));
    }
}
