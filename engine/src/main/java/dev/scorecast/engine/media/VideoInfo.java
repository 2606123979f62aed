package dev.scorecast.engine.media;

import java.util.Objects;
import java.util.Set;

/**
 * What {@link VideoProbe} learned about an upload whose first video frame decoded.
 *
 * @param container       friendly container name: {@code mp4}, {@code mov}, {@code m4a}, {@code 3gp},
 *                        {@code webm}, {@code matroska}, or FFmpeg's demuxer name for the rest
 *                        ({@code avi}, {@code flv}, {@code mpegts}, {@code mpeg}, {@code ogg}, {@code asf}, ...)
 * @param videoCodec      FFmpeg's codec name, e.g. {@code h264}, {@code hevc}, {@code vp9}, {@code av1}
 * @param duration        seconds, from the container, else from the video stream
 * @param width           coded picture width in pixels, before {@code rotation}
 * @param height          coded picture height in pixels, before {@code rotation}
 * @param fps             average frames per second
 * @param frames          frame count from the container, else estimated as duration x fps
 * @param rotation        clockwise degrees (0, 90, 180 or 270) the decoded picture must be turned to
 *                        stand upright, as the legacy {@code rotate} tag and the ffmpeg CLI count it;
 *                        a phone held upright typically records 90
 * @param hasAudio        whether there is an audio stream we can decode
 * @param audioCodec      FFmpeg's codec name of the first decodable audio stream, null when none
 * @param audioChannels   its channel count, 0 when none
 * @param audioSampleRate its sample rate in Hz, 0 when none
 */
public record VideoInfo(
        String container,
        String videoCodec,
        double duration,
        int width,
        int height,
        double fps,
        long frames,
        int rotation,
        boolean hasAudio,
        String audioCodec,
        int audioChannels,
        int audioSampleRate) {

    private static final Set<Integer> QUARTER_TURNS = Set.of(0, 90, 180, 270);

    public VideoInfo {
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(videoCodec, "videoCodec");
        if (!(duration > 0) || !(fps > 0) || width < 1 || height < 1 || frames < 0) {
            throw new IllegalArgumentException(
                    "duration, fps, width and height must be positive and frames not negative");
        }
        if (!QUARTER_TURNS.contains(rotation)) {
            throw new IllegalArgumentException("rotation must be 0, 90, 180 or 270, not " + rotation);
        }
        if (hasAudio != (audioCodec != null) || audioChannels < 0 || audioSampleRate < 0) {
            throw new IllegalArgumentException(
                    "audioCodec must be set exactly when hasAudio, and audio numbers not negative");
        }
    }

    /** Width as displayed, after rotation. */
    public int displayWidth() {
        return rotation % 180 == 0 ? width : height;
    }

    /** Height as displayed, after rotation. */
    public int displayHeight() {
        return rotation % 180 == 0 ? height : width;
    }
}
