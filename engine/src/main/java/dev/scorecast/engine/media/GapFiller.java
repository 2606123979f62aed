package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_DISCARD;
import static org.bytedeco.ffmpeg.global.avcodec.AV_PKT_FLAG_KEY;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avutil.AVERROR_EOF;
import static org.bytedeco.ffmpeg.global.avutil.AV_NOPTS_VALUE;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVFrame;

/**
 * Decodes the pictures a reference-only pass passed over in one gap, on a decoder of its own that
 * reads the file beside the pass's, so the pass never goes back. On the way to a gap it decodes
 * the reference pictures (B pictures that are references included, which the gap's pictures may
 * refer to), then every picture of the gap, exactly as a full decode delivers them.
 *
 * <p>Why a decoder of its own: the pass learns that a gap is worth decoding only after the
 * decoder delivered the picture that ends it, when the gap's packets are already behind it. Going
 * back means decoding from the keyframe again, for every gap. This decoder stays where its last
 * gap left it, so the next gap of the same GOP costs only the packets between the two: a burst of
 * motion asks for several gaps in a row, each of which went back to the same keyframe before.
 *
 * <p>It stays there exactly: every packet after the last gap's end picture is decoded in full
 * until that picture comes out (the decoder holds pictures back to reorder them), and those
 * pictures are kept for the next gap; a packet that could lie in a later gap is never passed over
 * unless the next gap starts after it. Otherwise it seeks to the gap's keyframe again.
 *
 * <p>Opened on the first gap; not thread-safe; one per reading source.
 */
final class GapFiller implements AutoCloseable {
    /**
     * Packets sent after the gap's end picture before giving up on it coming out: a decoder holds
     * at most 16 pictures back, so a stream past this is damaged.
     */
    private static final int MAX_TAIL_PACKETS = 40;

    private static final int FRAME_FLAG_CORRUPT = 1; // AV_FRAME_FLAG_CORRUPT

    /** A decoded picture of a gap, scaled as the pass scales its own. */
    record Picture(long pts, byte[] rgb) {}

    private final Path video;
    private final MediaLimits limits;
    private final int videoIndex;
    private final int codedWidth;
    private final int codedHeight;
    private final int rotationDegrees;

    private InputFile in;
    private VideoPackets packets;
    private StreamDecoder decoder;
    private PictureScaler scaler;
    /** Pictures decoded past the last gap, by presentation time, kept for the next one. */
    private final TreeMap<Long, byte[]> kept = new TreeMap<>();
    /** The last keyframe sent to the decoder since it was sought, or AV_NOPTS_VALUE. */
    private long keyframePts = AV_NOPTS_VALUE;
    /** The latest presentation time among the packets sent since the seek. */
    private long latestSent = Long.MIN_VALUE;
    /** The latest presentation time among the packets sent with non-reference pictures passed over. */
    private long passedOverThrough = Long.MIN_VALUE;

    private boolean drained;
    private long seeks;
    /** The keyframe a seek found, to be sent first. */
    private AVPacket keyframe;

    GapFiller(Path video, MediaLimits limits, int videoIndex, int codedWidth, int codedHeight, int rotationDegrees) {
        this.video = video;
        this.limits = limits;
        this.videoIndex = videoIndex;
        this.codedWidth = codedWidth;
        this.codedHeight = codedHeight;
        this.rotationDegrees = rotationDegrees;
    }

    /**
     * The pictures shown after {@code afterPts} and before {@code throughPts}, in order of time.
     *
     * @param keyframePts the keyframe the gap's GOP starts from, and its decoding time
     *                    ({@code AV_NOPTS_VALUE} when unknown: the container finds one before the gap)
     * @return the gap's pictures, or null when the file could not be sought there; pictures the
     *         decoder refused or flagged as corrupt are missing from the list
     */
    List<Picture> fill(long keyframePts, long keyframeDts, long afterPts, long throughPts) {
        open();
        kept.headMap(afterPts, true).clear();
        boolean samePlace = keyframePts != AV_NOPTS_VALUE
                && keyframePts == this.keyframePts
                && passedOverThrough <= afterPts
                && !drained;
        if (!samePlace && !seek(keyframePts, keyframeDts, afterPts)) {
            return null;
        }
        // Pictures past the gap already came out (decoded in full after the last gap's end): none is missing before
        // them.
        if (kept.ceilingKey(throughPts) == null) {
            decode(afterPts, throughPts);
        }
        NavigableMap<Long, byte[]> gap = kept.subMap(afterPts, false, throughPts, false);
        List<Picture> pictures = new ArrayList<>(gap.size());
        gap.forEach((pts, rgb) -> pictures.add(new Picture(pts, rgb)));
        kept.headMap(throughPts, true).clear();
        return pictures;
    }

    /** How often a gap was decoded from its keyframe rather than from where the last one left off. */
    long seeks() {
        return seeks;
    }

    /**
     * Seeks to the keyframe, whose packet {@link #decode} then sends first; with no keyframe known,
     * to where the container finds one before {@code afterPts}. False when the file cannot seek.
     */
    private boolean seek(long keyframePts, long keyframeDts, long afterPts) {
        seeks++;
        decoder.flush();
        kept.clear();
        drained = false;
        passedOverThrough = Long.MIN_VALUE;
        latestSent = Long.MIN_VALUE;
        this.keyframePts = AV_NOPTS_VALUE;
        if (keyframePts == AV_NOPTS_VALUE) {
            return packets.seekBefore(afterPts);
        }
        keyframe = packets.seekToKeyframe(keyframePts, keyframeDts);
        return keyframe != null;
    }

    /** Feeds the decoder until the picture at {@code throughPts} (or a later one) comes out. */
    private void decode(long afterPts, long throughPts) {
        int tailPackets = 0;
        int errorsInARow = 0;
        while (true) {
            int ret = decoder.receive();
            if (ret >= 0) {
                errorsInARow = 0;
                AVFrame picture = decoder.frame();
                long pts = picture.best_effort_timestamp();
                if (pts == AV_NOPTS_VALUE) {
                    continue;
                }
                if (pts > afterPts
                        && (picture.flags() & FRAME_FLAG_CORRUPT) == 0
                        && picture.decode_error_flags() == 0) {
                    byte[] rgb = new byte[scaler.width() * scaler.height() * 3];
                    scaler.scale(picture, rgb);
                    kept.put(pts, rgb);
                }
                if (pts >= throughPts) {
                    return;
                }
            } else if (ret == Ffmpeg.EAGAIN) {
                if (drained || tailPackets > MAX_TAIL_PACKETS) {
                    return;
                }
                AVPacket next = keyframe != null ? keyframe : packets.next();
                keyframe = null;
                if (next == null) {
                    decoder.send(null);
                    drained = true;
                    continue;
                }
                if (latestSent >= throughPts) {
                    tailPackets++;
                }
                send(next, afterPts, throughPts);
            } else if (ret == AVERROR_EOF || ++errorsInARow > MAX_TAIL_PACKETS) {
                return;
            }
        }
    }

    /**
     * Sends one packet: a picture of the gap, or any sent after the gap's end picture (in this gap
     * or the one before), decoded in full; before them, non-reference pictures passed over.
     * Decided by timestamps alone, so the same with any number of decoding threads. Frees the packet.
     */
    private void send(AVPacket packet, long afterPts, long throughPts) {
        try {
            long pts = packet.pts();
            boolean inGap = pts != AV_NOPTS_VALUE && pts > afterPts && pts < throughPts;
            boolean full = inGap || latestSent >= throughPts;
            boolean discarded = (packet.flags() & AV_PKT_FLAG_DISCARD) != 0;
            if (!full && pts != AV_NOPTS_VALUE && !discarded) {
                passedOverThrough = Math.max(passedOverThrough, pts);
            }
            if ((packet.flags() & AV_PKT_FLAG_KEY) != 0 && !discarded) {
                keyframePts = pts;
            }
            if (pts != AV_NOPTS_VALUE) {
                latestSent = Math.max(latestSent, pts);
            }
            decoder.passOver(full ? PassOver.NOTHING : PassOver.NON_REFERENCE);
            decoder.send(packet);
        } finally {
            av_packet_free(packet);
        }
    }

    private void open() {
        if (decoder != null) {
            return;
        }
        InputFile file = InputFile.open(video, limits);
        try {
            file.readOnly(videoIndex);
            decoder = FfmpegFrameSource.openDecoder(file.stream(videoIndex), 1, limits);
            scaler = new PictureScaler(codedWidth, codedHeight, rotationDegrees);
            packets = new VideoPackets(file, videoIndex);
            in = file;
        } catch (RuntimeException | Error e) {
            closeAll(file);
            throw e;
        }
    }

    @Override
    public void close() {
        closeAll(in);
    }

    private void closeAll(InputFile file) {
        if (keyframe != null) {
            av_packet_free(keyframe);
            keyframe = null;
        }
        if (packets != null) {
            packets.close();
            packets = null;
        }
        if (scaler != null) {
            scaler.close();
            scaler = null;
        }
        if (decoder != null) {
            decoder.close();
            decoder = null;
        }
        if (file != null) {
            file.close();
        }
        in = null;
    }
}
