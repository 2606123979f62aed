package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_DEBUG;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_ERROR;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_FATAL;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_INFO;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_QUIET;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_TRACE;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_VERBOSE;
import static org.bytedeco.ffmpeg.global.avutil.AV_LOG_WARNING;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.bytedeco.ffmpeg.global.avutil;
import org.bytedeco.javacpp.BytePointer;

/** Process-wide FFmpeg settings and the few helpers the probe, the extractor, the muxer and the live encoder share. */
final class Ffmpeg {

    /** AVERROR(EAGAIN) on Linux, the only platform whose natives we ship; Bytedeco has no constant for it. */
    static final int EAGAIN = -11;

    static {
        // FFmpeg writes to stderr with no file name attached, interleaved across concurrent jobs;
        // our exceptions already explain refusals, so it stays quiet unless someone is debugging.
        avutil.av_log_set_level(logLevel(System.getProperty("scorecast.ffmpeg.loglevel", "quiet")));
    }

    private Ffmpeg() {}

    /** Loads the natives and applies the log level; cheap after the first call. */
    static void init() {}

    /**
     * The URL FFmpeg opens for a local path. The explicit {@code file:} scheme stops a name such as
     * {@code http:x} or {@code subfile:...} from being read as another protocol; UTF-8 because
     * FFmpeg treats file names as bytes and Bytedeco would otherwise use the platform charset.
     */
    static BytePointer fileUrl(Path path) {
        return new BytePointer("file:" + path.toAbsolutePath(), StandardCharsets.UTF_8);
    }

    /** Throws when {@code ret} is one of FFmpeg's error codes, saying what could not be done. */
    static void check(int ret, String what) {
        if (ret < 0) {
            throw new IllegalStateException("FFmpeg could not " + what + ": " + error(ret));
        }
    }

    static String error(int code) {
        byte[] buf = new byte[256];
        avutil.av_strerror(code, buf, buf.length);
        int end = 0;
        while (end < buf.length && buf[end] != 0) {
            end++;
        }
        return new String(buf, 0, end, StandardCharsets.UTF_8) + " (" + code + ")";
    }

    static String string(BytePointer p) {
        return p == null || p.isNull() ? null : p.getString(StandardCharsets.UTF_8);
    }

    private static int logLevel(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "fatal" -> AV_LOG_FATAL;
            case "error" -> AV_LOG_ERROR;
            case "warning" -> AV_LOG_WARNING;
            case "info" -> AV_LOG_INFO;
            case "verbose" -> AV_LOG_VERBOSE;
            case "debug" -> AV_LOG_DEBUG;
            case "trace" -> AV_LOG_TRACE;
            default -> AV_LOG_QUIET;
        };
    }
}
