package dev.scorecast.engine.media;

import static org.bytedeco.ffmpeg.global.avcodec.av_packet_alloc;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_clone;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_free;
import static org.bytedeco.ffmpeg.global.avcodec.av_packet_unref;
import static org.bytedeco.ffmpeg.global.avformat.av_read_frame;
import static org.bytedeco.ffmpeg.global.avutil.AV_PICTURE_TYPE_B;
import static org.bytedeco.ffmpeg.global.avutil.av_image_copy_to_buffer;
import static org.bytedeco.ffmpeg.global.avutil.av_image_get_buffer_size;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32C;
import org.bytedeco.ffmpeg.avcodec.AVPacket;
import org.bytedeco.ffmpeg.avutil.AVFrame;
import org.bytedeco.javacpp.BytePointer;

/**
 * Finds out whether a video's I and P pictures decode the same when every B picture is passed
 * over, reference B pictures included ({@link PassOver#BIDIRECTIONAL}), which roughly halves the
 * decoding of a typical x264 stream against passing over the non-reference ones only.
 *
 * <p>Why a check and not a rule: whether a P picture may predict from a B picture is the encoder's
 * choice, and the stream does not say it. x264's fast presets (one reference) never do; its
 * default and slower presets (three or more references, B pyramid) do in most P pictures, and a P
 * picture decoded without the B picture it refers to is silently wrong until the next keyframe.
 * So the first pictures are decoded both ways and compared bit for bit: the check says yes only
 * when the stream has B pictures, its I and P pictures come out identical, and the picture moves
 * enough over them (a still opening would match whatever the references) to have shown a
 * difference. Anything else, including any error, says no, which costs speed and never accuracy.
 *
 * <p>Cost: the first {@link #PACKETS} pictures decoded twice at full size, the two at once on two
 * threads, about a fiftieth of a minute's decoding.
 */
final class BidirectionalCheck {
    /** Video packets looked at: about a second at 30 fps, seven or eight P pictures in x264's usual pattern. */
    static final int PACKETS = 32;
    /** Different P and I pictures needed before identical results mean anything. */
    static final int MIN_DIFFERENT_PICTURES = 3;

    private BidirectionalCheck() {}

    /** Whether the video at {@code video} may be decoded passing over its B pictures; see the class comment. */
    static boolean passOverIsSafe(Path video, MediaLimits limits) {
        try (InputFile in = InputFile.open(video, limits)) {
            int videoIndex = in.firstVideoStream();
            if (videoIndex < 0) {
                return false;
            }
            in.readOnly(videoIndex);
            List<AVPacket> packets = firstPackets(in, videoIndex);
            // Both ways at once, one on another thread: the check holds up the picture pass's start.
            // Its result comes back through a field, read once the thread has ended however it
            // ended (a thread that ran out of memory leaves it empty: the answer is no).
            var passingOver = new AtomicReference<Decoded>();
            Thread other = Thread.ofPlatform()
                    .daemon()
                    .name("picture-check-b")
                    .start(() -> passingOver.set(decode(in, videoIndex, packets, PassOver.BIDIRECTIONAL, limits)));
            try {
                Decoded references = decode(in, videoIndex, packets, PassOver.NON_REFERENCE, limits);
                joinQuietly(other);
                Decoded without = passingOver.get();
                if (without == null || !references.sawB() || references.differentPictures() < MIN_DIFFERENT_PICTURES) {
                    return false;
                }
                return without.nonB().equals(references.nonB()) && !without.sawB();
            } finally {
                joinQuietly(other); // its decoder reads the packets freed here
                packets.forEach(p -> av_packet_free(p));
            }
        } catch (RuntimeException e) {
            return false; // the real decode reports what is wrong with the file
        }
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<AVPacket> firstPackets(InputFile in, int videoIndex) {
        List<AVPacket> packets = new ArrayList<>();
        AVPacket packet = av_packet_alloc();
        try {
            while (packets.size() < PACKETS && av_read_frame(in.context(), packet) >= 0) {
                if (packet.stream_index() == videoIndex) {
                    AVPacket own = av_packet_clone(packet);
                    if (own == null) {
                        throw new OutOfMemoryError("FFmpeg could not copy a packet");
                    }
                    packets.add(own);
                }
                av_packet_unref(packet);
            }
        } finally {
            av_packet_free(packet);
        }
        return packets;
    }

    /** Each decoded I or P picture as its timestamp and a CRC of all its planes, in output order. */
    private record Decoded(List<String> nonB, boolean sawB, int differentPictures) {}

    private static Decoded decode(
            InputFile in, int videoIndex, List<AVPacket> packets, PassOver passOver, MediaLimits limits) {
        List<String> nonB = new ArrayList<>();
        Set<Long> different = new HashSet<>();
        boolean sawB = false;
        try (StreamDecoder decoder = FfmpegFrameSource.openDecoder(in.stream(videoIndex), 1, limits)) {
            decoder.passOver(passOver);
            for (int i = 0; i <= packets.size(); i++) {
                decoder.send(i < packets.size() ? packets.get(i) : null);
                while (decoder.receive() >= 0) {
                    AVFrame picture = decoder.frame();
                    if (picture.pict_type() == AV_PICTURE_TYPE_B) {
                        sawB = true;
                    } else {
                        long crc = crc(picture);
                        nonB.add(picture.best_effort_timestamp() + ":" + crc);
                        different.add(crc);
                    }
                }
            }
        }
        return new Decoded(nonB, sawB, different.size());
    }

    private static long crc(AVFrame picture) {
        int size = av_image_get_buffer_size(picture.format(), picture.width(), picture.height(), 1);
        if (size <= 0) {
            throw new IllegalStateException("unknown picture layout");
        }
        try (BytePointer buffer = new BytePointer(size)) {
            if (av_image_copy_to_buffer(
                            buffer,
                            size,
                            picture.data(),
                            picture.linesize(),
                            picture.format(),
                            picture.width(),
                            picture.height(),
                            1)
                    < 0) {
                throw new IllegalStateException("picture could not be copied");
            }
            CRC32C crc = new CRC32C();
            crc.update(buffer.limit(size).asByteBuffer());
            return crc.getValue();
        }
    }
}
