package dev.scorecast.server.api;

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
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.BadMessageException;

/**
 * Slow-loris protection: a request body must arrive at {@code bytesPerSecond} on average, counted
 * from the handler's first read, after a grace of {@link #GRACE_NANOS}; a body trickled in slower is
 * refused with 408 (ApiErrors' envelope) and its connection freed. Why not Jetty's own
 * {@code minRequestDataRate}: it measures from the body's first byte and fails a read however late
 * the handler makes it, so on a busy server a 60-byte JSON body read 100 ms after it arrived was
 * refused although all of it was there (jetty/jetty.project#4641); here a read that finds the bytes
 * already arrived is never refused, and only waiting for more counts.
 */
public final class MinimumBodyRate implements Filter {
    /** Time a body may take before the rate applies: a client's first packets, a busy moment of the server. */
    static final long GRACE_NANOS = 2_000_000_000L;

    private final long bytesPerSecond;
    private final LongSupplier nanos;

    public MinimumBodyRate(long bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime);
    }

    MinimumBodyRate(long bytesPerSecond, LongSupplier nanos) {
        this.bytesPerSecond = bytesPerSecond;
        this.nanos = nanos;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        if (bytesPerSecond <= 0 || !(request instanceof HttpServletRequest http)) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(new HttpServletRequestWrapper(http) {
            private ServletInputStream wrapped;

            @Override
            public ServletInputStream getInputStream() throws IOException {
                if (wrapped == null) {
                    wrapped = new Metered(super.getInputStream());
                }
                return wrapped;
            }
        }, response);
    }

    /** The request's stream, timing each blocking read against the average rate since the first. */
    private final class Metered extends ServletInputStream {
        private final ServletInputStream in;
        private long start = -1;
        private long bytes;
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
            if (start < 0) {
                start = nanos.getAsLong();
            }
            int n = in.read(b, off, len);
            if (n > 0) {
                bytes += n;
            }
            long elapsed = nanos.getAsLong() - start;
            if (n >= 0 && elapsed > GRACE_NANOS) {
                double owed = bytesPerSecond * ((elapsed - GRACE_NANOS) / 1e9);
                if (bytes < owed) {
                    throw new BadMessageException(408, String.format("Request content data rate %.0f B/s < %d B/s",
                            bytes / (elapsed / 1e9), bytesPerSecond));
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
