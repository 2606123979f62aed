package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_flush_buffers;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_get_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_to_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_frame;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_packet;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;

/** One stream's decoder and the frame it decodes into; owns both native objects. */
final class StreamDecoder implements AutoCloseable {

    private final AVCodecContext ctx;
    private final AVFrame frame;

    private StreamDecoder(AVCodecContext ctx, AVFrame frame) {
        this.ctx = ctx;
        this.frame = frame;
    }

    /**
     * Opens a decoder for {@code stream} with FFmpeg codec options.
     *
     * @param fix the second half of the refusal sentence, e.g. "re-encode it as H.264 and upload again"
     * @throws UnsupportedMedia when FFmpeg has no decoder for the codec or cannot open it
     */
    static StreamDecoder open(AVStream stream, Map<String, String> options, String what, String fix) {
        int codecId = stream.codecpar().codec_id();
        if (!Decoders.allowed(codecId)) {
            throw Decoders.refusal(what, codecId, fix);
        }
        AVCodec codec = avcodec_find_decoder(codecId);
        if (codec == null) {
            throw cannotDecode(what, codecId, fix);
        }
        AVCodecContext ctx = avcodec_alloc_context3(codec);
        AVFrame frame = av_frame_alloc();
        if (ctx == null || frame == null) {
            free(ctx, frame);
            throw new OutOfMemoryError("FFmpeg could not allocate a decoder");
        }
        AVDictionary dict = new AVDictionary(null);
        try {
            options.forEach((k, v) -> av_dict_set(dict, k, v, 0));
            av_dict_set(dict, "codec_whitelist", Decoders.NAMES, 0);
            // Without the packet time base, decoders cannot honour the container's priming and
            // padding trims (mp4 edit lists), and audio would start with encoder delay.
            ctx.pkt_timebase(stream.time_base());
            if (avcodec_parameters_to_context(ctx, stream.codecpar()) < 0 || avcodec_open2(ctx, codec, dict) < 0) {
                free(ctx, frame);
                throw cannotDecode(what, codecId, fix);
            }
        } finally {
            av_dict_free(dict);
        }
        return new StreamDecoder(ctx, frame);
    }

    static String codecName(int codecId) {
        return Ffmpeg.string(avcodec_get_name(codecId));
    }

    /** Sends a packet, or {@code null} to drain; returns FFmpeg's code. */
    int send(AVPacket packet) {
        return avcodec_send_packet(ctx, packet);
    }

    /** Receives the next frame into {@link #frame()}; returns 0, {@link Ffmpeg#EAGAIN}, AVERROR_EOF or an error. */
    int receive() {
        return avcodec_receive_frame(ctx, frame);
    }

    /**
     * Which pictures are passed over undecoded. Applies to the packets sent from now on: with frame
     * threads, each packet takes the setting it had when it was sent.
     */
    void passOver(PassOver pictures) {
        ctx.skip_frame(pictures.discard);
    }

    /** Forgets every buffered packet and picture, as after a seek. */
    void flush() {
        avcodec_flush_buffers(ctx);
    }

    /** The last received frame; valid until the next {@link #receive()}. */
    AVFrame frame() {
        return frame;
    }

    @Override
    public void close() {
        free(ctx, frame);
    }

    private static void free(AVCodecContext ctx, AVFrame frame) {
        if (frame != null && !frame.isNull()) {
            av_frame_free(frame);
        }
        if (ctx != null && !ctx.isNull()) {
            avcodec_free_context(ctx);
        }
    }

    private static UnsupportedMedia cannotDecode(String what, int codecId, String fix) {
        return new UnsupportedMedia(
                "file", "The file's " + what + " codec (" + codecName(codecId) + ") cannot be decoded; " + fix + ".");
    }
}
