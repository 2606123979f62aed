package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * The times of a video stream's pictures in seconds since the start of the file (the container's
 * start, so that picture and sound share one clock). A picture without a timestamp comes one
 * nominal frame after the last delivered one; times never run backwards, nor below zero.
 * Not thread-safe.
 */
final class PresentationClock {
    private static final double FALLBACK_FPS = 30;

    private final double secondsPerTick;
    private final double originSeconds;
    private final double frameSeconds;
    /** The time of the last picture delivered, NaN before the first. */
    private double lastSeconds = Double.NaN;

    PresentationClock(double secondsPerTick, double originSeconds, double frameSeconds) {
        this.secondsPerTick = secondsPerTick;
        this.originSeconds = originSeconds;
        this.frameSeconds = frameSeconds;
    }

    /** The clock of {@code stream} in the file {@code ctx}. */
    static PresentationClock of(AVFormatContext ctx, AVStream stream) {
        return new PresentationClock(av_q2d(stream.time_base()), origin(ctx, stream), 1 / nominalFps(stream));
    }

    /** The time of the picture with timestamp {@code ts} ({@code AV_NOPTS_VALUE}: none), delivered next. */
    double secondsOf(long ts) {
        double seconds;
        if (ts != AV_NOPTS_VALUE) {
            seconds = ts * secondsPerTick - originSeconds;
        } else {
            seconds = Double.isNaN(lastSeconds) ? 0 : lastSeconds + frameSeconds;
        }
        seconds = Math.max(0, seconds);
        if (!Double.isNaN(lastSeconds) && seconds < lastSeconds) {
            seconds = lastSeconds;
        }
        return seconds;
    }

    /** Notes a picture delivered at {@code seconds}: the next are not earlier. */
    void delivered(double seconds) {
        lastSeconds = seconds;
    }

    /** Forgets the last picture delivered: a segment starts. */
    void restart() {
        lastSeconds = Double.NaN;
    }

    /** The start of the file in seconds of the stream's timestamps: the container's start, else the stream's. */
    static double origin(AVFormatContext ctx, AVStream stream) {
        if (ctx.start_time() != AV_NOPTS_VALUE) {
            return ctx.start_time() / (double) AV_TIME_BASE;
        }
        if (stream.start_time() != AV_NOPTS_VALUE) {
            return stream.start_time() * av_q2d(stream.time_base());
        }
        return 0;
    }

    /** The stream's nominal picture rate: its average, else its base rate, else 30. */
    static double nominalFps(AVStream stream) {
        for (AVRational rate : new AVRational[] {stream.avg_frame_rate(), stream.r_frame_rate()}) {
            if (rate.num() > 0 && rate.den() > 0 && av_q2d(rate) <= 1000) {
                return av_q2d(rate);
            }
        }
        return FALLBACK_FPS;
    }
}
