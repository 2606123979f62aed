package dev.scorecast.engine.analysis;

import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.media.FfmpegFrameSource;
import dev.scorecast.engine.media.MediaLimits;
import java.util.Objects;

/**
 * How {@link VisualAnalyzer} looks at a video.
 *
 * @param longSidePixels      the longer side of the pictures the detectors see (160 gives 160 x 90 for 16:9)
 * @param minSceneSeconds     hard cuts closer than this to the previous transition are dropped
 * @param cutRatio            how many times its neighbours' content change a frame's change must be to be a cut
 * @param minCutContentChange the least content change, as a fraction of full scale, that can be a cut
 * @param limits              the limits the upload was probed with
 * @param everyPicture        decode every picture; false decodes reference pictures, and the others only
 *                            where a cut may hide among them (see {@link ChangeScreen})
 */
public record VisualOptions(
        int longSidePixels,
        double minSceneSeconds,
        double cutRatio,
        double minCutContentChange,
        MediaLimits limits,
        boolean everyPicture) {

    public static final VisualOptions DEFAULT =
            new VisualOptions(FfmpegFrameSource.DEFAULT_LONG_SIDE_PIXELS, 0.5, 3.0, 0.02, MediaLimits.DEFAULT, false);

    public VisualOptions {
        Objects.requireNonNull(limits, "limits");
        if (longSidePixels < 32 || longSidePixels > 1024) {
            throw new InvalidParameter(
                    "long_side_pixels", "long_side_pixels must be 32 to 1024 pixels, not " + longSidePixels + ".");
        }
        if (!(minSceneSeconds >= 0 && minSceneSeconds <= 60)) {
            throw new InvalidParameter(
                    "min_scene_seconds", "min_scene_seconds must be 0 to 60 seconds, not " + minSceneSeconds + ".");
        }
        if (!(cutRatio >= 1 && cutRatio <= 100)) {
            throw new InvalidParameter("cut_ratio", "cut_ratio must be 1 to 100, not " + cutRatio + ".");
        }
        if (!(minCutContentChange > 0 && minCutContentChange < 1)) {
            throw new InvalidParameter(
                    "min_cut_content_change",
                    "min_cut_content_change must be a fraction between 0 and 1, not " + minCutContentChange + ".");
        }
    }

    public VisualOptions withLimits(MediaLimits newLimits) {
        return new VisualOptions(
                longSidePixels, minSceneSeconds, cutRatio, minCutContentChange, newLimits, everyPicture);
    }

    public VisualOptions withEveryPicture(boolean every) {
        return new VisualOptions(longSidePixels, minSceneSeconds, cutRatio, minCutContentChange, limits, every);
    }
}
