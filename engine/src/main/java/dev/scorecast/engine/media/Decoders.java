package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.*;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.util.Set;
import java.util.TreeSet;
import org.bytedeco.ffmpeg.avcodec.AVCodec;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;

/**
 * Which FFmpeg decoders may touch an upload: the codecs of the containers {@link Demuxers} accepts
 * that people actually send, and no others. FFmpeg carries hundreds of decoders, most rarely used
 * and rarely audited; a file is a few bytes away from reaching any of them (a Matroska or QuickTime
 * file may carry any codec). The list is enforced twice: by codec id before a decoder is opened
 * ({@link StreamDecoder}), and as FFmpeg's own {@code codec_whitelist} on the input, which also holds
 * for the decoders {@code avformat_find_stream_info} opens to probe the streams ({@link InputFile}).
 */
final class Decoders {
    private static final Set<Integer> VIDEO = Set.of(
            AV_CODEC_ID_H264,
            AV_CODEC_ID_HEVC,
            AV_CODEC_ID_VP8,
            AV_CODEC_ID_VP9,
            AV_CODEC_ID_AV1,
            AV_CODEC_ID_MPEG4,
            AV_CODEC_ID_MPEG2VIDEO,
            AV_CODEC_ID_MPEG1VIDEO,
            AV_CODEC_ID_H263,
            AV_CODEC_ID_PRORES,
            AV_CODEC_ID_DNXHD,
            AV_CODEC_ID_THEORA,
            AV_CODEC_ID_VC1,
            AV_CODEC_ID_WMV3,
            AV_CODEC_ID_DVVIDEO,
            AV_CODEC_ID_FLV1,
            // Pictures: cover art, and the still pictures the probe recognises to refuse them by name.
            AV_CODEC_ID_MJPEG,
            AV_CODEC_ID_PNG);
    private static final Set<Integer> AUDIO = Set.of(
            AV_CODEC_ID_AAC,
            AV_CODEC_ID_MP3,
            AV_CODEC_ID_MP2,
            AV_CODEC_ID_OPUS,
            AV_CODEC_ID_VORBIS,
            AV_CODEC_ID_FLAC,
            AV_CODEC_ID_ALAC,
            AV_CODEC_ID_AC3,
            AV_CODEC_ID_EAC3,
            AV_CODEC_ID_DTS,
            AV_CODEC_ID_WMAV2,
            AV_CODEC_ID_PCM_S16LE,
            AV_CODEC_ID_PCM_S16BE,
            AV_CODEC_ID_PCM_S24LE,
            AV_CODEC_ID_PCM_S24BE,
            AV_CODEC_ID_PCM_S32LE,
            AV_CODEC_ID_PCM_S32BE,
            AV_CODEC_ID_PCM_F32LE,
            AV_CODEC_ID_PCM_F64LE,
            AV_CODEC_ID_PCM_U8);

    /** The decoders of the accepted codecs, by name, as FFmpeg's {@code codec_whitelist} wants them. */
    static final String NAMES;

    static {
        Ffmpeg.init();
        Set<String> names = new TreeSet<>();
        try (PointerPointer<Pointer> opaque = new PointerPointer<>(1)) {
            opaque.put(0, (Pointer) null);
            for (AVCodec codec = av_codec_iterate(opaque); codec != null; codec = av_codec_iterate(opaque)) {
                if (av_codec_is_decoder(codec) != 0 && allowed(codec.id())) {
                    names.add(Ffmpeg.string(codec.name()));
                }
            }
        }
        NAMES = String.join(",", names);
    }

    private Decoders() {}

    static boolean allowed(int codecId) {
        return VIDEO.contains(codecId) || AUDIO.contains(codecId);
    }

    /** The accepted codecs of one kind, by FFmpeg's names, for a refusal. */
    static String accepted(boolean video) {
        Set<String> names = new TreeSet<>();
        (video ? VIDEO : AUDIO).forEach(id -> names.add(StreamDecoder.codecName(id)));
        return String.join(", ", names);
    }

    /** 415 for a stream whose codec is not on the list. */
    static UnsupportedMedia refusal(String what, int codecId, String fix) {
        return new UnsupportedMedia(
                "file",
                "The " + what + " is coded as " + StreamDecoder.codecName(codecId)
                        + ", which this service does not decode (it decodes " + accepted(what.startsWith("video"))
                        + "); " + fix + ".");
    }
}
