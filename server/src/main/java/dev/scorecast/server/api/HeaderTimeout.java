package dev.scorecast.server.api;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.NanoTime;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A request's headers must be whole within {@code timeout} of their first byte. Jetty has no such
 * limit: its idle timeout is renewed by every byte, so a client sending its headers a byte a second
 * (slow-loris) held a connection for the 8 KiB a header may take, over two hours, and a few thousand
 * such clients take every connection the node allows. Every {@link #TICK} this looks at each open
 * HTTP/1 connection and closes the ones whose parser is still in a request's headers past the limit
 * (the parser records when a request's first byte came; between requests of a kept-alive connection
 * it is idle and the idle timeout applies instead). Reading the parser's state from this thread is
 * racy by design: a stale read only delays a close to the next tick.
 */
public final class HeaderTimeout extends AbstractLifeCycle {
    /** How often connections are looked at: the timeout is honoured to within this. */
    static final Duration TICK = Duration.ofMillis(250);

    private final Server server;
    private final long timeoutNanos;
    private volatile Scheduler.Task task;
    private volatile long closed;

    public HeaderTimeout(Server server, Duration timeout) {
        this.server = server;
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task t = task;
        if (t != null) {
            t.cancel();
        }
    }

    /** Connections closed so far for headers too slow. */
    public long closed() {
        return closed;
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            task = server.getScheduler().schedule(this::sweep, TICK.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void sweep() {
        try {
            long now = NanoTime.now();
            for (Connector connector : server.getConnectors()) {
                if (connector instanceof AbstractConnector abstractConnector) {
                    for (EndPoint endPoint : abstractConnector.getConnectedEndPoints()) {
                        if (endPoint.getConnection() instanceof HttpConnection http && tooSlow(http.getParser(), now)) {
                            closed++;
                            endPoint.close();
                        }
                    }
                }
            }
        } finally {
            schedule();
        }
    }

    private boolean tooSlow(HttpParser parser, long now) {
        if (parser == null || !parser.inHeaderState() || parser.isStart()) {
            return false; // idle between requests, or the headers are done and the body (MinimumBodyRate's) or the
            // answer runs
        }
        long begun = parser.getBeginNanoTime();
        return begun != 0 && NanoTime.elapsed(begun, now) > timeoutNanos;
    }
}
