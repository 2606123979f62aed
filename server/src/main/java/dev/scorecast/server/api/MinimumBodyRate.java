package dev.scorecast.server.api;

import dev.scorecast.engine.core.Ticker;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Slow-loris protection: a request body must arrive at {@code bytesPerSecond}, measured over a
 * sliding window of the last {@link #WINDOW_SECONDS} seconds the handler spent waiting for it, after
 * a grace of {@link #GRACE_NANOS}; a body trickled in slower is refused with 408 (ApiErrors'
 * envelope) and its connection freed. Only time spent blocked in a read counts: a read that finds
 * the bytes already arrived costs nothing, and neither does the handler's own work between reads
 * (an S3 part being written), which is the server's delay, not the client's. The window (not the
 * average since the start) is what stops a client that sends a fast burst and then trickles: with
 * an average, a 1 MiB burst bought over fifteen minutes of a byte every few seconds.
 * Why not Jetty's own {@code minRequestDataRate}: it measures from the body's first byte and fails a
 * read however late the handler makes it, so on a busy server a 60-byte JSON body read 100 ms after
 * it arrived was refused although all of it was there (jetty/jetty.project#4641).
 */
public final class MinimumBodyRate implements Filter {
    /** Time a body may take before the rate applies: a client's first packets, a busy moment of the server. */
    static final long GRACE_NANOS = 2_000_000_000L;
    /** The window the rate is measured over, in seconds of waiting. */
    static final int WINDOW_SECONDS = 10;

    private static final long SECOND = 1_000_000_000L;

    private final long bytesPerSecond;
    private final Ticker ticker;

    /** {@code ticker} measures how long the body has taken. */
    public MinimumBodyRate(long bytesPerSecond, Ticker ticker) {
        this.bytesPerSecond = bytesPerSecond;
        this.ticker = ticker;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (bytesPerSecond <= 0 || !(request instanceof HttpServletRequest http)) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(
                new HttpServletRequestWrapper(http) {
                    private ServletInputStream wrapped;

                    @Override
                    public ServletInputStream getInputStream() throws IOException {
                        if (wrapped == null) {
                            wrapped = new Metered(super.getInputStream());
                        }
                        return wrapped;
                    }
                },
                response);
    }

    /**
     * The request's stream, timing each read. Bytes are put in one-second buckets of waiting time
     * (a ring of {@link #WINDOW_SECONDS}); after each read the buckets of the last window must hold
     * the rate times the waiting they cover, less the grace.
     */
    private final class Metered extends ServletInputStream {
        private final ServletInputStream in;
        /** Nanoseconds spent blocked in reads so far. */
        private long waited;

        private final long[] buckets = new long[WINDOW_SECONDS];
        /** The waiting second the newest bucket stands for. */
        private long second;
        /** read()'s one byte, kept so a byte-at-a-time reader does not allocate per byte. */
        private final byte[] one = new byte[1];

        Metered(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            long before = ticker.nanos();
            int n = in.read(b, off, len);
            waited += Math.max(0, ticker.nanos() - before);
            long now = waited / SECOND;
            for (long s = second + 1; s <= now && s <= second + WINDOW_SECONDS; s++) {
                buckets[(int) (s % WINDOW_SECONDS)] = 0; // seconds of waiting that brought nothing
            }
            second = Math.max(second, now);
            if (n > 0) {
                buckets[(int) (second % WINDOW_SECONDS)] += n;
            }
            if (n >= 0 && waited > GRACE_NANOS) {
                long windowStart = Math.max(0, second - WINDOW_SECONDS + 1) * SECOND;
                long covered = waited - windowStart;
                long bytes = 0;
                for (long bucket : buckets) {
                    bytes += bucket;
                }
                double owed = bytesPerSecond * ((covered - GRACE_NANOS) / 1e9);
                if (bytes < owed) {
                    throw new BadMessageException(
                            408,
                            String.format(
                                    "Request content data rate %.0f B/s < %d B/s over the last %d s",
                                    bytes / (covered / 1e9), bytesPerSecond, WINDOW_SECONDS));
                }
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
