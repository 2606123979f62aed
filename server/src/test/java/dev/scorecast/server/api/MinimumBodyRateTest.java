package dev.scorecast.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.BadMessageException;
import org.junit.jupiter.api.Test;

/**
 * MinimumBodyRate on virtual time: a body read late but already arrived is never refused (what
 * Jetty's own check got wrong on a busy server), a steady upload is never refused, a trickle is
 * refused with 408 once the grace is over.
 */
class MinimumBodyRateTest {
    private static final long MS = 1_000_000L;
    private final AtomicLong now = new AtomicLong();

    @Test
    void aSmallBodyReadLongAfterItArrivedIsRead() throws Exception {
        now.set(30_000 * MS); // the handler gets to it 30 s after the request came in
        assertEquals(60, readAll(new Arrival(60, 60, 0)));
    }

    @Test
    void aSteadyUploadAboveTheRateIsRead() throws Exception {
        // 8 KiB every 100 ms (80 KiB/s) for a minute of virtual time.
        assertEquals(600 * 8192, readAll(new Arrival(600L * 8192, 8192, 100 * MS)));
    }

    @Test
    void aTrickleIsRefusedOnceTheGraceIsOver() {
        // 20 bytes every 100 ms: 200 B/s against 1 KiB/s.
        Arrival trickle = new Arrival(100_000, 20, 100 * MS);
        BadMessageException e = assertThrows(BadMessageException.class, () -> readAll(trickle));
        assertEquals(408, e.getCode());
        long refusedAt = now.get() / MS;
        assertTrue(
                refusedAt > MinimumBodyRate.GRACE_NANOS / MS && refusedAt < 4_000,
                "refused after " + refusedAt + " ms");
    }

    @Test
    void aBurstThenATrickleIsRefusedWithinTheWindow() {
        // 1 MiB at once, then 20 bytes every 100 ms: an average since the start stays over 1 KiB/s for the whole
        // 500 s of trickle; the last 10 s of waiting hold 2 kB against the 8 kB owed.
        BurstThenTrickle body = new BurstThenTrickle(1 << 20, 100_000);
        BadMessageException e = assertThrows(BadMessageException.class, () -> readAll(body));
        assertEquals(408, e.getCode());
        long refusedAt = now.get() / MS;
        assertTrue(refusedAt < 12_000, "refused after " + refusedAt + " ms");
    }

    @Test
    void theHandlersOwnWorkBetweenReadsIsNotTheClients() throws Exception {
        // 8 KiB a read arriving at once, but the handler takes 2 s between reads (a slow store): nothing waited for.
        MinimumBodyRate filter = new MinimumBodyRate(1024, now::get);
        Arrival body = new Arrival(64 * 8192, 8192, 0);
        long read = run(filter, body, () -> now.addAndGet(2_000 * MS));
        assertEquals(64 * 8192, read);
    }

    /** Reads the whole body through the filter, as a handler would; the bytes read. */
    private long readAll(ServletInputStream body) throws Exception {
        return run(new MinimumBodyRate(1024, now::get), body, () -> {});
    }

    /** Reads the whole body through {@code filter}, doing {@code work} between reads. */
    private long run(MinimumBodyRate filter, ServletInputStream body, Runnable work) throws Exception {
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getInputStream" -> body;
                    default -> null;
                });
        long[] read = new long[1];
        FilterChain handler = (req, res) -> {
            InputStream in = req.getInputStream();
            byte[] buffer = new byte[16384];
            for (int n; (n = in.read(buffer, 0, buffer.length)) >= 0; ) {
                read[0] += n;
                work.run();
            }
        };
        filter.doFilter(request, null, handler);
        return read[0];
    }

    /** {@code burst} bytes there at once, then {@code trickle} more at 20 bytes every 100 ms. */
    private final class BurstThenTrickle extends ServletInputStream {
        private final Arrival trickle;
        private long burst;

        BurstThenTrickle(long burst, long trickle) {
            this.burst = burst;
            this.trickle = new Arrival(trickle, 20, 100 * MS);
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (burst > 0) {
                int n = (int) Math.min(len, burst);
                burst -= n;
                return n;
            }
            return trickle.read(b, off, len);
        }

        @Override
        public int read() {
            return read(new byte[1], 0, 1) < 0 ? -1 : 0;
        }

        @Override
        public boolean isFinished() {
            return burst == 0 && trickle.isFinished();
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }

    /** A body of {@code length} bytes arriving {@code chunk} at a time, each read waiting {@code wait} of virtual time for its chunk. */
    private final class Arrival extends ServletInputStream {
        private long left;
        private final int chunk;
        private final long wait;

        Arrival(long length, int chunk, long wait) {
            this.left = length;
            this.chunk = chunk;
            this.wait = wait;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            now.addAndGet(wait);
            int n = (int) Math.min(Math.min(len, chunk), left);
            left -= n;
            return n;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : 0;
        }

        @Override
        public boolean isFinished() {
            return left == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }
}
