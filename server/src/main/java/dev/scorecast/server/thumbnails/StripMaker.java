package dev.scorecast.server.thumbnails;

import dev.scorecast.engine.core.Ticker;
import dev.scorecast.engine.media.KeyframeStills;
import dev.scorecast.engine.media.MediaLimits;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.upload.Video;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import javax.imageio.ImageIO;

/** Decodes one strip: the keyframe at or before the middle of each of {@code count} equal stretches, side by side in a JPEG. */
final class StripMaker {
    private StripMaker() {}

    static Thumbnails.Strip make(
            BlobStore blobs, Video video, int count, MediaLimits limits, Duration deadline, Ticker ticker) {
        double duration = video.duration();
        double[] targets = new double[count];
        for (int i = 0; i < count; i++) {
            targets[i] = (i + 0.5) * duration / count;
        }
        try (BlobStore.Staged source = blobs.stage(video.storedAs())) {
            KeyframeStills.Stills stills =
                    KeyframeStills.at(source.path(), limits, Thumbnails.LONG_SIDE, targets, deadline, ticker);
            int w = stills.width();
            int h = stills.height();
            BufferedImage strip = new BufferedImage(w * count, h, BufferedImage.TYPE_INT_RGB);
            double[] times = new double[count];
            for (int i = 0; i < count; i++) {
                KeyframeStills.Still still = stills.pictures().get(i);
                paint(strip, i * w, w, h, still.rgb());
                times[i] = still.timeSeconds();
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ImageIO.write(strip, "jpg", out);
            return new Thumbnails.Strip(out.toByteArray(), w, h, times);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void paint(BufferedImage strip, int x0, int w, int h, byte[] rgb) {
        int[] row = new int[w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                int i = (y * w + x) * 3;
                row[x] = (rgb[i] & 0xff) << 16 | (rgb[i + 1] & 0xff) << 8 | (rgb[i + 2] & 0xff);
            }
            strip.setRGB(x0, y, w, 1, row, 0, w);
        }
    }
}
