package dev.scorecast.engine.media;

/**
 * Decides where a {@link FfmpegFrameSource} that decodes reference pictures only must go back and
 * decode every picture. Non-reference pictures (most B-frames) are a third to a half of an H.264
 * video's pictures and of its decoding time, and nothing else in the video depends on them, so
 * they can be passed over; but a cut that falls on one is seen between the decoded pictures on
 * either side only to within the gap. The screen looks at each pair of consecutive decoded pictures
 * and asks for the gap between them wherever something may have happened in it.
 */
@FunctionalInterface
public interface GapScreen {

    /**
     * Called for every picture delivered after the first, before it is delivered.
     *
     * @param before    the picture delivered last
     * @param after     the next decoded picture
     * @param undecoded how many pictures between the two were passed over undecoded (0: none, and
     *                  the answer does not matter)
     * @return true to have the source go back, decode the pictures in between and deliver them
     *         before {@code after}
     */
    boolean decodeGap(VideoFrame before, VideoFrame after, int undecoded);
}
