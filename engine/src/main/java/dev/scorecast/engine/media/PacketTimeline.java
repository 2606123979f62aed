package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AV_CODEC_ID_H264;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_DISCARD;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;
import static org.bytedeco.ffmpeg.global.avutil.av_q2d;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;
import org.bytedeco.ffmpeg.avcodec.AVCodecParameters;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.javacpp.BytePointer;

/**
 * The video stream's packets as the demuxer lists them, read without decoding: every picture's
 * presentation timestamp, and the keyframes a decoder can start from. Reading it costs a pass over
 * the file's packets (tens of milliseconds for a minute of 1080p from the page cache), and tells
 * {@link SegmentedFrameSource} where the video can be cut into pieces that decode independently
 * and how many pictures lie before each.
 */
final class PacketTimeline {

    /** One independently decodable piece: from a keyframe up to, not including, the next piece's first picture. */
    record Segment(long startPts, long startDts, long stopPts, long firstIndex) {}

    private final long[] sortedPts;
    /** In presentation order. */
    private final List<Keyframe> keyframes;

    private final boolean parametersChange;

    /** A keyframe's times: the presentation time names it, the decoding time finds it in a stream without an index. */
    private record Keyframe(long pts, long dts) {}

    private PacketTimeline(long[] sortedPts, List<Keyframe> keyframes, boolean parametersChange) {
        this.sortedPts = sortedPts;
        this.keyframes = keyframes;
        this.parametersChange = parametersChange;
    }

    /**
     * Reads the timeline of {@code video}'s first video stream, or null when it cannot guide a
     * segmented decode: a packet without timestamps, more than {@code maxPackets} packets, or no
     * keyframe at all.
     */
    static PacketTimeline read(Path video, MediaLimits limits, int maxPackets) {
        try (InputFile in = InputFile.open(video, limits)) {
            int videoIndex = in.firstVideoStream();
            if (videoIndex < 0) {
                return null;
            }
            in.readOnly(videoIndex);
            double maxTicks = (limits.maxDuration().toMillis() / 1000.0 + 1)
                    / av_q2d(in.stream(videoIndex).time_base());
            AVPacket packet = av_packet_alloc();
            if (packet == null) {
                throw new OutOfMemoryError("FFmpeg could not allocate a packet");
            }
            AVCodecParameters par = in.stream(videoIndex).codecpar();
            ParameterSets sets = par.codec_id() == AV_CODEC_ID_H264
                    ? new ParameterSets(bytes(par.extradata(), par.extradata_size()))
                    : null;
            byte[] head = new byte[ParameterSets.HEAD_BYTES];
            LongStream.Builder pts = LongStream.builder();
            List<Keyframe> keys = new ArrayList<>();
            int packets = 0;
            try {
                while (av_read_frame(in.context(), packet) >= 0) {
                    try {
                        if (packet.stream_index() != videoIndex) {
                            continue;
                        }
                        // Matroska leaves the decoding time of the first packets unset; only the seek
                        // of an index-less stream needs it, and it takes the presentation time alone.
                        if (packet.pts() == AV_NOPTS_VALUE || packets >= maxPackets) {
                            return null;
                        }
                        if (packet.pts() > maxTicks) {
                            break; // past the duration limit: the sources end there
                        }
                        if ((packet.flags() & AV_PKT_FLAG_DISCARD) != 0) {
                            continue; // an edit list cuts it: the decoder gives no picture for it, so it is not counted
                        }
                        pts.add(packet.pts());
                        packets++;
                        if ((packet.flags() & AV_PKT_FLAG_KEY) != 0) {
                            keys.add(new Keyframe(packet.pts(), packet.dts()));
                            if (sets != null && packet.size() > 0) {
                                int n = Math.min(head.length, packet.size());
                                packet.data().get(head, 0, n);
                                sets.keyframe(head, n);
                            }
                        }
                    } finally {
                        av_packet_unref(packet);
                    }
                }
            } finally {
                av_packet_free(packet);
            }
            if (keys.isEmpty()) {
                return null;
            }
            long[] sorted = pts.build().toArray();
            Arrays.sort(sorted);
            keys.sort(Comparator.comparingLong(Keyframe::pts));
            return new PacketTimeline(sorted, List.copyOf(keys), sets != null && sets.changed());
        }
    }

    private static byte[] bytes(BytePointer data, int size) {
        byte[] out = new byte[Math.max(0, size)];
        if (data != null && !data.isNull() && size > 0) {
            data.get(out, 0, size);
        }
        return out;
    }

    /**
     * Whether a keyframe carried other H.264 parameter sets than the first: pieces of
     * different encodes joined without re-encoding (see {@link ParameterSets}).
     */
    boolean parametersChange() {
        return parametersChange;
    }

    /** How many pictures the stream holds. */
    int pictures() {
        return sortedPts.length;
    }

    /** How many pictures are presented before {@code pts}. */
    long picturesBefore(long pts) {
        int at = Arrays.binarySearch(sortedPts, pts);
        if (at < 0) {
            return -at - 1;
        }
        while (at > 0 && sortedPts[at - 1] == pts) {
            at--;
        }
        return at;
    }

    /**
     * The video cut at keyframes into segments of at least {@code minPictures} pictures each (the
     * last may be shorter; the first starts at the stream's start, whatever its first packet is).
     */
    List<Segment> segments(int minPictures) {
        List<Keyframe> starts = new ArrayList<>();
        long lastStartIndex = 0;
        for (Keyframe key : keyframes) {
            long index = picturesBefore(key.pts());
            if (index - lastStartIndex >= minPictures) {
                starts.add(key);
                lastStartIndex = index;
            }
        }
        List<Segment> segments = new ArrayList<>();
        // The first segment starts at the file's start, whatever its first packet is.
        segments.add(new Segment(
                AV_NOPTS_VALUE,
                AV_NOPTS_VALUE,
                starts.isEmpty() ? AV_NOPTS_VALUE : starts.getFirst().pts(),
                0));
        for (int i = 0; i < starts.size(); i++) {
            Keyframe start = starts.get(i);
            long stop = i + 1 < starts.size() ? starts.get(i + 1).pts() : AV_NOPTS_VALUE;
            segments.add(new Segment(start.pts(), start.dts(), stop, picturesBefore(start.pts())));
        }
        return List.copyOf(segments);
    }
}
