package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AVCOL_RANGE_JPEG;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_RGB24;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ411P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ420P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ422P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ440P;
import static org.bytedeco.ffmpeg.global.avutil.AV_PIX_FMT_YUVJ444P;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.swscale.SWS_AREA;
import static org.bytedeco.ffmpeg.global.swscale.sws_freeContext;
import static org.bytedeco.ffmpeg.global.swscale.sws_getCachedContext;
import static org.bytedeco.ffmpeg.global.swscale.sws_getCoefficients;
import static org.bytedeco.ffmpeg.global.swscale.sws_scale;
import static org.bytedeco.ffmpeg.global.swscale.sws_setColorspaceDetails;

import dev.scorecast.engine.error.UnsupportedMedia;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.swscale.SwsContext;
import org.bytedeco.ffmpeg.swscale.SwsFilter;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.DoublePointer;

/**
 * Shrinks decoded pictures to a small packed-RGB size with swscale and turns them upright. The
 * output size is fixed when the scaler is made; a stream whose picture size or format changes
 * midway is rescaled to the same size, so every frame a source delivers has the same shape.
 */
final class PictureScaler implements AutoCloseable {

    // Area averaging: point-sampling a 1080p picture down to 160 px would alias fine texture into
    // flicker that reads as motion and as content change.
    private static final int FLAGS = SWS_AREA;
    private static final int FULL_RANGE = 1;
    private static final int UNIT = 1 << 16; // swscale's fixed-point 1.0 for brightness, contrast, saturation

    private final int codedWidth;
    private final int codedHeight;
    private final int rotationDegrees;
    private final AVFrame scaled;
    private final byte[] coded;
    private SwsContext sws;
    private int tableColorspace = -1;
    private boolean tableFullRange;

    /**
     * @param codedWidth      output width before rotation, in pixels
     * @param codedHeight     output height before rotation, in pixels
     * @param rotationDegrees clockwise quarter turn that makes the picture upright: 0, 90, 180 or 270
     */
    PictureScaler(int codedWidth, int codedHeight, int rotationDegrees) {
        this.codedWidth = codedWidth;
        this.codedHeight = codedHeight;
        this.rotationDegrees = rotationDegrees;
        this.scaled = av_frame_alloc();
        if (scaled == null) {
            throw new OutOfMemoryError("FFmpeg could not allocate a frame");
        }
        scaled.format(AV_PIX_FMT_RGB24).width(codedWidth).height(codedHeight);
        if (av_frame_get_buffer(scaled, 0) < 0) {
            av_frame_free(scaled);
            throw new OutOfMemoryError("FFmpeg could not allocate a " + codedWidth + "x" + codedHeight + " picture");
        }
        this.coded = new byte[codedWidth * codedHeight * 3];
    }

    /** Width of the upright output. */
    int width() {
        return rotationDegrees % 180 == 0 ? codedWidth : codedHeight;
    }

    /** Height of the upright output. */
    int height() {
        return rotationDegrees % 180 == 0 ? codedHeight : codedWidth;
    }

    /** Scales {@code picture} into {@code uprightRgb} ({@link #width()} x {@link #height()} x 3 bytes). */
    void scale(AVFrame picture, byte[] uprightRgb) {
        SwsContext next = sws_getCachedContext(
                sws,
                picture.width(),
                picture.height(),
                picture.format(),
                codedWidth,
                codedHeight,
                AV_PIX_FMT_RGB24,
                FLAGS,
                (SwsFilter) null,
                (SwsFilter) null,
                (DoublePointer) null);
        if (next == null || next.isNull()) {
            throw new UnsupportedMedia(
                    "file",
                    "The video's pictures (pixel format " + picture.format()
                            + ") cannot be converted; re-encode it as H.264 and upload again.");
        }
        if (!next.equals(sws)) {
            tableColorspace = -1; // a new context starts from swscale's defaults
        }
        sws = next;
        applyColorspace(picture);
        sws_scale(sws, picture.data(), picture.linesize(), 0, picture.height(), scaled.data(), scaled.linesize());
        byte[] target = rotationDegrees == 0 ? uprightRgb : coded;
        copyOut(target);
        if (rotationDegrees != 0) {
            Rotation.turnClockwise(coded, codedWidth, codedHeight, rotationDegrees, uprightRgb);
        }
    }

    /**
     * Uses the matrix and range the picture declares, so that an HD video tagged BT.709 or a
     * full-range phone video comes out with the right brightness and colours.
     */
    private void applyColorspace(AVFrame picture) {
        int colorspace = picture.colorspace();
        boolean fullRange = picture.color_range() == AVCOL_RANGE_JPEG || isJpegFormat(picture.format());
        if (colorspace == tableColorspace && fullRange == tableFullRange) {
            return;
        }
        sws_setColorspaceDetails(
                sws,
                sws_getCoefficients(colorspace),
                fullRange ? 1 : 0,
                sws_getCoefficients(colorspace),
                FULL_RANGE,
                0,
                UNIT,
                UNIT);
        tableColorspace = colorspace;
        tableFullRange = fullRange;
    }

    private static boolean isJpegFormat(int format) {
        return format == AV_PIX_FMT_YUVJ420P
                || format == AV_PIX_FMT_YUVJ422P
                || format == AV_PIX_FMT_YUVJ444P
                || format == AV_PIX_FMT_YUVJ440P
                || format == AV_PIX_FMT_YUVJ411P;
    }

    private void copyOut(byte[] target) {
        BytePointer data = scaled.data(0);
        int lineBytes = scaled.linesize(0);
        int rowBytes = codedWidth * 3;
        if (lineBytes == rowBytes) {
            data.position(0).get(target, 0, rowBytes * codedHeight);
            return;
        }
        for (int y = 0; y < codedHeight; y++) {
            data.position((long) y * lineBytes).get(target, y * rowBytes, rowBytes);
        }
        data.position(0);
    }

    @Override
    public void close() {
        if (sws != null && !sws.isNull()) {
            sws_freeContext(sws);
            sws = null;
        }
        if (!scaled.isNull()) {
            av_frame_free(scaled);
        }
    }
}
