package dev.scorecast.engine.media;

import static dev.scorecast.engine.media.Ffmpeg.check;
import static org.bytedeco.ffmpeg.global.avutil.AV_CHANNEL_ORDER_UNSPEC;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLT;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_S16;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_compare;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_copy;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_uninit;
import static org.bytedeco.ffmpeg.global.swresample.swr_alloc;
import static org.bytedeco.ffmpeg.global.swresample.swr_alloc_set_opts2;
import static org.bytedeco.ffmpeg.global.swresample.swr_convert;
import static org.bytedeco.ffmpeg.global.swresample.swr_free;
import static org.bytedeco.ffmpeg.global.swresample.swr_get_out_samples;
import static org.bytedeco.ffmpeg.global.swresample.swr_init;
import static org.bytedeco.ffmpeg.global.swresample.swr_inject_silence;
import static org.bytedeco.ffmpeg.global.swresample.swr_set_matrix;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.io.WavEncoding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.ffmpeg.avutil.AVChannelLayout;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.swresample.SwrContext;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * Turns decoded audio frames of any format, rate and layout into 48 kHz interleaved 16-bit (or
 * float) stereo. Mono is copied to both channels at full level (swresample's default would lower it by
 * 3 dB); more than two channels get swresample's standard downmix. The input format is taken from
 * the frames, not the stream header, because decoders may change it (HE-AAC v2 turns mono into
 * stereo, a broadcast can switch from stereo to 5.1), and a change restarts the converter.
 *
 * <p>Output goes to a direct buffer this class owns and hands to FFmpeg as a raw pointer, so
 * swresample never sees a Java array or a view buffer.
 */
final class StereoResampler implements AutoCloseable {

    static final int RATE = AudioRate.HZ;
    static final int CHANNELS = 2;
    private final int outFormat;
    private final int frameBytes;
    private final PcmSink sink;
    private final AVChannelLayout inLayout = zeroed(new AVChannelLayout());
    private final AVChannelLayout outLayout = zeroed(new AVChannelLayout());
    private final PointerPointer<BytePointer> outPlanes = new PointerPointer<>(1);
    private SwrContext swr;
    private int inFormat = -1;
    private int inRate;
    private boolean inUnspecified;
    private ByteBuffer out;
    private BytePointer outPointer;

    StereoResampler(PcmSink sink) {
        this(sink, WavEncoding.PCM16);
    }

    /**
     * Output in {@code encoding}: 16-bit, or 32-bit float, which keeps what a decoder gives above
     * full scale (a lossy encode of a loud master) instead of clipping it.
     */
    StereoResampler(PcmSink sink, WavEncoding encoding) {
        this.outFormat = encoding == WavEncoding.FLOAT32 ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_S16;
        this.frameBytes = CHANNELS * encoding.bytes();
        this.sink = sink;
        av_channel_layout_default(outLayout, CHANNELS);
        ensureCapacity(4096);
    }

    /** Whether a frame has been seen, so that {@link #injectSilence} knows the input rate. */
    boolean started() {
        return swr != null;
    }

    int inputRate() {
        return inRate;
    }

    /** Converts one decoded frame and passes the output on. */
    void convert(AVFrame frame) {
        if (swr == null || changed(frame)) {
            flush();
            start(frame);
        }
        int samples = frame.nb_samples();
        ensureCapacity(swr_get_out_samples(swr, samples));
        emit(swr_convert(swr, outPlanes, capacityFrames(), frame.extended_data(), samples));
    }

    /** Queues {@code samples} input-rate samples of silence where a packet could not be decoded. */
    void injectSilence(int samples) {
        if (samples > 0) {
            check(swr_inject_silence(swr, samples), "inject silence");
        }
    }

    /** Passes on what the converter still holds (its filter delay). */
    void flush() {
        if (swr == null) {
            return;
        }
        int n;
        do {
            ensureCapacity(swr_get_out_samples(swr, 0));
            n = swr_convert(swr, outPlanes, capacityFrames(), (PointerPointer<?>) null, 0);
            emit(n);
        } while (n > 0);
    }

    @Override
    public void close() {
        if (swr != null) {
            swr_free(swr);
            swr = null;
        }
        av_channel_layout_uninit(inLayout);
        inLayout.close();
        outLayout.close();
        outPlanes.close();
    }

    private boolean changed(AVFrame frame) {
        AVChannelLayout layout = frame.ch_layout();
        boolean unspecified = layout.order() == AV_CHANNEL_ORDER_UNSPEC;
        return frame.format() != inFormat
                || frame.sample_rate() != inRate
                || unspecified != inUnspecified
                || (unspecified
                        ? layout.nb_channels() != inLayout.nb_channels()
                        : av_channel_layout_compare(layout, inLayout) != 0);
    }

    private void start(AVFrame frame) {
        if (swr != null) {
            swr_free(swr);
        }
        inFormat = frame.format();
        inRate = frame.sample_rate();
        av_channel_layout_uninit(inLayout);
        AVChannelLayout layout = frame.ch_layout();
        inUnspecified = layout.order() == AV_CHANNEL_ORDER_UNSPEC;
        if (inUnspecified) {
            // swresample cannot build a downmix matrix without knowing which channel is which.
            av_channel_layout_default(inLayout, layout.nb_channels());
        } else {
            check(av_channel_layout_copy(inLayout, layout), "copy the channel layout");
        }
        SwrContext s = swr_alloc();
        if (s == null) {
            throw new OutOfMemoryError("FFmpeg could not allocate a resampler");
        }
        swr = s;
        check(
                swr_alloc_set_opts2(swr, outLayout, outFormat, RATE, inLayout, inFormat, inRate, 0, null),
                "configure the resampler");
        if (inLayout.nb_channels() == 1) {
            check(swr_set_matrix(swr, new double[] {1.0, 1.0}, 1), "set the mono matrix");
        }
        check(swr_init(swr), "start the resampler");
    }

    private void ensureCapacity(int frames) {
        if (out != null && frames <= capacityFrames()) {
            return;
        }
        int capacity = Math.max(frames, 4096) * 2 * frameBytes;
        out = ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
        // The pointer shares the buffer's memory; keeping `out` referenced keeps it alive.
        outPointer = new BytePointer(out);
        outPlanes.put(0, outPointer);
    }

    private int capacityFrames() {
        return out.capacity() / frameBytes;
    }

    private void emit(int frames) {
        check(frames, "convert audio");
        if (frames > 0) {
            out.clear().limit(frames * frameBytes);
            sink.write(out);
        }
    }

    private static <P extends Pointer> P zeroed(P p) {
        // av_channel_layout_copy/uninit free a custom map in the destination, so it must not be garbage.
        Pointer.memset(p, 0, p.sizeof());
        return p;
    }
}
