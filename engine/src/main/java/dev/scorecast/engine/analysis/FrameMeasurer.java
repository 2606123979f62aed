package dev.scorecast.engine.analysis;

import dev.scorecast.engine.media.VideoFrame;
import java.util.Arrays;

/**
 * Turns each decoded picture into a {@link Frame} in one pass over its pixels: luma, hue,
 * saturation and value planes, the differences against the previous picture, whole-picture
 * measures and a thumbnail. Integer arithmetic with reciprocal tables keeps the per-pixel cost to
 * a few dozen operations, which matters because this runs for every frame of every upload.
 */
final class FrameMeasurer {
    private static final int FULL = 255;
    private static final int ONE = 1 << 16; // fixed-point 1.0
    private static final int DARK_LEVEL = 64; // a quarter of full scale
    private static final int LIGHT_LEVEL = 191; // three quarters
    private static final int HUE_RANGE = 180; // hue in two-degree steps, as one byte holds it
    private static final int HALF_HUE_RANGE = HUE_RANGE / 2;
    private static final double COLORFULNESS_FULL_SCALE = 150;
    private static final int[] SATURATION_RECIPROCAL = reciprocals(FULL);
    private static final int[] HUE_RECIPROCAL = reciprocals(HUE_RANGE / 6);
    private static final int HUE_WEIGHT = ONE / HALF_HUE_RANGE;

    private final int pixels;
    private final Frame frame;
    private final FrameHistory history;
    private final int[] cellOf;
    private final int[] cellPixels;
    private final int[] cellLuma;
    private final int[] cellBlue;
    private final int[] cellRed;
    private Planes current;
    private Planes previous;
    private long ordinal;
    private double previousTimeSeconds = Double.NaN;

    FrameMeasurer(int width, int height, FrameHistory history) {
        this.pixels = width * height;
        this.history = history;
        this.frame = new Frame(width, height, history);
        this.current = new Planes(pixels);
        this.previous = new Planes(pixels);
        int cells = history.thumbnailWidth() * history.thumbnailHeight();
        this.cellOf = new int[pixels];
        this.cellPixels = new int[cells];
        this.cellLuma = new int[cells];
        this.cellBlue = new int[cells];
        this.cellRed = new int[cells];
        for (int y = 0; y < height; y++) {
            int row = y * history.thumbnailHeight() / height * history.thumbnailWidth();
            for (int x = 0; x < width; x++) {
                int cell = row + x * history.thumbnailWidth() / width;
                cellOf[y * width + x] = cell;
                cellPixels[cell]++;
            }
        }
    }

    /** Measures {@code picture}, records it in the history and returns the (reused) frame. */
    Frame measure(VideoFrame picture) {
        if (picture.width() != frame.width || picture.height() != frame.height) {
            throw new IllegalArgumentException("picture is " + picture.width() + "x" + picture.height() + ", expected "
                    + frame.width + "x" + frame.height);
        }
        Planes swap = previous;
        previous = current;
        current = swap;
        boolean first = ordinal == 0;
        scan(picture.rgb(), first);

        frame.ordinal = ordinal++;
        frame.index = picture.index();
        frame.timeSeconds = picture.timeSeconds();
        frame.intervalSeconds = first ? Double.NaN : picture.timeSeconds() - previousTimeSeconds;
        previousTimeSeconds = picture.timeSeconds();
        frame.rgb = picture.rgb();
        frame.luma = current.luma;
        history.record(frame);
        return frame;
    }

    private void scan(byte[] rgb, boolean first) {
        Arrays.fill(cellLuma, 0);
        Arrays.fill(cellBlue, 0);
        Arrays.fill(cellRed, 0);
        byte[] hue = current.hue;
        byte[] sat = current.saturation;
        byte[] val = current.value;
        byte[] chr = current.chroma;
        byte[] lum = current.luma;
        byte[] pHue = previous.hue;
        byte[] pSat = previous.saturation;
        byte[] pVal = previous.value;
        byte[] pChr = previous.chroma;
        byte[] pLum = previous.luma;
        long content = 0;
        long lumaChange = 0;
        long sumLuma = 0;
        long lit = 0;
        long unlit = 0;
        long sumRed = 0;
        long sumBlue = 0;
        long sumRg = 0;
        long sumRg2 = 0;
        long sumYb = 0;
        long sumYb2 = 0;
        for (int p = 0, i = 0; p < pixels; p++, i += 3) {
            int r = rgb[i] & 0xff;
            int g = rgb[i + 1] & 0xff;
            int b = rgb[i + 2] & 0xff;
            int max = Math.max(r, Math.max(g, b));
            int min = Math.min(r, Math.min(g, b));
            int c = max - min;
            int y = (77 * r + 150 * g + 29 * b + 128) >> 8;
            int s = max == 0 ? 0 : (c * SATURATION_RECIPROCAL[max] + ONE / 2) >> 16;
            int h = 0;
            if (c != 0) {
                // Hexcone hue: a sixth of the circle per colour pair, 30 steps each.
                if (max == r) {
                    h = ((g - b) * HUE_RECIPROCAL[c]) >> 16;
                } else if (max == g) {
                    h = 60 + (((b - r) * HUE_RECIPROCAL[c]) >> 16);
                } else {
                    h = 120 + (((r - g) * HUE_RECIPROCAL[c]) >> 16);
                }
                if (h < 0) {
                    h += HUE_RANGE;
                }
            }
            hue[p] = (byte) h;
            sat[p] = (byte) s;
            val[p] = (byte) max;
            chr[p] = (byte) c;
            lum[p] = (byte) y;
            if (!first) {
                int dh = Math.abs(h - (pHue[p] & 0xff));
                if (dh > HALF_HUE_RANGE) {
                    dh = HUE_RANGE - dh;
                }
                // Hue counts only as far as both pixels have colour to show it.
                int hueTerm = (dh * Math.min(c, pChr[p] & 0xff) * HUE_WEIGHT) >> 16;
                content += hueTerm + Math.abs(s - (pSat[p] & 0xff)) + Math.abs(max - (pVal[p] & 0xff));
                lumaChange += Math.abs(y - (pLum[p] & 0xff));
            }
            sumLuma += y;
            lit += y > DARK_LEVEL ? 1 : 0;
            unlit += y < LIGHT_LEVEL ? 1 : 0;
            sumRed += r;
            sumBlue += b;
            int rg = r - g;
            int yb = ((r + g) >> 1) - b;
            sumRg += rg;
            sumRg2 += rg * rg;
            sumYb += yb;
            sumYb2 += yb * yb;
            int cell = cellOf[p];
            cellLuma[cell] += y;
            cellBlue[cell] += b - y;
            cellRed[cell] += r - y;
        }
        double n = pixels;
        frame.contentDelta = content / (3.0 * FULL * n);
        frame.lumaDelta = lumaChange / (FULL * n);
        frame.meanLuma = sumLuma / (FULL * n);
        frame.litFraction = lit / n;
        frame.unlitFraction = unlit / n;
        frame.warmth = clamp(0.5 + (sumRed - sumBlue) / (FULL * n));
        double meanRg = sumRg / n;
        double meanYb = sumYb / n;
        double spread =
                Math.sqrt(Math.max(0, sumRg2 / n - meanRg * meanRg) + Math.max(0, sumYb2 / n - meanYb * meanYb));
        frame.colorfulness = clamp((spread + 0.3 * Math.hypot(meanRg, meanYb)) / COLORFULNESS_FULL_SCALE);
        fillThumbnail();
    }

    private void fillThumbnail() {
        float[] t = frame.thumbnail;
        int cells = cellPixels.length;
        for (int cell = 0; cell < cells; cell++) {
            float scale = 1f / (FULL * Math.max(1, cellPixels[cell]));
            t[cell] = cellLuma[cell] * scale;
            t[cells + cell] = cellBlue[cell] * scale;
            t[2 * cells + cell] = cellRed[cell] * scale;
        }
    }

    private static int[] reciprocals(int numerator) {
        int[] table = new int[FULL + 1];
        for (int d = 1; d <= FULL; d++) {
            table[d] = (int) Math.round((double) numerator * ONE / d);
        }
        return table;
    }

    private static double clamp(double value) {
        return Math.max(0, Math.min(1, value));
    }

    /** One picture's per-pixel planes; two sets alternate between current and previous. */
    private static final class Planes {
        final byte[] hue;
        final byte[] saturation;
        final byte[] value;
        final byte[] chroma;
        final byte[] luma;

        Planes(int pixels) {
            hue = new byte[pixels];
            saturation = new byte[pixels];
            value = new byte[pixels];
            chroma = new byte[pixels];
            luma = new byte[pixels];
        }
    }
}
