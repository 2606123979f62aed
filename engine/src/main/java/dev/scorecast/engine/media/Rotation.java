package dev.scorecast.engine.media;

/** Quarter turns of packed 8-bit RGB pictures. */
final class Rotation {

    private Rotation() {}

    /**
     * Writes {@code src} ({@code width} x {@code height}) turned {@code clockwiseDegrees} (90, 180
     * or 270) into {@code dst}, whose width and height are swapped for 90 and 270.
     */
    static void turnClockwise(byte[] src, int width, int height, int clockwiseDegrees, byte[] dst) {
        switch (clockwiseDegrees) {
            case 90 -> {
                // The source's left column becomes the top row, read bottom to top.
                for (int y = 0; y < height; y++) {
                    int dstX = height - 1 - y;
                    for (int x = 0; x < width; x++) {
                        copyPixel(src, (y * width + x) * 3, dst, (x * height + dstX) * 3);
                    }
                }
            }
            case 180 -> {
                int last = width * height - 1;
                for (int p = 0; p <= last; p++) {
                    copyPixel(src, p * 3, dst, (last - p) * 3);
                }
            }
            case 270 -> {
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        copyPixel(src, (y * width + x) * 3, dst, ((width - 1 - x) * height + y) * 3);
                    }
                }
            }
            default -> throw new IllegalArgumentException("not a quarter turn: " + clockwiseDegrees);
        }
    }

    private static void copyPixel(byte[] src, int from, byte[] dst, int to) {
        dst[to] = src[from];
        dst[to + 1] = src[from + 1];
        dst[to + 2] = src[from + 2];
    }
}
