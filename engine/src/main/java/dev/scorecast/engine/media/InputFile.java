package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_ALL;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_find_decoder;
import static org.bytedeco.ffmpeg.global.avformat.AV_DISPOSITION_ATTACHED_PIC;
import static org.bytedeco.ffmpeg.global.avformat.avformat_close_input;
import static org.bytedeco.ffmpeg.global.avformat.avformat_find_stream_info;
import static org.bytedeco.ffmpeg.global.avformat.avformat_open_input;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_AUDIO;
import static org.bytedeco.ffmpeg.global.avutil.AVMEDIA_TYPE_VIDEO;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_free;
import static org.bytedeco.ffmpeg.global.avutil.av_dict_set;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avformat.AVFormatContext;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVDictionary;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * An upload opened by FFmpeg under the rules for untrusted media: only the {@code file} protocol,
 * only {@link Demuxers#ACCEPTED} demuxers, bounded probing, and stream count and picture size
 * checked before any decoder runs. Not thread-safe; each probe or extraction opens its own.
 */
final class InputFile implements AutoCloseable {

    // Enough for any sane file's headers and a few seconds of packets; FFmpeg's defaults are 5 MB / 5 s.
    private static final String PROBE_SIZE = Integer.toString(10 << 20);
    private static final String ANALYZE_MICROS = Long.toString(10_000_000L);

    private final AVFormatContext ctx;

    private InputFile(AVFormatContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Opens {@code file}.
     *
     * @throws UnsupportedMedia when FFmpeg cannot or may not read it
     * @throws Unprocessable    when it has more streams or bigger pictures than {@code limits} allow
     */
    static InputFile open(Path file, MediaLimits limits) {
        Ffmpeg.init();
        AVFormatContext ctx = new AVFormatContext(null);
        AVDictionary options = new AVDictionary(null);
        int ret;
        try (BytePointer url = Ffmpeg.fileUrl(file)) {
            av_dict_set(options, "protocol_whitelist", "file", 0);
            av_dict_set(options, "format_whitelist", Demuxers.ACCEPTED, 0);
            // Also for the decoders avformat_find_stream_info opens to probe the streams.
            av_dict_set(options, "codec_whitelist", Decoders.NAMES, 0);
            av_dict_set(options, "probesize", PROBE_SIZE, 0);
            av_dict_set(options, "analyzeduration", ANALYZE_MICROS, 0);
            // mov's external data references would open other files; off by default, kept off on purpose.
            av_dict_set(options, "enable_drefs", "0", 0);
            ret = avformat_open_input(ctx, url, null, options);
        } finally {
            av_dict_free(options);
        }
        if (ret < 0) {
            // FFmpeg has already freed the context and nulled our pointer.
            throw Demuxers.refusal(file, ret);
        }
        InputFile in = new InputFile(ctx);
        try {
            in.checkLimits(limits);
            in.findStreamInfo(limits);
            in.checkLimits(limits); // some containers (mpegts) only announce streams while being read
            return in;
        } catch (RuntimeException e) {
            in.close();
            throw e;
        }
    }

    AVFormatContext context() {
        return ctx;
    }

    AVStream stream(int index) {
        return ctx.streams(index);
    }

    /** Has the demuxer drop the packets of every stream but {@code streamIndex}, so that reading skips them cheaply. */
    void readOnly(int streamIndex) {
        for (int i = 0; i < ctx.nb_streams(); i++) {
            if (i != streamIndex) {
                ctx.streams(i).discard(AVDISCARD_ALL);
            }
        }
    }

    /** The first video stream that is not a cover picture, or -1. */
    int firstVideoStream() {
        for (int i = 0; i < ctx.nb_streams(); i++) {
            AVStream st = ctx.streams(i);
            if (st.codecpar().codec_type() == AVMEDIA_TYPE_VIDEO
                    && (st.disposition() & AV_DISPOSITION_ATTACHED_PIC) == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The first audio stream FFmpeg can decode, or -1; the probe and the extractor must agree on it. */
    int firstAudioStream() {
        for (int i = 0; i < ctx.nb_streams(); i++) {
            AVCodecParameters par = ctx.streams(i).codecpar();
            if (par.codec_type() == AVMEDIA_TYPE_AUDIO
                    && Decoders.allowed(par.codec_id())
                    && avcodec_find_decoder(par.codec_id()) != null) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        if (!ctx.isNull()) {
            avformat_close_input(ctx);
        }
    }

    private void checkLimits(MediaLimits limits) {
        int streams = ctx.nb_streams();
        if (streams > limits.maxStreams()) {
            throw new Unprocessable(
                    "file",
                    "The file has " + streams + " streams, more than the limit of " + limits.maxStreams()
                            + "; keep only its video and audio streams and upload again.");
        }
        for (int i = 0; i < streams; i++) {
            AVCodecParameters par = ctx.streams(i).codecpar();
            if (par.codec_type() == AVMEDIA_TYPE_VIDEO) {
                checkPictureSize(par.width(), par.height(), limits);
            }
        }
    }

    static void checkPictureSize(int width, int height, MediaLimits limits) {
        if (width > limits.maxWidth() || height > limits.maxHeight()) {
            throw new Unprocessable(
                    "file",
                    "The video is " + width + "x" + height + " pixels, larger than the limit of " + limits.maxWidth()
                            + "x" + limits.maxHeight() + "; scale it down and upload again.");
        }
    }

    /**
     * Runs FFmpeg's stream analysis, which decodes a few frames of every stream; each stream's
     * decoder gets the picture-area cap so that a header lying about its size cannot make it
     * allocate gigabytes.
     */
    private void findStreamInfo(MediaLimits limits) {
        int n = ctx.nb_streams();
        int ret;
        try (PointerPointer<AVDictionary> perStream = new PointerPointer<>(Math.max(n, 1))) {
            for (int i = 0; i < n; i++) {
                AVDictionary d = new AVDictionary(null);
                av_dict_set(d, "max_pixels", Long.toString(limits.maxPixels()), 0);
                perStream.put(i, d);
            }
            try {
                ret = avformat_find_stream_info(ctx, n == 0 ? null : perStream);
            } finally {
                for (int i = 0; i < n; i++) {
                    av_dict_free(new AVDictionary(perStream.get(i)));
                }
            }
        }
        if (ret < 0) {
            throw new UnsupportedMedia(
                    "file",
                    "The file's streams cannot be read (" + Ffmpeg.error(ret)
                            + "), so it is probably truncated or damaged; upload it again or re-encode it as MP4.");
        }
    }
}
