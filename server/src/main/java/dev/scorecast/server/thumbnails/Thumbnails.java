package dev.scorecast.server.thumbnails;

import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.engine.media.VideoFrame;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.Video;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;

/**
 * Thumbnails of a video along its length, as one JPEG strip of {@code count} pictures side by side:
 * the first frame at or after the middle of each of {@code count} equal stretches. Made by one
 * sequential decode at a small size (the analysis's kind of pass), then kept in the blob store, so a
 * video costs that pass once per count.
 */
public final class Thumbnails {
    public static final int MIN_COUNT = 4;
    public static final int MAX_COUNT = 32;
    /** The longer side of each picture, in pixels. */
    public static final int LONG_SIDE = 128;

    private final BlobStore blobs;
    private final MediaLimits limits;

    public Thumbnails(BlobStore blobs, MediaLimits limits) {
        this.blobs = blobs;
        this.limits = limits;
    }

    /** The strip, its pictures' size and the time each shows. */
    public record Strip(byte[] jpeg, int width, int height, double[] times) {
        public String timesHeader() {
            return Arrays.stream(times).mapToObj(t -> String.format(Locale.ROOT, "%.3f", t)).collect(Collectors.joining(","));
        }
    }

    public Strip of(Video video, int count) {
        String key = "videos/" + video.id() + "/thumbnails-" + count + ".jpg";
        String timesKey = "videos/" + video.id() + "/thumbnails-" + count + ".txt";
        if (blobs.exists(key) && blobs.exists(timesKey)) {
            try (InputStream jpeg = blobs.open(key); InputStream times = blobs.open(timesKey)) {
                String[] meta = new String(times.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split(";");
                return new Strip(jpeg.readAllBytes(), Integer.parseInt(meta[0]), Integer.parseInt(meta[1]),
                        Arrays.stream(meta[2].split(",")).mapToDouble(Double::parseDouble).toArray());
            } catch (IOException | RuntimeException e) {
                // A damaged cache entry is made again below.
            }
        }
        Strip strip = make(video, count);
        blobs.write(timesKey, new ByteArrayInputStream((strip.width() + ";" + strip.height() + ";" + strip.timesHeader())
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)), 1 << 16, "thumbnails", false);
        blobs.write(key, new ByteArrayInputStream(strip.jpeg()), Long.MAX_VALUE, "thumbnails", false);
        return strip;
    }

    private Strip make(Video video, int count) {
        double duration = video.duration();
        double[] targets = new double[count];
        for (int i = 0; i < count; i++) {
            targets[i] = (i + 0.5) * duration / count;
        }
        try (BlobStore.Staged source = blobs.stage(video.storedAs());
             FfmpegFrameSource frames = FfmpegFrameSource.open(source.path(), limits, LONG_SIDE)) {
            int w = frames.width();
            int h = frames.height();
            BufferedImage strip = new BufferedImage(w * count, h, BufferedImage.TYPE_INT_RGB);
            double[] times = new double[count];
            VideoFrame frame = new VideoFrame(w, h);
            VideoFrame last = null;
            int next = 0;
            while (next < count && frames.read(frame)) {
                last = frame;
                while (next < count && frame.timeSeconds() >= targets[next]) {
                    paint(strip, next * w, frame);
                    times[next++] = frame.timeSeconds();
                }
            }
            // A container longer than its pictures: the last picture stands for the stretches past it.
            for (; next < count && last != null; next++) {
                paint(strip, next * w, last);
                times[next] = last.timeSeconds();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(strip, "jpg", out);
            return new Strip(out.toByteArray(), w, h, times);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void paint(BufferedImage strip, int x0, VideoFrame frame) {
        byte[] rgb = frame.rgb();
        int w = frame.width();
        for (int y = 0; y < frame.height(); y++) {
            for (int x = 0; x < w; x++) {
                int i = (y * w + x) * 3;
                strip.setRGB(x0 + x, y, (rgb[i] & 0xff) << 16 | (rgb[i + 1] & 0xff) << 8 | (rgb[i + 2] & 0xff));
            }
        }
    }
}
