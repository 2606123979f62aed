package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_clone;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.AVSEEK_FLAG_BACKWARD;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avformat.av_seek_frame;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import org.bytedeco.ffmpeg.avcodec.AVPacket;

/**
 * The packets of one video stream of an open file, in file order, each handed out as a packet of
 * its own (the caller frees it), and seeking to a keyframe so that it is exactly the next packet.
 * Any read error counts as the end, as in the ffmpeg CLI: a damaged tail keeps what came before.
 * Not thread-safe; the file stays the caller's to close.
 */
final class VideoPackets implements AutoCloseable {
    private final InputFile in;
    private final int videoIndex;
    private final AVPacket packet;
    private boolean ended;

    VideoPackets(InputFile in, int videoIndex) {
        this.in = in;
        this.videoIndex = videoIndex;
        this.packet = av_packet_alloc();
        if (packet == null) {
            throw new OutOfMemoryError("FFmpeg could not allocate a packet");
        }
    }

    /** The next packet of the video stream, or null at the end of the file. */
    AVPacket next() {
        while (!ended) {
            if (av_read_frame(in.context(), packet) < 0) {
                ended = true;
                return null;
            }
            try {
                if (packet.stream_index() == videoIndex) {
                    AVPacket own = av_packet_clone(packet);
                    if (own == null) {
                        throw new OutOfMemoryError("FFmpeg could not copy a packet");
                    }
                    return own;
                }
            } finally {
                av_packet_unref(packet);
            }
        }
        return null;
    }

    /** Whether the end of the file was read (or a read error ended it); a seek starts reading again. */
    boolean ended() {
        return ended;
    }

    /**
     * Seeks so that the keyframe at {@code startPts} (decoding time {@code startDts}, or
     * {@code AV_NOPTS_VALUE}) is read next, and returns that packet, or null when the file cannot
     * seek there. The packets read on the way to it are dropped. By the keyframe's presentation
     * time first: mp4's index is searched by times that include the composition offset, so its
     * decoding time would land a whole GOP early. A transport stream has no index and is searched
     * by decoding times, so that lands on the packets after the keyframe (a B picture's decoding
     * time is below the keyframe's presentation time); it is then sought again by the keyframe's
     * decoding time.
     */
    AVPacket seekToKeyframe(long startPts, long startDts) {
        long[] targets = startDts == AV_NOPTS_VALUE || startDts == startPts
                ? new long[] {startPts}
                : new long[] {startPts, startDts};
        for (long target : targets) {
            if (av_seek_frame(in.context(), videoIndex, target, AVSEEK_FLAG_BACKWARD) < 0) {
                continue;
            }
            ended = false;
            for (AVPacket next; (next = next()) != null; ) {
                if (next.pts() == startPts) {
                    return next;
                }
                boolean past = next.dts() != AV_NOPTS_VALUE && startDts != AV_NOPTS_VALUE
                        ? next.dts() > startDts
                        : next.pts() > startPts;
                av_packet_free(next);
                if (past) {
                    break;
                }
            }
        }
        return null;
    }

    /** Seeks to the keyframe at or before {@code pts} as the container finds it, unchecked; false when it cannot. */
    boolean seekBefore(long pts) {
        if (av_seek_frame(in.context(), videoIndex, pts, AVSEEK_FLAG_BACKWARD) < 0) {
            return false;
        }
        ended = false;
        return true;
    }

    @Override
    public void close() {
        av_packet_free(packet);
    }
}
