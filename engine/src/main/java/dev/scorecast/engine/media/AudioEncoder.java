package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_ALL;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_FLAG_GLOBAL_HEADER;
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
import static org.bytedeco.ffmpeg.global.avformat.AVFMT_GLOBALHEADER;
import static org.bytedeco.ffmpeg.global.avformat.AVIO_FLAG_WRITE;
import static org.bytedeco.ffmpeg.global.avformat.av_interleaved_write_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_write_trailer;
import static org.bytedeco.ffmpeg.global.avformat.avformat_alloc_output_context2;
import static org.bytedeco.ffmpeg.global.avformat.avformat_free_context;
import static org.bytedeco.ffmpeg.global.avformat.avformat_new_stream;
import static org.bytedeco.ffmpeg.global.avformat.avformat_write_header;
import static org.bytedeco.ffmpeg.global.avformat.avio_closep;
import static org.bytedeco.ffmpeg.global.avformat.avio_open;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_make_writable;
import static org.bytedeco.ffmpeg.global.avutil.av_make_q;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.ShortBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.javacpp.BytePointer;

/**
 * Encodes a WAV file (any rate and layout FFmpeg's WAV demuxer reads; it is converted to 48 kHz
 * stereo) with FFmpeg's encoders, in process. The helpers here ({@link Output}, {@link Track}) are
 * shared with {@link Muxer}.
 *
 * <p>Thread-safe; a call is native work that pins its thread, so run it on a platform thread.
 */
public final class AudioEncoder {

    static final int RATE = StereoResampler.RATE;
    static final int AAC_BIT_RATE = 192_000;
    private static final String FIX = "write it as a WAV file";

    private AudioEncoder() {}

    /** An output file written under a hidden temporary name and renamed into place by {@link #finish()}. */
    static final class Output implements AutoCloseable {
        private final Path target;
        private final Path temp;
        private final AVFormatContext ctx;
        private boolean done;

        private Output(Path target, Path temp, AVFormatContext ctx) {
            this.target = target;
            this.temp = temp;
            this.ctx = ctx;
        }

        static Output create(Path target, String format) {
            Ffmpeg.init();
            Path absolute = target.toAbsolutePath();
            Path temp;
            try {
                temp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".part");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create a file beside " + absolute, e);
            }
            AVFormatContext ctx = new AVFormatContext(null);
            try (BytePointer url = Ffmpeg.fileUrl(temp); BytePointer name = new BytePointer(format)) {
                check(avformat_alloc_output_context2(ctx, null, name, url), "create the " + format + " muxer");
                AVIOContext pb = new AVIOContext(null);
                check(avio_open(pb, url, AVIO_FLAG_WRITE), "open " + temp);
                ctx.pb(pb);
            } catch (RuntimeException e) {
                if (!ctx.isNull()) {
                    avformat_free_context(ctx);
                }
                deleteQuietly(temp);
                throw e;
            }
            return new Output(absolute, temp, ctx);
        }

        AVFormatContext context() {
            return ctx;
        }

        boolean globalHeader() {
            return (ctx.oformat().flags() & AVFMT_GLOBALHEADER) != 0;
        }

        /** Writes the header once every stream exists; {@code options} are muxer options (movflags, ...). */
        void start(Map<String, String> options) {
            AVDictionary dict = new AVDictionary(null);
            try {
                options.forEach((k, v) -> av_dict_set(dict, k, v, 0));
                check(avformat_write_header(ctx, dict), "write the header of " + target.getFileName());
            } finally {
                av_dict_free(dict);
            }
        }

        /** Takes the packet's reference; its timestamps must already be in the stream's time base. */
        void write(AVPacket packet) {
            check(av_interleaved_write_frame(ctx, packet), "write a packet to " + target.getFileName());
        }

        void finish() {
            check(av_write_trailer(ctx), "finish " + target.getFileName());
            closeNative();
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot move " + temp + " to " + target, e);
            }
            done = true;
        }

        @Override
        public void close() {
            if (!done) {
                // No trailer: avformat_free_context runs the muxer's deinit, and the file is thrown away.
                closeNative();
                deleteQuietly(temp);
            }
        }

        private boolean closed;

        private void closeNative() {
            if (closed) {
                return;
            }
            closed = true;
            if (ctx.pb() != null && !ctx.pb().isNull()) {
                avio_closep(ctx.pb());
            }
            avformat_free_context(ctx);
        }
    }

    /**
     * A WAV file decoded, converted to 48 kHz stereo, encoded and written to one new stream of an
     * {@link Output}, one input packet per {@link #pump()}.
     */
    static final class Track implements PcmSink, AutoCloseable {
        private final InputFile in;
        private final int inIndex;
        private final StreamDecoder decoder;
        private final StereoResampler resampler;
        private final AVCodecContext enc;
        private final AVStream stream;
        private final AVFrame frame;
        private final AVPacket packet;
        private final AVPacket encoded;
        private final Output out;
        private final int frameSize;
        private final float[][] pending;
        private int pendingFrames;
        private long samplesSent;
        private boolean finished;

        private Track(InputFile in, int inIndex, StreamDecoder decoder, AVCodecContext enc, AVStream stream, Output out) {
            this.in = in;
            this.inIndex = inIndex;
            this.decoder = decoder;
            this.enc = enc;
            this.stream = stream;
            this.out = out;
            this.frameSize = enc.frame_size() > 0 ? enc.frame_size() : 1024;
            this.pending = new float[2][frameSize];
            this.resampler = new StereoResampler(this);
            this.frame = av_frame_alloc();
            this.packet = av_packet_alloc();
            this.encoded = av_packet_alloc();
            frame.nb_samples(frameSize);
            frame.format(enc.sample_fmt());
            frame.sample_rate(RATE);
            av_channel_layout_default(frame.ch_layout(), 2);
            check(av_frame_get_buffer(frame, 0), "allocate an audio frame");
        }

        /**
         * Opens {@code wav} and adds an encoder stream ({@code encoder} by FFmpeg name, planar
         * float input) to {@code out}. Call before {@link Output#start}.
         */
        static Track open(Path wav, Output out, String encoder, int bitRate) {
            InputFile in = InputFile.open(wav, MediaLimits.DEFAULT);
            StreamDecoder decoder = null;
            AVCodecContext enc = null;
            try {
                int index = in.firstAudioStream();
                if (index < 0) {
                    throw new UnsupportedMedia("audio", wav.getFileName() + " has no audio stream; " + FIX + ".");
                }
                for (int i = 0; i < in.context().nb_streams(); i++) {
                    if (i != index) {
                        in.stream(i).discard(AVDISCARD_ALL);
                    }
                }
                decoder = StreamDecoder.open(in.stream(index), Map.of(), "audio", FIX);
                AVCodec codec = avcodec_find_encoder_by_name(encoder);
                if (codec == null) {
                    throw new IllegalStateException("this FFmpeg build has no " + encoder + " encoder");
                }
                enc = avcodec_alloc_context3(codec);
                enc.sample_fmt(AV_SAMPLE_FMT_FLTP);
                enc.sample_rate(RATE);
                av_channel_layout_default(enc.ch_layout(), 2);
                enc.bit_rate(bitRate);
                enc.time_base(av_make_q(1, RATE));
                if (out.globalHeader()) {
                    enc.flags(enc.flags() | AV_CODEC_FLAG_GLOBAL_HEADER);
                }
                AVDictionary options = new AVDictionary(null);
                try {
                    if (encoder.equals("aac")) {
                        // Perceptual noise substitution and intensity stereo are low-bit-rate tools; at
                        // 192 kb/s they buy nothing, and in FFmpeg's encoder (8.0) they throw occasional
                        // spikes up to 7 dB over the master's peaks on drum hits (measured on a rock
                        // master at -1.3 dBTP: decoded +3.1 dBTP with PNS on, -0.8 with both off).
                        av_dict_set(options, "aac_pns", "0", 0);
                        av_dict_set(options, "aac_is", "0", 0);
                    }
                    check(avcodec_open2(enc, codec, options), "open the " + encoder + " encoder");
                } finally {
                    av_dict_free(options);
                }
                AVStream stream = avformat_new_stream(out.context(), null);
                if (stream == null) {
                    throw new OutOfMemoryError("FFmpeg could not add a stream");
                }
                check(avcodec_parameters_from_context(stream.codecpar(), enc), "describe the " + encoder + " stream");
                stream.time_base(enc.time_base());
                return new Track(in, index, decoder, enc, stream, out);
            } catch (RuntimeException e) {
                if (enc != null) {
                    avcodec_free_context(enc);
                }
                if (decoder != null) {
                    decoder.close();
                }
                in.close();
                throw e;
            }
        }

        /** Seconds of audio handed to the encoder so far. */
        double seconds() {
            return samplesSent / (double) RATE;
        }

        /** Moves one packet of the WAV through; false once everything, encoder included, is flushed. */
        boolean pump() {
            if (finished) {
                return false;
            }
            while (true) {
                int ret = av_read_frame(in.context(), packet);
                if (ret < 0) {
                    drain();
                    finished = true;
                    return false;
                }
                try {
                    if (packet.stream_index() == inIndex) {
                        int sent = decoder.send(packet);
                        if (sent == Ffmpeg.EAGAIN) {
                            receiveAll();
                            sent = decoder.send(packet);
                        }
                        receiveAll();
                        return true;
                    }
                } finally {
                    av_packet_unref(packet);
                }
            }
        }

        private void receiveAll() {
            while (decoder.receive() == 0) {
                resampler.convert(decoder.frame());
            }
        }

        private void drain() {
            if (decoder.send(null) >= 0) {
                receiveAll();
            }
            resampler.flush();
            if (pendingFrames > 0) {
                encode(pendingFrames); // the last frame may be short
            }
            encodeFrame(null);
        }

        /** 16-bit interleaved stereo from the resampler, cut into encoder frames. */
        @Override
        public void write(ByteBuffer pcm) {
            ShortBuffer s = pcm.order(ByteOrder.nativeOrder()).asShortBuffer();
            int frames = s.remaining() / 2;
            for (int i = 0; i < frames; i++) {
                pending[0][pendingFrames] = s.get(2 * i) * (1f / 32768f);
                pending[1][pendingFrames] = s.get(2 * i + 1) * (1f / 32768f);
                if (++pendingFrames == frameSize) {
                    encode(frameSize);
                }
            }
        }

        private void encode(int n) {
            check(av_frame_make_writable(frame), "reuse an audio frame");
            frame.nb_samples(n);
            for (int c = 0; c < 2; c++) {
                FloatBuffer plane = frame.data(c).capacity((long) n * Float.BYTES).asByteBuffer()
                        .order(ByteOrder.nativeOrder()).asFloatBuffer();
                plane.put(pending[c], 0, n);
            }
            frame.pts(samplesSent);
            samplesSent += n;
            pendingFrames = 0;
            encodeFrame(frame);
        }

        private void encodeFrame(AVFrame f) {
            check(avcodec_send_frame(enc, f), "encode audio");
            while (true) {
                int ret = avcodec_receive_packet(enc, encoded);
                if (ret == Ffmpeg.EAGAIN || ret == AVERROR_EOF) {
                    return;
                }
                check(ret, "encode audio");
                encoded.stream_index(stream.index());
                av_packet_rescale_ts(encoded, enc.time_base(), stream.time_base());
                out.write(encoded);
            }
        }

        @Override
        public void close() {
            av_packet_free(packet);
            av_packet_free(encoded);
            av_frame_free(frame);
            avcodec_free_context(enc);
            resampler.close();
            decoder.close();
            in.close();
        }
    }

    static void check(int ret, String what) {
        if (ret < 0) {
            throw new IllegalStateException("FFmpeg could not " + what + ": " + Ffmpeg.error(ret));
        }
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a hidden leftover is harmless
        }
    }
}
