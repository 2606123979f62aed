package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avformat.AVPROBE_PADDING_SIZE;
import static org.bytedeco.ffmpeg.global.avformat.AVPROBE_SCORE_RETRY;
import static org.bytedeco.ffmpeg.global.avformat.av_probe_input_format3;

import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.error.UnsupportedMedia;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import org.bytedeco.ffmpeg.avformat.AVInputFormat;
import org.bytedeco.ffmpeg.avformat.AVProbeData;
import org.bytedeco.javacpp.BytePointer;

/**
 * Which FFmpeg demuxers may touch an upload, and how to explain the ones that may not.
 *
 * <p>Safety comes from an allow-list handed to FFmpeg as {@code format_whitelist}: FFmpeg probes
 * the bytes, and if the winner is not listed it stops before the demuxer reads its header. That
 * matters because several demuxers open other files named inside the upload (hls, dash, concat,
 * imf, image2 sequences) and their header reading is exactly where they do it; a deny-list checked
 * after opening would be too late, and one checked before would miss demuxers added in later
 * FFmpeg releases. The deny-lists below only choose the wording of the refusal.
 */
final class Demuxers {

    /*
     * Demuxers allowed on uploads: the common video containers, plus plain audio formats so that an
     * audio file is refused as "no video stream" rather than as an unknown format. None of them
     * follows references to other files (mov's external data references stay off, see
     * InputFile).
     */
    private static final Set<String> ACCEPTED_NAMES = Set.of(
            "mov",
            "mp4", // the "mov,mp4,m4a,3gp,3g2,mj2" demuxer; any of its names matches
            "matroska",
            "webm",
            "avi",
            "flv",
            "mpegts",
            "mpeg",
            "ogg",
            "asf",
            "mxf",
            "ivf",
            "dv",
            "wav",
            "mp3",
            "flac",
            "aac");

    /** {@link #ACCEPTED_NAMES} as FFmpeg's {@code format_whitelist} wants it. */
    static final String ACCEPTED = String.join(",", ACCEPTED_NAMES);

    /** Demuxers that read other files or URLs named inside the file. */
    private static final Set<String> PLAYLISTS =
            Set.of("hls", "dash", "webm_dash_manifest", "concat", "imf", "ffmetadata", "sdp", "rtp", "rtsp");

    /** Demuxers of still (or animated) pictures; every "*_pipe" demuxer is one too. */
    private static final Set<String> IMAGES = Set.of(
            "image2",
            "image2pipe",
            "gif",
            "apng",
            "ico",
            "alias_pix",
            "brender_pix",
            "jpegxl_anim",
            "mpjpeg",
            "smjpeg",
            "fits");

    // The most FFmpeg itself reads to guess a format (PROBE_BUF_MAX).
    private static final int PROBE_BYTES = 1 << 20;

    private Demuxers() {}

    /** A friendly container name for a file FFmpeg opened with {@code demuxer}. */
    static String friendlyName(String demuxer, String majorBrand, Path file) {
        if (demuxer.startsWith("mov,")) {
            String brand = majorBrand == null ? "" : majorBrand.trim();
            if (brand.isEmpty() || brand.equals("qt")) {
                return "mov"; // QuickTime files before ftyp existed, or that say so
            }
            if (brand.startsWith("3g")) {
                return "3gp";
            }
            return brand.equals("M4A") ? "m4a" : "mp4";
        }
        if (demuxer.startsWith("matroska")) {
            return ebmlDocType(file).equals("webm") ? "webm" : "matroska";
        }
        int comma = demuxer.indexOf(',');
        return comma < 0 ? demuxer : demuxer.substring(0, comma);
    }

    /**
     * Why FFmpeg would not open {@code file} (error {@code code}), as the exception to throw. Runs
     * FFmpeg's format guess on the first megabyte in memory, which touches no other file.
     */
    static ScorecastException refusal(Path file, int code) {
        AVInputFormat guess = guess(file);
        String name = guess == null ? null : Ffmpeg.string(guess.name());
        if (name == null) {
            return new UnsupportedMedia(
                    "file", "The file is not a video we can read; upload an MP4, MOV, WebM or MKV video.");
        }
        String what = describe(guess, name);
        if (IMAGES.contains(name) || name.endsWith("_pipe")) {
            return new UnsupportedMedia(
                    "file",
                    "The file is an image (" + what + "), not a video; upload a video such as MP4, MOV, WebM or MKV.");
        }
        if (PLAYLISTS.contains(name)) {
            return new UnsupportedMedia(
                    "file",
                    "The file is a playlist or list of other files (" + what
                            + "); upload the video file itself, such as MP4, MOV, WebM or MKV.");
        }
        if (isAccepted(name)) {
            return new UnsupportedMedia(
                    "file",
                    "The file looks like " + what + " but cannot be opened (" + Ffmpeg.error(code)
                            + "), so it is probably truncated or damaged; upload it again or re-encode it as MP4.");
        }
        return new UnsupportedMedia(
                "file",
                "The file's format (" + what
                        + ") is not accepted; convert it to MP4, MOV, WebM or MKV and upload again.");
    }

    private static boolean isAccepted(String demuxer) {
        return Arrays.stream(demuxer.split(",")).anyMatch(ACCEPTED_NAMES::contains);
    }

    private static String describe(AVInputFormat format, String name) {
        String longName = Ffmpeg.string(format.long_name());
        return longName == null ? name : longName;
    }

    private static AVInputFormat guess(Path file) {
        byte[] head = readHead(file, PROBE_BYTES);
        // FFmpeg's probes may read a little past the end; the padding must be zeros.
        byte[] padded = Arrays.copyOf(head, head.length + AVPROBE_PADDING_SIZE);
        try (BytePointer buf = new BytePointer(padded);
                BytePointer name = new BytePointer(file.getFileName().toString(), StandardCharsets.UTF_8);
                AVProbeData probe = new AVProbeData()) {
            probe.filename(name).buf(buf).buf_size(head.length).mime_type(null);
            int[] score = {0};
            AVInputFormat format = av_probe_input_format3(probe, 1, score);
            // Below FFmpeg's retry score the guess is noise (random bytes score 1 as mp3).
            return score[0] > AVPROBE_SCORE_RETRY ? format : null;
        }
    }

    /** The EBML DocType ("webm" or "matroska"), which FFmpeg reads but does not report. */
    private static String ebmlDocType(Path file) {
        byte[] head = readHead(file, 64);
        for (int i = 0; i + 2 < head.length; i++) {
            if ((head[i] & 0xff) == 0x42 && (head[i + 1] & 0xff) == 0x82) {
                int sizeByte = head[i + 2] & 0xff; // a one-byte EBML size has its top bit set
                int size = sizeByte & 0x7f;
                int start = i + 3;
                if (sizeByte >= 0x80 && size > 0 && start + size <= head.length) {
                    return new String(head, start, size, StandardCharsets.US_ASCII).trim();
                }
            }
        }
        return "matroska";
    }

    private static byte[] readHead(Path file, int max) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(max);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
