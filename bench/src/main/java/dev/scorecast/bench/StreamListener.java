package dev.scorecast.bench;

import dev.scorecast.engine.core.AudioRate;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One listener: a plain HTTP/1.1 GET over a socket, read on its own virtual thread, counting
 * ADTS frames (or keeping WAV bytes) as they arrive. A socket and a hand-written chunked
 * decoder, not java.net.http: fifty of its streams took a sixth of the machine the server was
 * being measured on, this takes a fraction of that.
 */
final class StreamListener {
    private static final int RATE = AudioRate.HZ;
    final Socket socket;
    final InputStream in;
    final long connected;
    final boolean wav;
    final long firstFrame;
    volatile long firstByte = -1;
    volatile double firstByteMillis;
    volatile long frames;
    /** When audio a decoder can use first arrived, the first non-zero sample (WAV), half a second and a second of audio; -1 until then. */
    volatile long firstAudioAt = -1;

    volatile long firstSoundAt = -1;
    volatile long halfSecondAt = -1;
    volatile long secondAt = -1;
    volatile double maxLag;
    /** Seconds after connecting when the listener was furthest behind. */
    volatile double maxLagAt;

    final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    /** When the last bytes of {@link #kept} arrived (under its lock). */
    long lastArrival;

    final AtomicBoolean closed = new AtomicBoolean();
    /** When {@link #close} was called (the wall time a listener was listening ends there); -1 while open. */
    volatile long closedAt = -1;
    /** Pauses between two arrivals longer than {@link #GAP_NANOS} (the server writes every 40 ms or so), and the longest pause. */
    volatile int gaps;

    volatile double maxGapMillis;
    /** Set when the stream ended or failed while nobody had closed it (the server cut it off), with what ended it. */
    volatile boolean endedEarly;

    volatile String endedBy;
    private static final long GAP_NANOS = 1_000_000_000L;
    private long previousArrival = -1;
    final boolean chunked;

    private StreamListener(Socket socket, InputStream in, Map<String, String> headers, long connected) {
        this.socket = socket;
        this.in = in;
        this.connected = connected;
        this.wav = headers.getOrDefault("content-type", "").contains("wav");
        this.firstFrame = Long.parseLong(headers.getOrDefault("x-scorecast-frame", "0"));
        this.chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        Thread.ofVirtual().start(this::read);
    }

    static StreamListener open(String url) throws Exception {
        return open(url, null);
    }

    static StreamListener open(String url, String key) throws Exception {
        URI uri = URI.create(url);
        long start = System.nanoTime();
        var socket = new Socket(uri.getHost(), uri.getPort());
        socket.setTcpNoDelay(true);
        String request =
                "GET " + uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()) + " HTTP/1.1\r\n"
                        + "Host: " + uri.getHost() + ":" + uri.getPort() + "\r\n"
                        + (key == null ? "" : "Authorization: Bearer " + key + "\r\n") + "Connection: close\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        var in = new BufferedInputStream(socket.getInputStream(), 16384);
        String status = line(in);
        Map<String, String> headers = new HashMap<>();
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            headers.put(
                    h.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).strip());
        }
        if (!status.contains(" 200 ")) {
            socket.close();
            throw new IllegalStateException(url + " answered " + status + " " + headers);
        }
        return new StreamListener(socket, in, headers, start);
    }

    /** The next piece of the body: a chunk when the body is chunked, else whatever has arrived; -1 at its end. */
    private int next(byte[] into, int at) throws IOException {
        if (!chunked) {
            return in.read(into, at, Math.min(16384, into.length - at));
        }
        int size = Integer.parseInt(line(in).split(";")[0].strip(), 16);
        if (size == 0) {
            return -1;
        }
        if (at + size > into.length) {
            throw new IOException("a chunk of " + size + " bytes");
        }
        in.readNBytes(into, at, size);
        line(in); // the CRLF after the chunk
        return size;
    }

    private static String line(InputStream in) throws IOException {
        var b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the stream ended in its headers");
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    private void read() {
        byte[] body = new byte[65536];
        int have = 0;
        try (in) {
            while (true) {
                if (body.length - have < 32768) {
                    body = Arrays.copyOf(body, 2 * body.length);
                }
                int size = next(body, have);
                if (size < 0) {
                    ended("the end of the body");
                    return;
                }
                long now = System.nanoTime();
                if (previousArrival >= 0) {
                    long gap = now - previousArrival;
                    if (gap > GAP_NANOS) {
                        gaps++;
                    }
                    maxGapMillis = Math.max(maxGapMillis, gap / 1e6);
                }
                previousArrival = now;
                if (firstByte < 0) {
                    firstByte = now;
                    firstByteMillis = (now - connected) / 1e6;
                }
                if (wav) {
                    long audioFrames;
                    synchronized (kept) {
                        int from = kept.size();
                        kept.write(body, have, size);
                        lastArrival = now;
                        audioFrames = (kept.size() - 44) / 4;
                        if (firstSoundAt < 0) {
                            for (int i = Math.max(from, 44) - from; i < size; i++) {
                                if (body[have + i] != 0) {
                                    firstSoundAt = now;
                                    break;
                                }
                            }
                        }
                    }
                    arrived(audioFrames, now);
                    continue;
                }
                have += size;
                int at = 0;
                while (at + 7 <= have) {
                    if ((body[at] & 0xff) != 0xff || (body[at + 1] & 0xf0) != 0xf0) {
                        at++;
                        continue;
                    }
                    int length =
                            ((body[at + 3] & 0x03) << 11) | ((body[at + 4] & 0xff) << 3) | ((body[at + 5] & 0xe0) >> 5);
                    if (length < 7 || at + length > have) {
                        break;
                    }
                    frames++;
                    at += length;
                }
                arrived(frames * 1024, now);
                System.arraycopy(body, at, body, 0, have - at);
                have -= at;
                double lag = (now - firstByte) / 1e9 - received();
                if (lag > maxLag) {
                    maxLag = lag;
                    maxLagAt = (now - connected) / 1e9;
                }
            }
        } catch (IOException | RuntimeException e) {
            ended(e.toString()); // closed by us, or cut off
        }
    }

    private void ended(String by) {
        if (!closed.get()) {
            endedBy = by;
            endedEarly = true;
        }
    }

    private void arrived(long audioFrames, long now) {
        if (audioFrames > 0 && firstAudioAt < 0) {
            firstAudioAt = now;
        }
        if (audioFrames >= RATE / 2 && halfSecondAt < 0) {
            halfSecondAt = now;
        }
        if (audioFrames >= RATE && secondAt < 0) {
            secondAt = now;
        }
    }

    /** Milliseconds from the request to {@code at} (NaN when it never happened). */
    double millis(long at) {
        return at < 0 ? Double.NaN : (at - connected) / 1e6;
    }

    /** Seconds of audio received. */
    double received() {
        return frames * 1024.0 / RATE;
    }

    /** Audio received over the wall time since the first byte. */
    double fraction() {
        long until = closedAt >= 0 ? closedAt : System.nanoTime();
        double wallSeconds = (until - firstByte) / 1e9;
        return Math.min(1, received() / wallSeconds);
    }

    /**
     * The frame a player in step with the server's clock is playing now: the stream leaves the
     * server the look-ahead ahead of real time, so that much before the last frame received,
     * plus the time since it arrived, up to the 40 ms between the server's writes (beyond that
     * the server is late, and a player would be waiting, not playing on).
     */
    long heardAt(int lookaheadMs) {
        long received;
        long since;
        synchronized (kept) {
            received = firstFrame + (kept.size() - 44) / 4;
            since = System.nanoTime() - lastArrival;
        }
        return received + Math.min(since, 40_000_000L) * RATE / 1_000_000_000L - (long) lookaheadMs * RATE / 1000;
    }

    void awaitBytes(int n) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            synchronized (kept) {
                if (kept.size() >= n) {
                    return;
                }
            }
            Thread.sleep(10);
        }
    }

    float[] wavMono() {
        byte[] bytes;
        synchronized (kept) {
            bytes = kept.toByteArray();
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 44, bytes.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.remaining() / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = (b.getShort() + b.getShort()) / 65536f;
        }
        return out;
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            closedAt = System.nanoTime();
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
