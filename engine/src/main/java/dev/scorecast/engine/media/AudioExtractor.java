package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.AV_TIME_BASE;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.error.UnsupportedMedia;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avformat.AVStream;

/**
 * Writes a video's sound to a 48 kHz 16-bit stereo WAV file, streaming: memory stays constant
 * whatever the length. Takes the first audio stream FFmpeg can decode (the one
 * {@link VideoProbe} reports). A corrupt packet is replaced by silence of its length, so the
 * track stays in step with the picture, and counted in {@link AudioTrack#skippedPackets()}.
 *
 * <p>Thread-safe. A call is seconds of native decoding for a long video and pins its thread's
 * carrier meanwhile, so run it on a platform thread or a small executor, not on a virtual thread.
 */
public final class AudioExtractor {

    // A packet's stated duration is untrusted; real audio packets last tens of milliseconds.
    private static final double MAX_SILENCE_PER_PACKET = 1.0;
    /**
     * Audio past the container's stated duration by more than this is not written. Without a stop a
     * small file of tiny packets (or one whose timestamps never end) decodes to gigabytes of WAV;
     * music is only ever laid under the picture, so sound past its end would be dropped anyway.
     */
    static final double SLACK_SECONDS = 2.0;

    private static final String FIX = "re-encode the video's audio as AAC and upload again";

    private AudioExtractor() {}

    /** {@link #extractWav(Path, Path, MediaLimits)} with {@link MediaLimits#DEFAULT}. */
    public static Optional<AudioTrack> extractWav(Path video, Path wavOut) {
        return extractWav(video, wavOut, MediaLimits.DEFAULT);
    }

    /**
     * Extracts the audio of {@code video} into {@code wavOut}, replacing any file there. The file
     * appears under that name complete or not at all.
     *
     * @param limits the same limits the upload was probed with; they guard the opening of the file
     * @return the track, or empty when the video has no audio stream (or one without a single packet)
     * @throws UnsupportedMedia when the file cannot be opened or no audio packet decodes
     * @throws Unprocessable    when the file breaks {@code limits}
     */
    public static Optional<AudioTrack> extractWav(Path video, Path wavOut, MediaLimits limits) {
        return extractWav(video, wavOut, limits, WavEncoding.PCM16);
    }

    /**
     * As {@link #extractWav(Path, Path, MediaLimits)}, into a WAV in {@code encoding}: 32-bit float
     * keeps what the decoder gives above full scale, for measuring a lossy encode's true peak.
     */
    public static Optional<AudioTrack> extractWav(Path video, Path wavOut, MediaLimits limits, WavEncoding encoding) {
        Objects.requireNonNull(encoding, "encoding");
        Objects.requireNonNull(video, "video");
        Objects.requireNonNull(wavOut, "wavOut");
        Objects.requireNonNull(limits, "limits");
        try (InputFile in = InputFile.open(video, limits)) {
            int audioIndex = in.firstAudioStream();
            if (audioIndex < 0) {
                return Optional.empty();
            }
            // Lets the demuxer skip video data instead of reading it from disk only to drop it.
            in.readOnly(audioIndex);
            AVStream stream = in.stream(audioIndex);
            long maxFrames = Math.round(maxSeconds(in, limits) * StereoResampler.RATE);
            try (StreamDecoder decoder = StreamDecoder.open(stream, Map.of(), "audio", FIX);
                    WavWriter wav = WavWriter.create(wavOut, encoding, StereoResampler.RATE, StereoResampler.CHANNELS);
                    StereoResampler resampler = new StereoResampler(wav::write, encoding)) {
                Pass pass = new Pass(decoder, resampler, wav, av_q2d(stream.time_base()), maxFrames);
                try {
                    pass.run(in, audioIndex);
                } catch (WavWriter.TooLong e) {
                    throw new Unprocessable(
                            "file",
                            "The video's audio is longer than a WAV file can hold (about 6 hours); "
                                    + "trim the video and upload again.");
                }
                if (pass.packets == 0) {
                    return Optional.empty();
                }
                if (pass.decodedFrames == 0) {
                    throw new UnsupportedMedia(
                            "file",
                            "The video's audio stream ("
                                    + StreamDecoder.codecName(stream.codecpar().codec_id())
                                    + ") cannot be decoded, so it is probably damaged; " + FIX + ".");
                }
                wav.commit();
                long frames = wav.frames();
                return Optional.of(new AudioTrack(
                        wavOut,
                        StereoResampler.RATE,
                        StereoResampler.CHANNELS,
                        frames,
                        frames / (double) StereoResampler.RATE,
                        pass.skipped));
            }
        }
    }

    /** The container's stated duration plus the slack, never past the upload limit. */
    static double maxSeconds(InputFile in, MediaLimits limits) {
        double cap = limits.maxDuration().toMillis() / 1000.0;
        long stated = in.context().duration();
        if (stated != AV_NOPTS_VALUE && stated > 0) {
            return Math.min(cap, stated / (double) AV_TIME_BASE + SLACK_SECONDS);
        }
        return cap;
    }

    /** One read-decode-resample pass and its counters. */
    private static final class Pass {
        private final StreamDecoder decoder;
        private final StereoResampler resampler;
        private final WavWriter wav;
        private final double secondsPerTick;
        private final long maxFrames;
        int packets;
        int skipped;
        long decodedFrames;
        private int lastFrameSamples;

        Pass(StreamDecoder decoder, StereoResampler resampler, WavWriter wav, double secondsPerTick, long maxFrames) {
            this.decoder = decoder;
            this.resampler = resampler;
            this.wav = wav;
            this.secondsPerTick = secondsPerTick;
            this.maxFrames = maxFrames;
        }

        /** Whether the output reached the cap; what the resampler still holds is less than a packet. */
        private boolean full() {
            return wav.frames() >= maxFrames;
        }

        void run(InputFile in, int audioIndex) {
            AVPacket packet = av_packet_alloc();
            try {
                // Any read error ends the pass, as in the ffmpeg CLI: a damaged tail keeps what came before.
                while (!full() && av_read_frame(in.context(), packet) >= 0) {
                    try {
                        if (packet.stream_index() == audioIndex) {
                            packets++;
                            decode(packet);
                        }
                    } finally {
                        av_packet_unref(packet);
                    }
                }
                if (!full() && decoder.send(null) >= 0) {
                    receiveAll();
                }
                resampler.flush();
            } finally {
                av_packet_free(packet);
            }
        }

        private void decode(AVPacket packet) {
            int ret = decoder.send(packet);
            if (ret == Ffmpeg.EAGAIN) {
                receiveAll();
                ret = decoder.send(packet);
            }
            if (ret < 0) {
                skip(packet.duration() * secondsPerTick);
            }
            receiveAll();
        }

        private void receiveAll() {
            while (!full()) {
                int ret = decoder.receive();
                if (ret == Ffmpeg.EAGAIN || ret == AVERROR_EOF) {
                    return;
                }
                if (ret < 0) {
                    skip(0); // the packet's length is unknown here; the last frame's stands in
                    return;
                }
                decodedFrames++;
                lastFrameSamples = decoder.frame().nb_samples();
                resampler.convert(decoder.frame());
            }
        }

        private void skip(double packetSeconds) {
            skipped++;
            double seconds = packetSeconds > 0
                    ? packetSeconds
                    : resampler.started() ? lastFrameSamples / (double) resampler.inputRate() : 0;
            seconds = Math.min(seconds, MAX_SILENCE_PER_PACKET);
            if (resampler.started()) {
                // Into the resampler, so the silence lands after the samples it still holds.
                resampler.injectSilence((int) Math.round(seconds * resampler.inputRate()));
            } else {
                wav.writeSilence(Math.round(seconds * StereoResampler.RATE));
            }
        }
    }
}
