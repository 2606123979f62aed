package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AVDISCARD_ALL;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_rescale_ts;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avcodec.avcodec_parameters_copy;
import static org.bytedeco.ffmpeg.global.avformat.av_codec_get_id;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avformat.avformat_new_stream;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_make_q;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;
import static org.bytedeco.ffmpeg.global.avutil.av_rescale_q;

import dev.scorecast.engine.error.UnsupportedMedia;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;
import org.bytedeco.ffmpeg.avutil.AVRational;

/**
 * Puts new audio under a video: the output MP4 holds the input's first video stream copied packet
 * for packet (bit for bit; timestamps only shifted so the file starts at 0, as the analysis clock
 * does, and rescaled), and one AAC-LC 48 kHz stereo track at 192 kb/s encoded from a WAV. The
 * input's own audio, subtitles and data streams are not copied. Rotation and other stream side
 * data travel with the copied codec parameters; the index is moved to the front (faststart).
 *
 * <p>Thread-safe; native work that pins its thread, so run it on a platform thread.
 */
public final class Muxer {

    private static final String FIX = "re-encode the video as H.264 MP4 and upload again";
    // Audio is encoded up to this far ahead of the video packet being copied, so that the
    // interleaver never holds much of either.
    private static final double AUDIO_LEAD_SECONDS = 0.5;

    private Muxer() {}

    /**
     * Writes {@code out} (MP4), replacing any file there; it appears complete or not at all.
     *
     * @throws UnsupportedMedia when {@code video} has no video stream or cannot be read
     */
    public static void mux(Path video, Path audioWav, Path out) {
        Objects.requireNonNull(video, "video");
        Objects.requireNonNull(audioWav, "audioWav");
        Objects.requireNonNull(out, "out");
        try (InputFile in = InputFile.open(video, MediaLimits.DEFAULT);
                AudioEncoder.Output output = AudioEncoder.Output.create(out, "mp4")) {
            int vIndex = in.firstVideoStream();
            if (vIndex < 0) {
                throw new UnsupportedMedia("file", video.getFileName() + " has no video stream; " + FIX + ".");
            }
            for (int i = 0; i < in.context().nb_streams(); i++) {
                if (i != vIndex) {
                    in.stream(i).discard(AVDISCARD_ALL);
                }
            }
            AVStream src = in.stream(vIndex);
            AVStream dst = avformat_new_stream(output.context(), null);
            if (dst == null) {
                throw new OutOfMemoryError("FFmpeg could not add a stream");
            }
            AudioEncoder.check(avcodec_parameters_copy(dst.codecpar(), src.codecpar()), "copy the video parameters");
            int tag = src.codecpar().codec_tag();
            // Keep the source's tag (hvc1 rather than hev1, say) only where MP4 knows it for this codec, as ffmpeg -c copy does.
            if (tag != 0 && av_codec_get_id(output.context().oformat().codec_tag(), tag) != src.codecpar().codec_id()) {
                dst.codecpar().codec_tag(0);
            }
            dst.time_base(src.time_base());
            dst.avg_frame_rate(src.avg_frame_rate());
            dst.r_frame_rate(src.r_frame_rate());
            dst.sample_aspect_ratio(src.sample_aspect_ratio());
            dst.disposition(src.disposition());
            try (AudioEncoder.Track audio = AudioEncoder.Track.open(audioWav, output, "aac", AudioEncoder.AAC_BIT_RATE)) {
                output.start(Map.of("movflags", "+faststart"));
                copy(in, vIndex, src, dst, output, audio);
                while (audio.pump()) {
                    // the rest of the audio, if it outlasts the picture
                }
                output.finish();
            }
        }
    }

    private static void copy(InputFile in, int vIndex, AVStream src, AVStream dst, AudioEncoder.Output output,
                             AudioEncoder.Track audio) {
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
}
