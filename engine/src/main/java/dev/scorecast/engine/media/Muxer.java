package dev.scorecast.engine.media;

import static dev.scorecast.engine.media.Ffmpeg.check;
import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_FLAG_GLOBAL_HEADER;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_rescale_ts;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_alloc_context3;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_encoder_by_name;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_free_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_open2;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_copy;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_from_context;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_receive_packet;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_send_frame;
import static org.bytedeco.ffmpeg.global.avformat.AVFMT_GLOBALHEADER;
import static org.bytedeco.ffmpeg.global.avformat.AVIO_FLAG_WRITE;
import static org.bytedeco.ffmpeg.global.avformat.av_codec_get_id;
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
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_SAMPLE_FMT_FLTP;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_channel_layout_default;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_alloc;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_free;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_get_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_frame_make_writable;
import static org.bytedeco.ffmpeg.global.avutil.av_make_q;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;
import static org.bytedeco.ffmpeg.global.avutil.av_rescale_q;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.StereoSource;
import dev.scorecast.engine.io.WavReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.ffmpeg.avcodec.AVCodecContext;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVIOContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.ffmpeg.avutil.AVRational;
import org.bytedeco.javacpp.BytePointer;

/**
 * Puts new audio under a video: the output MP4 holds the input's first video stream copied packet
 * for packet (bit for bit; timestamps only shifted so the file starts at 0, as the analysis clock
 * does, and rescaled), and one AAC-LC 48 kHz stereo track at 256 kb/s encoded from a WAV. The
 * input's own audio, subtitles and data streams are not copied. Rotation and other stream side
 * data travel with the copied codec parameters; the index is moved to the front (faststart).
 *
 * <p>The WAV is the master: 48 kHz, read by {@link WavReader} as {@link Mp3Encoder} reads it for
 * the MP3, the other delivered encoding.
 *
 * <p>Thread-safe; native work that pins its thread, so run it on a platform thread.
 */
public final class Muxer {

    static final int RATE = AudioRate.HZ;
    /**
     * FFmpeg's "fast" coder at 256 kb/s rather than its default two-loop search at 192: on a house
     * master (the scoring benchmark's minute) it decodes closer to the master in every band (signal to
     * error 25.3 dB against 22.5; 16-20 kHz 14.0 against 3.4), overshoots the master's true peak less
     * (-1.6 dBTP from a -2.0 master, against -0.8), and costs 0.7 CPU-s instead of 1.9: the encoder is
     * the longest task beside the master's last pass, so a scoring job ends sooner. The file is 0.5
     * MB a minute larger, next to 116 MB of 1080p video.
     */
    static final int AAC_BIT_RATE = 256_000;

    private static final String AAC_CODER = "fast";
    /**
     * Silent encoder frames before the master, at negative timestamps the edit list hides. FFmpeg's
     * AAC encoder (8.0) mangles a loud first frame: a lo-fi master opening on a kick at -5 dBTP
     * decoded at -1.2 dBTP, a burst of error 15 dB under the signal in its first 15 ms; two frames
     * of silence before it give the encoder's analysis a past, and the same master decodes at -4.3.
     */
    static final int PRE_ROLL_FRAMES = 2;

    private static final String FIX = "re-encode the video as H.264 MP4 and upload again";
    // Audio is encoded up to this far ahead of the video packet being copied, so that the
    // interleaver never holds much of either.
    private static final double AUDIO_LEAD_SECONDS = 0.5;

    private Muxer() {}

    /**
     * Writes {@code out} (MP4), replacing any file there; it appears complete or not at all.
     *
     * @throws UnsupportedMedia when {@code video} has no video stream or cannot be read, or
     *         {@code audioWav} is not a WAV file {@link WavReader} reads
     */
    public static void mux(Path video, Path audioWav, Path out) {
        Objects.requireNonNull(audioWav, "audioWav");
        mux(video, () -> WavReader.open(audioWav, "audio", "the muxer"), out);
    }

    /**
     * As {@link #mux(Path, Path, Path)}, with the audio from {@code audio}, opened once per
     * attempt (a second when the index outgrows the space kept for it) and closed after it: a
     * master as it is being made the first time, say, and its file the second.
     */
    public static void mux(Path video, Supplier<StereoSource> audio, Path out) {
        Objects.requireNonNull(video, "video");
        Objects.requireNonNull(audio, "audio");
        Objects.requireNonNull(out, "out");
        try {
            write(video, audio.get(), out, ESTIMATED_INDEX_SPACE);
        } catch (IndexSpaceTooSmall e) {
            write(
                    video,
                    audio.get(),
                    out,
                    FASTSTART); // the estimate was short: write the index at the end and move it up
        }
    }

    /** {@link #write}: keep space for the index as {@link #indexBytes} estimates it. */
    static final long ESTIMATED_INDEX_SPACE = -1;
    /** {@link #write}: no space kept; FFmpeg's faststart moves the index up afterwards. */
    static final long FASTSTART = 0;

    /**
     * One attempt. With space kept ({@code indexSpace} bytes, or {@link #ESTIMATED_INDEX_SPACE}),
     * the index (moov) goes into room left at the front of the file from the start, instead of
     * FFmpeg's faststart, which writes the index at the end and then copies the whole file (the
     * minute's 116 MB) to move it up.
     *
     * @throws IndexSpaceTooSmall when the index did not fit in the space kept; nothing is left behind
     */
    static void write(Path video, Path audioWav, Path out, long indexSpace) {
        write(video, WavReader.open(audioWav, "audio", "the muxer"), out, indexSpace);
    }

    /** {@link #write(Path, Path, Path, long)} from {@code audio}, which it closes. */
    private static void write(Path video, StereoSource audio, Path out, long indexSpace) {
        try (StereoSource source = audio;
                InputFile in = InputFile.open(video, MediaLimits.DEFAULT);
                Output output = Output.create(out, "mp4")) {
            int vIndex = in.firstVideoStream();
            if (vIndex < 0) {
                throw new UnsupportedMedia("file", video.getFileName() + " has no video stream; " + FIX + ".");
            }
            in.readOnly(vIndex);
            AVStream src = in.stream(vIndex);
            AVStream dst = avformat_new_stream(output.context(), null);
            if (dst == null) {
                throw new OutOfMemoryError("FFmpeg could not add a stream");
            }
            check(avcodec_parameters_copy(dst.codecpar(), src.codecpar()), "copy the video parameters");
            int tag = src.codecpar().codec_tag();
            // Keep the source's tag (hvc1 rather than hev1, say) only where MP4 knows it for this codec, as ffmpeg -c
            // copy does.
            if (tag != 0
                    && av_codec_get_id(output.context().oformat().codec_tag(), tag)
                            != src.codecpar().codec_id()) {
                dst.codecpar().codec_tag(0);
            }
            dst.time_base(src.time_base());
            dst.avg_frame_rate(src.avg_frame_rate());
            dst.r_frame_rate(src.r_frame_rate());
            dst.sample_aspect_ratio(src.sample_aspect_ratio());
            dst.disposition(src.disposition());
            try (AacTrack track = AacTrack.open(source, output)) {
                long reserve = indexSpace == ESTIMATED_INDEX_SPACE ? indexBytes(src, track.packets()) : indexSpace;
                output.start(
                        reserve > 0 ? Map.of("moov_size", Long.toString(reserve)) : Map.of("movflags", "+faststart"));
                copy(in, vIndex, src, dst, output, track);
                while (track.pump()) {
                    // the rest of the audio, if it outlasts the picture
                }
                if (reserve > 0) {
                    output.finishInReservedSpace();
                } else {
                    output.finish();
                }
            }
        }
    }

    /**
     * Bytes to keep for the index: about 36 bytes per packet were measured (65 KB for a minute of
     * 1800 pictures and 2813 AAC frames); twice that plus 16 KB, so that a stream with more
     * tables per sample still fits. 0 when the video's picture count is unknown (faststart then).
     */
    static long indexBytes(AVStream video, long audioPackets) {
        long pictures = video.nb_frames();
        if (pictures <= 0
                && video.duration() > 0
                && video.avg_frame_rate().num() > 0
                && video.avg_frame_rate().den() > 0) {
            pictures = (long) Math.ceil(
                    video.duration() * av_q2d(video.time_base()) * Math.min(240, av_q2d(video.avg_frame_rate())));
        }
        if (pictures <= 0) {
            return 0;
        }
        return 16_384 + 32 * pictures + 24 * audioPackets;
    }

    private static void copy(InputFile in, int vIndex, AVStream src, AVStream dst, Output output, AacTrack audio) {
        AVRational inTb = src.time_base();
        long start = in.context().start_time() != AV_NOPTS_VALUE ? in.context().start_time() : 0;
        long offset = av_rescale_q(start, av_make_q(1, AV_TIME_BASE), inTb);
        double secondsPerTick = av_q2d(inTb);
        AVPacket packet = av_packet_alloc();
        try {
            while (av_read_frame(in.context(), packet) >= 0) {
                try {
                    if (packet.stream_index() != vIndex) {
                        continue;
                    }
                    long ts = packet.dts() != AV_NOPTS_VALUE ? packet.dts() : packet.pts();
                    if (ts != AV_NOPTS_VALUE) {
                        double seconds = (ts - offset) * secondsPerTick;
                        while (audio.seconds() < seconds + AUDIO_LEAD_SECONDS && audio.pump()) {
                            // keep the audio just ahead of the picture
                        }
                    }
                    if (packet.pts() != AV_NOPTS_VALUE) {
                        packet.pts(packet.pts() - offset);
                    }
                    if (packet.dts() != AV_NOPTS_VALUE) {
                        packet.dts(packet.dts() - offset);
                    }
                    packet.stream_index(dst.index());
                    packet.pos(-1);
                    av_packet_rescale_ts(packet, inTb, dst.time_base());
                    output.write(packet);
                } finally {
                    av_packet_unref(packet);
                }
            }
        } finally {
            av_packet_free(packet);
        }
    }

    /** An output file written under a hidden temporary name and renamed into place by {@link #finish()}. */
    private static final class Output implements AutoCloseable {
        private final Path target;
        private final Path temp;
        private final AVFormatContext ctx;
        private boolean done;
        private boolean closed;

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
            try (BytePointer url = Ffmpeg.fileUrl(temp);
                    BytePointer name = new BytePointer(format)) {
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

        /** As {@link #finish()} for an index written into space kept at the front; {@link IndexSpaceTooSmall} when it did not fit. */
        void finishInReservedSpace() {
            if (av_write_trailer(ctx) < 0) {
                // Most likely the index did not fit; any other failure recurs in the faststart attempt and is reported
                // there.
                throw new IndexSpaceTooSmall();
            }
            moveIntoPlace();
        }

        void finish() {
            check(av_write_trailer(ctx), "finish " + target.getFileName());
            moveIntoPlace();
        }

        private void moveIntoPlace() {
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

        private static void deleteQuietly(Path p) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a hidden leftover is harmless
            }
        }
    }

    /**
     * The master WAV encoded as AAC-LC into one new stream of an {@link Output}, one encoder frame
     * per {@link #pump()}.
     */
    private static final class AacTrack implements AutoCloseable {
        private final StereoSource in;
        private final AVCodecContext enc;
        private final AVStream stream;
        private final AVFrame frame;
        private final AVPacket encoded;
        private final Output out;
        private final int frameSize;
        private final float[][] block;
        private long samplesSent;
        /** Silent frames still to send before the master, at negative timestamps. */
        private int preRollLeft = PRE_ROLL_FRAMES;

        private boolean finished;

        private AacTrack(StereoSource in, AVCodecContext enc, AVStream stream, Output out) {
            this.in = in;
            this.enc = enc;
            this.stream = stream;
            this.out = out;
            this.frameSize = enc.frame_size() > 0 ? enc.frame_size() : 1024;
            this.block = new float[2][frameSize];
            this.frame = av_frame_alloc();
            this.encoded = av_packet_alloc();
            frame.nb_samples(frameSize);
            frame.format(enc.sample_fmt());
            frame.sample_rate(RATE);
            av_channel_layout_default(frame.ch_layout(), 2);
            check(av_frame_get_buffer(frame, 0), "allocate an audio frame");
        }

        /** How many packets the track will hold: one per encoder frame, plus the encoder's priming frame. */
        long packets() {
            return (in.frames() + frameSize - 1) / frameSize + 1 + PRE_ROLL_FRAMES;
        }

        /** Adds an AAC stream for {@code in} (48 kHz) to {@code out}; closing the track does not close {@code in}. */
        static AacTrack open(StereoSource in, Output out) {
            AVCodecContext enc = null;
            try {
                if (in.rateHz() != RATE) {
                    throw new IllegalArgumentException(
                            "the muxer takes " + RATE + " Hz audio, not " + in.rateHz() + " Hz");
                }
                AVCodec codec = avcodec_find_encoder_by_name("aac");
                if (codec == null) {
                    throw new IllegalStateException("this FFmpeg build has no aac encoder");
                }
                enc = avcodec_alloc_context3(codec);
                enc.sample_fmt(AV_SAMPLE_FMT_FLTP);
                enc.sample_rate(RATE);
                av_channel_layout_default(enc.ch_layout(), 2);
                enc.bit_rate(AAC_BIT_RATE);
                enc.time_base(av_make_q(1, RATE));
                if (out.globalHeader()) {
                    enc.flags(enc.flags() | AV_CODEC_FLAG_GLOBAL_HEADER);
                }
                AVDictionary options = new AVDictionary(null);
                try {
                    // Perceptual noise substitution and intensity stereo are low-bit-rate tools; at
                    // 256 kb/s they buy nothing, and in FFmpeg's encoder (8.0) they throw occasional
                    // spikes up to 7 dB over the master's peaks on drum hits (measured on a rock
                    // master at -1.3 dBTP: decoded +3.1 dBTP with PNS on, -0.8 with both off).
                    av_dict_set(options, "aac_coder", AAC_CODER, 0);
                    av_dict_set(options, "aac_pns", "0", 0);
                    av_dict_set(options, "aac_is", "0", 0);
                    check(avcodec_open2(enc, codec, options), "open the aac encoder");
                } finally {
                    av_dict_free(options);
                }
                AVStream stream = avformat_new_stream(out.context(), null);
                if (stream == null) {
                    throw new OutOfMemoryError("FFmpeg could not add a stream");
                }
                check(avcodec_parameters_from_context(stream.codecpar(), enc), "describe the aac stream");
                stream.time_base(enc.time_base());
                return new AacTrack(in, enc, stream, out);
            } catch (RuntimeException e) {
                if (enc != null) {
                    avcodec_free_context(enc);
                }
                throw e;
            }
        }

        /** Seconds of audio handed to the encoder so far. */
        double seconds() {
            return samplesSent / (double) RATE;
        }

        /** Encodes the next frame of the WAV; false once everything, encoder included, is flushed. */
        boolean pump() {
            if (finished) {
                return false;
            }
            if (preRollLeft > 0) {
                // The block is still all zeros: nothing has been read into it yet.
                sendFrame(frameSize, -(long) preRollLeft * frameSize);
                preRollLeft--;
                return true;
            }
            int n = (int) Math.min(frameSize, in.frames() - samplesSent);
            if (n <= 0) {
                encodeFrame(null);
                finished = true;
                return false;
            }
            in.readStereo(block, n); // the last frame may be short
            sendFrame(n, samplesSent);
            samplesSent += n;
            return true;
        }

        /** The first {@code n} frames of {@link #block} to the encoder, at {@code pts}. */
        private void sendFrame(int n, long pts) {
            check(av_frame_make_writable(frame), "reuse an audio frame");
            frame.nb_samples(n);
            for (int c = 0; c < 2; c++) {
                frame.data(c)
                        .capacity((long) n * Float.BYTES)
                        .asByteBuffer()
                        .order(ByteOrder.nativeOrder())
                        .asFloatBuffer()
                        .put(block[c], 0, n);
            }
            frame.pts(pts);
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
            av_packet_free(encoded);
            av_frame_free(frame);
            avcodec_free_context(enc);
        }
    }

    /** The index outgrew the space kept for it; {@link #mux(Path, Path, Path)} writes the file again with faststart. */
    static final class IndexSpaceTooSmall extends RuntimeException {
        IndexSpaceTooSmall() {
            super("the space kept for the MP4 index was too small", null, false, false);
        }
    }
}
