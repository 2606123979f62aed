package dev.scorecast.server;

import dev.scorecast.engine.analysis.audio.OnsetDetector;
import dev.scorecast.engine.analysis.audio.OnsetRules;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** A listener of the live stream for tests: reads in the background, and the audio helpers to judge what came. */
final class LiveAudio implements AutoCloseable {
    static final int RATE = 48_000;
    /** Answers held to /openapi.json: the stream's status and media type (CheckedHttpClient). */
    private static final HttpClient CLIENT = CheckedHttpClient.of(
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());

    final HttpResponse<InputStream> response;
    final long connectedNanos;
    volatile long firstByteNanos = -1;
    volatile boolean ended;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    /** When bytes came: nanoTime and the total received by then, one pair per read. */
    private final List<long[]> arrivals = new ArrayList<>();

    private final AtomicBoolean closing = new AtomicBoolean();
    private final Thread reader;

    private LiveAudio(HttpResponse<InputStream> response, long connectedNanos) {
        this.response = response;
        this.connectedNanos = connectedNanos;
        this.reader = Thread.ofPlatform().daemon().start(this::read);
    }

    /** Connects to {@code url} (a signed stream_url, or a path with {@code key} as bearer). */
    static LiveAudio open(String url, String key) throws Exception {
        var builder = HttpRequest.newBuilder(URI.create(url));
        if (key != null) {
            builder.header("Authorization", "Bearer " + key);
        }
        long start = System.nanoTime();
        HttpResponse<InputStream> r = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
        return new LiveAudio(r, start);
    }

    private void read() {
        byte[] buf = new byte[8192];
        try (InputStream in = response.body()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                if (n > 0 && firstByteNanos < 0) {
                    firstByteNanos = System.nanoTime();
                }
                synchronized (bytes) {
                    bytes.write(buf, 0, n);
                    arrivals.add(new long[] {System.nanoTime(), bytes.size()});
                }
            }
        } catch (IOException e) {
            // closed by us, or the server ended the stream
        }
        ended = true;
    }

    int size() {
        synchronized (bytes) {
            return bytes.size();
        }
    }

    byte[] bytes() {
        synchronized (bytes) {
            return bytes.toByteArray();
        }
    }

    /**
     * For a WAV stream played from its first byte after {@code prerollSeconds} of buffering, at real
     * time: the least audio (seconds) it ever had in hand. Below zero the player ran dry (an underrun).
     */
    double leastBuffered(double prerollSeconds) {
        List<long[]> seen;
        synchronized (bytes) {
            seen = new ArrayList<>(arrivals);
        }
        byte[] header = bytes();
        int channels = (header[22] & 0xff) | (header[23] & 0xff) << 8;
        int rate =
                (header[24] & 0xff) | (header[25] & 0xff) << 8 | (header[26] & 0xff) << 16 | (header[27] & 0xff) << 24;
        int bits = (header[34] & 0xff) | (header[35] & 0xff) << 8;
        double bytesPerSecond = (double) rate * channels * bits / 8;
        long start = seen.getFirst()[0] + (long) (prerollSeconds * 1e9);
        double least = Double.MAX_VALUE;
        long before = 44;
        for (long[] arrival : seen) {
            // Just before this read: what had come so far against what a player would have played.
            double played = (arrival[0] - start) / 1e9;
            if (played > 0) {
                least = Math.min(least, (before - 44) / bytesPerSecond - played);
            }
            before = arrival[1];
        }
        return least;
    }

    /** The performance frame at which this stream's audio starts (the X-Scorecast-Frame header). */
    long firstFrame() {
        return Long.parseLong(response.headers().firstValue("X-Scorecast-Frame").orElseThrow());
    }

    /** Waits until {@code size} bytes have come, for at most {@code seconds}. */
    void awaitBytes(long size, double seconds) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (size() < size && System.nanoTime() < deadline && !ended) {
            Thread.sleep(20);
        }
    }

    boolean awaitEnd(double seconds) throws InterruptedException {
        reader.join((long) (seconds * 1000));
        return ended;
    }

    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            try {
                response.body().close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }

    /** A WAV stream's samples, mono (the mean of the channels), after its 44-byte header. */
    static float[] wavMono(byte[] wav) {
        ByteBuffer b = ByteBuffer.wrap(wav, 44, wav.length - 44).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[b.remaining() / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = (b.getShort() + b.getShort()) / 65536f;
        }
        return out;
    }

    /** Any container FFmpeg reads, decoded to 48 kHz mono float by the ffmpeg command. */
    static float[] decode(byte[] media, Path dir) throws Exception {
        Path in = dir.resolve("in.bin");
        Path out = dir.resolve("out.f32");
        Files.write(in, media);
        Process p = new ProcessBuilder(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-nostdin",
                        "-y",
                        "-i",
                        in.toString(),
                        "-ac",
                        "1",
                        "-ar",
                        String.valueOf(RATE),
                        "-f",
                        "f32le",
                        out.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new AssertionError("ffmpeg could not decode the stream: " + log);
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        float[] samples = new float[b.remaining() / 4];
        b.asFloatBuffer().get(samples);
        return samples;
    }

    static double rms(float[] x, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += x[i] * x[i];
        }
        return Math.sqrt(sum / Math.max(1, to - from));
    }

    static double peak(float[] x, int from, int to) {
        double p = 0;
        for (int i = Math.max(0, from); i < Math.min(x.length, to); i++) {
            p = Math.max(p, Math.abs(x[i]));
        }
        return p;
    }

    static List<Double> onsets(float[] mono, int from, int to) {
        OnsetDetector detector = new OnsetDetector(RATE);
        detector.accept(mono, from, to - from);
        return detector.finish(OnsetRules.DEFAULT);
    }
    /** The first index from which {@code a} and {@code b} differ by more than {@code tolerance}, or -1. */
    static int firstDifference(float[] a, int fromA, float[] b, int fromB, int length, float tolerance) {
        for (int i = 0; i < length; i++) {
            if (Math.abs(a[fromA + i] - b[fromB + i]) > tolerance) {
                return i;
            }
        }
        return -1;
    }

    static int firstSound(float[] x, float threshold) {
        for (int i = 0; i < x.length; i++) {
            if (Math.abs(x[i]) > threshold) {
                return i;
            }
        }
        return -1;
    }

    static List<Double> shift(List<Double> times, double by) {
        List<Double> out = new ArrayList<>();
        times.forEach(t -> out.add(t + by));
        return out;
    }
}
