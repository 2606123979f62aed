package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_rescale_ts;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_from_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_packet;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_write_frame;
import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_output_context2;
import static org.bytedeco.ffmpeg.global.avformat.avformat_free_context;
import static org.bytedeco.ffmpeg.global.avformat.avformat_new_stream;
import static org.bytedeco.ffmpeg.global.avformat.avformat_write_header;
import static org.bytedeco.ffmpeg.global.avformat.avio_close_dyn_buf;
import static org.bytedeco.ffmpeg.global.avformat.avio_open_dyn_buf;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLT;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_make_writable;
import static org.bytedeco.ffmpeg.global.avutil.av_free;
import static org.bytedeco.ffmpeg.global.avutil.av_make_q;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Endless audio for the live player: 48 kHz stereo float blocks in, the bytes of a streamable
 * container out, cut at packet (or Ogg page) boundaries so that a listener can join between any
 * two chunks after receiving {@link #header()}. The muxer writes into an in-memory buffer that is
 * taken and replaced after each packet, so no file and no native callback is involved.
 *
 * <p>Not thread-safe: one encoder belongs to one render loop.
 */
public final class LiveEncoder implements AutoCloseable {

    /** The stream formats of {@code GET /player/stream?format=}. */
    public enum Format {
        // Encoder options chosen for real time: the AAC encoder's "fast" coder instead of its
        // two-loop search, LAME's quality 7 and Opus' complexity 5 (docs/PLAYER.md has the costs).
        AAC(
                "aac",
                "audio/aac",
                "adts",
                "aac",
                128_000,
                false,
                Map.of("aac_coder", "fast", "aac_pns", "0", "aac_is", "0")),
        MP3("mp3", "audio/mpeg", "mp3", "libmp3lame", 128_000, false, Map.of("compression_level", "7")),
        OPUS("opus", "audio/ogg", "ogg", "libopus", 96_000, true, Map.of("compression_level", "5")),
        WAV("wav", "audio/wav", null, null, 0, false, Map.of());

        public final String wire;
        public final String mediaType;
        final String muxer;
        final String encoder;
        final int bitRate;
        final boolean interleaved;
        final Map<String, String> options;

        Format(
                String wire,
                String mediaType,
                String muxer,
                String encoder,
                int bitRate,
                boolean interleaved,
                Map<String, String> options) {
            this.options = options;
            this.wire = wire;
            this.mediaType = mediaType;
            this.muxer = muxer;
            this.encoder = encoder;
            this.bitRate = bitRate;
            this.interleaved = interleaved;
        }

        /** Bits per second of the coded stream (PCM16 stereo at 48 kHz for WAV). */
        public int bitRate() {
            return this == WAV ? RATE * 2 * 16 : bitRate;
        }

        public static Optional<Format> fromWire(String wire) {
            return Arrays.stream(values())
                    .filter(f -> f.wire.equals(wire == null ? "" : wire.toLowerCase(Locale.ROOT)))
                    .findFirst();
        }
    }

    public static final int RATE = AudioRate.HZ;
    private static final Map<String, String> MUXER_OPTIONS = Map.of(
            // No ID3 tag or Xing frame: a listener joins anywhere, and there is no end to describe.
            "id3v2_version",
            "0",
            "write_xing",
            "0",
            // Ogg pages of 60 ms instead of 1 s, so the first audio leaves at once.
            "page_duration",
            "60000");

    private final Format format;
    private final byte[] header;
    private final AVFormatContext ctx;
    private final AVCodecContext enc;
    private final AVStream stream;
    private final AVFrame frame;
    private final AVPacket packet;
    private final int frameSize;
    private final float[] pending;
    private int pendingFrames;
    private long samplesSent;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private LiveEncoder(Format format) {
        this.format = format;
        if (format == Format.WAV) {
            header = WavWriter.streamHeader(WavEncoding.PCM16, RATE, 2);
            ctx = null;
            enc = null;
            stream = null;
            frame = null;
            packet = null;
            frameSize = 0;
            pending = null;
            return;
        }
        Ffmpeg.init();
        AVCodec codec = avcodec_find_encoder_by_name(format.encoder);
        if (codec == null) {
            throw new IllegalStateException("this FFmpeg build has no " + format.encoder + " encoder");
        }
        // ADTS and MP3 need no muxer: a chunk is the encoder's packet (with a 7-byte ADTS header for
        // AAC), which saves the muxer's per-packet work and buffers. Ogg pages need the muxer.
        boolean raw = format != Format.OPUS;
        AVFormatContext c = raw ? null : new AVFormatContext(null);
        AVCodecContext e = null;
        try {
            if (!raw) {
                Ffmpeg.check(
                        avformat_alloc_output_context2(c, null, format.muxer, null),
                        "create the " + format.muxer + " muxer");
            }
            e = avcodec_alloc_context3(codec);
            e.sample_fmt(format.interleaved ? AV_SAMPLE_FMT_FLT : AV_SAMPLE_FMT_FLTP);
            e.sample_rate(RATE);
            av_channel_layout_default(e.ch_layout(), 2);
            e.bit_rate(format.bitRate);
            e.time_base(av_make_q(1, RATE));
            AVDictionary encoderOptions = new AVDictionary(null);
            try {
                format.options.forEach((k, v) -> av_dict_set(encoderOptions, k, v, 0));
                Ffmpeg.check(avcodec_open2(e, codec, encoderOptions), "open the " + format.encoder + " encoder");
            } finally {
                av_dict_free(encoderOptions);
            }
            if (raw) {
                header = new byte[0];
                ctx = null;
                stream = null;
            } else {
                AVStream s = avformat_new_stream(c, null);
                if (s == null) {
                    throw new OutOfMemoryError("FFmpeg could not add a stream");
                }
                Ffmpeg.check(
                        avcodec_parameters_from_context(s.codecpar(), e), "describe the " + format.wire + " stream");
                s.time_base(e.time_base());
                openBuffer(c);
                AVDictionary options = new AVDictionary(null);
                try {
                    MUXER_OPTIONS.forEach((k, v) -> av_dict_set(options, k, v, 0));
                    Ffmpeg.check(avformat_write_header(c, options), "write the " + format.wire + " header");
                } finally {
                    av_dict_free(options);
                }
                header = takeBuffer(c);
                openBuffer(c);
                ctx = c;
                stream = s;
            }
            enc = e;
        } catch (RuntimeException ex) {
            if (e != null) {
                avcodec_free_context(e);
            }
            if (c != null) {
                freeContext(c);
            }
            throw ex;
        }
        frameSize = enc.frame_size() > 0 ? enc.frame_size() : 1024;
        pending = new float[2 * frameSize];
        frame = av_frame_alloc();
        packet = av_packet_alloc();
        frame.nb_samples(frameSize);
        frame.format(enc.sample_fmt());
        frame.sample_rate(RATE);
        av_channel_layout_default(frame.ch_layout(), 2);
        Ffmpeg.check(av_frame_get_buffer(frame, 0), "allocate an audio frame");
    }

    public static LiveEncoder open(Format format) {
        return new LiveEncoder(format);
    }

    public Format format() {
        return format;
    }

    /** What a listener receives first: the container's header (empty for ADTS and MP3). */
    public byte[] header() {
        return header.clone();
    }

    /**
     * Encodes {@code frames} stereo frames of {@code interleaved} (left, right, ...) and returns
     * the container bytes completed by them, possibly none (the encoder holds a frame or two).
     */
    public byte[] encode(float[] interleaved, int frames) {
        if (format == Format.WAV) {
            byte[] pcm = new byte[frames * 4];
            ByteBuffer b = ByteBuffer.wrap(pcm).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 2 * frames; i++) {
                b.putShort((short) Math.round(Math.clamp(interleaved[i], -1f, 1f) * 32767f));
            }
            return pcm;
        }
        int i = 0;
        while (i < frames) {
            int take = Math.min(frames - i, frameSize - pendingFrames);
            System.arraycopy(interleaved, 2 * i, pending, 2 * pendingFrames, 2 * take);
            pendingFrames += take;
            i += take;
            if (pendingFrames == frameSize) {
                encodeFrame();
            }
        }
        if (out.size() == 0) {
            return new byte[0];
        }
        byte[] bytes = out.toByteArray();
        out.reset();
        return bytes;
    }

    private void encodeFrame() {
        Ffmpeg.check(av_frame_make_writable(frame), "reuse an audio frame");
        if (format.interleaved) {
            frame.data(0)
                    .capacity((long) frameSize * 2 * Float.BYTES)
                    .asByteBuffer()
                    .order(ByteOrder.nativeOrder())
                    .asFloatBuffer()
                    .put(pending, 0, 2 * frameSize);
        } else {
            FloatBuffer left = frame.data(0)
                    .capacity((long) frameSize * Float.BYTES)
                    .asByteBuffer()
                    .order(ByteOrder.nativeOrder())
                    .asFloatBuffer();
            FloatBuffer right = frame.data(1)
                    .capacity((long) frameSize * Float.BYTES)
                    .asByteBuffer()
                    .order(ByteOrder.nativeOrder())
                    .asFloatBuffer();
            for (int k = 0; k < frameSize; k++) {
                left.put(k, pending[2 * k]);
                right.put(k, pending[2 * k + 1]);
            }
        }
        frame.pts(samplesSent);
        samplesSent += frameSize;
        pendingFrames = 0;
        Ffmpeg.check(avcodec_send_frame(enc, frame), "encode audio");
        while (true) {
            int ret = avcodec_receive_packet(enc, packet);
            if (ret < 0) {
                return; // EAGAIN: the encoder wants more input
            }
            if (ctx == null) {
                int size = packet.size();
                if (format == Format.AAC) {
                    out.write(adtsHeader(size), 0, 7);
                }
                if (copy.length < size) {
                    copy = new byte[size];
                }
                packet.data().capacity(size).get(copy, 0, size);
                out.write(copy, 0, size);
                av_packet_unref(packet);
                continue;
            }
            packet.stream_index(stream.index());
            av_packet_rescale_ts(packet, enc.time_base(), stream.time_base());
            Ffmpeg.check(av_write_frame(ctx, packet), "write a " + format.wire + " packet");
            byte[] bytes = takeBuffer(ctx);
            out.write(bytes, 0, bytes.length);
            openBuffer(ctx);
        }
    }

    private byte[] copy = new byte[2048];

    /** ADTS without CRC: MPEG-4 AAC LC, 48 kHz (index 3), two channels, this frame's length. */
    private static byte[] adtsHeader(int payload) {
        int length = payload + 7;
        return new byte[] {
            (byte) 0xFF,
            (byte) 0xF1,
            (byte) ((1 << 6) | (3 << 2)),
            (byte) ((2 << 6) | (length >> 11)),
            (byte) ((length >> 3) & 0xFF),
            (byte) (((length & 7) << 5) | 0x1F),
            (byte) 0xFC
        };
    }

    private static void openBuffer(AVFormatContext c) {
        AVIOContext pb = new AVIOContext(null);
        Ffmpeg.check(avio_open_dyn_buf(pb), "open a memory buffer");
        c.pb(pb);
    }

    /** The bytes the muxer wrote since the buffer was opened; the buffer is freed. */
    private static byte[] takeBuffer(AVFormatContext c) {
        BytePointer data = new BytePointer((Pointer) null);
        int size = avio_close_dyn_buf(c.pb(), data);
        c.pb(null);
        byte[] bytes = new byte[Math.max(0, size)];
        if (size > 0) {
            data.capacity(size).get(bytes);
        }
        av_free(data);
        return bytes;
    }

    private static void freeContext(AVFormatContext c) {
        if (c.isNull()) {
            return;
        }
        if (c.pb() != null && !c.pb().isNull()) {
            takeBuffer(c);
        }
        avformat_free_context(c);
    }

    @Override
    public void close() {
        if (format == Format.WAV) {
            return;
        }
        av_packet_free(packet);
        av_frame_free(frame);
        avcodec_free_context(enc);
        if (ctx != null) {
            freeContext(ctx);
        }
    }
}
