package dev.scorecast.server.quota;

import dev.scorecast.engine.error.Overloaded;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory a node lets request bodies take at once, over all users: a JSON body is parsed into a
 * tree of about {@value #JSON_TREE_FACTOR} times its bytes, and a chunk written to S3 passes through
 * an 8 MiB part buffer, so 32 requests in flight per user, times the users, could take more heap than
 * the node has. Each request reserves what its body may cost before it is read (from its declared
 * length, or the cap when it declares none) and gives it back when it ends; a request that does not
 * fit is 503 {@code overloaded} with Retry-After, before anything is read.
 */
public final class MemoryBudget {
    /** Bytes of parsed tree per byte of JSON (Jackson's nodes, boxed numbers, strings). */
    public static final int JSON_TREE_FACTOR = 25;

    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    public MemoryBudget(long capacity) {
        this.capacity = capacity;
    }

    /** A quarter of the heap: what request bodies may hold when no setting says otherwise. */
    public static long defaultCapacity() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    /** Takes {@code bytes} from the budget, or refuses (503) when that would pass it; answers what was taken, to {@link #release}. */
    public long reserve(long bytes) {
        long want = Math.max(0, bytes);
        if (want == 0) {
            return 0;
        }
        while (true) {
            long now = reserved.get();
            // One request larger than the whole budget still runs when nothing else holds any: it is the cap's business
            // to refuse it.
            if (now > 0 && now + want > capacity) {
                throw new Overloaded(
                        "The server is holding as many request bodies in memory as it takes at once; send this again in a"
                                + " moment.",
                        Duration.ofSeconds(2));
            }
            if (reserved.compareAndSet(now, now + want)) {
                return want;
            }
        }
    }

    public void release(long bytes) {
        reserved.addAndGet(-Math.max(0, bytes));
    }

    /** Bytes reserved now. */
    public long reserved() {
        return reserved.get();
    }

    /**
     * What a request's body may cost while it is handled: a JSON body (or the JSON parts of a
     * multipart one) its length times {@link #JSON_TREE_FACTOR}, a raw chunk up to one S3 part.
     */
    public static long cost(String contentType, long declaredLength, long maxJsonBytes) {
        if (contentType == null) {
            return 0;
        }
        String type = contentType.toLowerCase(Locale.ROOT);
        long length = declaredLength < 0 ? maxJsonBytes : declaredLength;
        if (type.startsWith("application/json") || type.startsWith("multipart/")) {
            return Math.min(length, maxJsonBytes) * JSON_TREE_FACTOR;
        }
        if (type.startsWith("application/octet-stream")) {
            return Math.min(declaredLength < 0 ? 8L << 20 : declaredLength, 8L << 20);
        }
        return 0;
    }
}
