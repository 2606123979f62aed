package dev.scorecast.engine.media;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Notices an H.264 stream whose parameter sets (sequence and picture) change partway: the mark of
 * pieces of different encodes joined without re-encoding, which a transport stream allows, since
 * it carries the sets in the stream at each keyframe. {@link BidirectionalCheck} looks at the
 * first second only; a later piece from another encoder may refer to its pictures otherwise (the
 * picture parameter set holds how many references a P picture uses by default, which is how x264's
 * veryfast and medium presets differ there), so its verdict cannot be carried over.
 *
 * <p>Looks at the start of each keyframe's packet, where an access unit carries its sets, in either
 * of H.264's layouts: length-prefixed units (the extradata is an {@code avcC} record) or start codes.
 * A stream that carries its sets only in the extradata (most MP4 files) has nothing to compare and
 * reads as unchanged: joining such files without re-encoding needs the same sets anyway.
 */
final class ParameterSets {
    /** Bytes of a keyframe's packet looked at: the parameter sets come first in an access unit. */
    static final int HEAD_BYTES = 1024;

    private static final int SPS = 7;
    private static final int PPS = 8;

    /** Bytes of each unit's length in the length-prefixed layout; 0 for start codes. */
    private final int lengthSize;

    private byte[] first;
    private boolean changed;

    /** @param extradata the stream's codec extradata, possibly empty */
    ParameterSets(byte[] extradata) {
        this.lengthSize = extradata.length >= 7 && extradata[0] == 1 ? (extradata[4] & 3) + 1 : 0;
    }

    /** Looks at the first {@code length} bytes of a keyframe's packet; keyframes in file order. */
    void keyframe(byte[] head, int length) {
        byte[] sets = lengthSize > 0 ? lengthPrefixed(head, length) : startCodes(head, length);
        if (sets.length == 0) {
            return;
        }
        if (first == null) {
            first = sets;
        } else if (!Arrays.equals(first, sets)) {
            changed = true;
        }
    }

    /** Whether a keyframe carried other parameter sets than the first that carried any. */
    boolean changed() {
        return changed;
    }

    private byte[] lengthPrefixed(byte[] data, int length) {
        ByteArrayOutputStream sets = new ByteArrayOutputStream();
        int at = 0;
        while (at + lengthSize < length) {
            int size = 0;
            for (int i = 0; i < lengthSize; i++) {
                size = (size << 8) | (data[at + i] & 0xff);
            }
            int unit = at + lengthSize;
            if (size <= 0) {
                break; // not a length this layout can hold: nothing more to read here
            }
            int type = data[unit] & 0x1f;
            if (type == SPS || type == PPS) {
                sets.write(data, unit, Math.min(length, unit + size) - unit);
            }
            at = unit + size;
        }
        return sets.toByteArray();
    }

    private static byte[] startCodes(byte[] data, int length) {
        ByteArrayOutputStream sets = new ByteArrayOutputStream();
        int i = 0;
        while (i + 3 < length) {
            if (data[i] == 0 && data[i + 1] == 0 && data[i + 2] == 1) {
                int unit = i + 3;
                int end = unit;
                while (end + 2 < length
                        && !(data[end] == 0 && data[end + 1] == 0 && (data[end + 2] == 1 || data[end + 2] == 0))) {
                    end++;
                }
                if (end + 2 >= length) {
                    end = length;
                }
                int type = data[unit] & 0x1f;
                if (type == SPS || type == PPS) {
                    sets.write(data, unit, end - unit);
                }
                i = end;
            } else {
                i++;
            }
        }
        return sets.toByteArray();
    }
}
