package dev.scorecast.server.downloads;

import dev.scorecast.engine.error.Busy;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Downloads streaming through this node at once, counted per file and per client address: anyone
 * holding one link (shareable, valid for days) could otherwise open as many slow downloads of it as
 * the node takes. Past a cap the next one is 429 {@code busy} with Retry-After before anything is
 * read from the store. Counters of idle keys are dropped, so the maps stay as small as what streams.
 */
public final class DownloadSlots {
    private final int perFile;
    private final int perAddress;
    private final ConcurrentHashMap<String, AtomicInteger> files = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> addresses = new ConcurrentHashMap<>();

    public DownloadSlots(int perFile, int perAddress) {
        this.perFile = perFile;
        this.perAddress = perAddress;
    }

    /** One download of {@code file} from {@code address}: held until {@link Slot#close()}, or 429 past a cap. */
    public Slot enter(String file, String address) {
        if (!take(addresses, address, perAddress)) {
            throw new Busy(
                    "This address is downloading " + perAddress
                            + " files at once (the most a node streams to one address);" + " wait for one to finish.",
                    Duration.ofSeconds(5));
        }
        if (!take(files, file, perFile)) {
            give(addresses, address);
            throw new Busy(
                    "This file is being downloaded " + perFile + " times at once (the most a node streams of one file);"
                            + " wait for one to finish.",
                    Duration.ofSeconds(5));
        }
        return () -> {
            give(files, file);
            give(addresses, address);
        };
    }

    /** A download in progress; closing it frees its place. */
    public interface Slot extends AutoCloseable {
        @Override
        void close();
    }

    private static boolean take(ConcurrentHashMap<String, AtomicInteger> counts, String key, int cap) {
        boolean[] taken = {false};
        counts.compute(key, (k, n) -> {
            AtomicInteger count = n == null ? new AtomicInteger() : n;
            if (count.get() < cap) {
                count.incrementAndGet();
                taken[0] = true;
            }
            return count;
        });
        if (!taken[0]) {
            counts.computeIfPresent(key, (k, n) -> n.get() == 0 ? null : n);
        }
        return taken[0];
    }

    private static void give(ConcurrentHashMap<String, AtomicInteger> counts, String key) {
        counts.computeIfPresent(key, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /** Downloads streaming now (for tests). */
    public int open() {
        return addresses.values().stream().mapToInt(AtomicInteger::get).sum();
    }
}
