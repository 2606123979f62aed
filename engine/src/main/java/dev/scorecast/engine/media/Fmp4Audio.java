package dev.scorecast.engine.media;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A fragmented MP4 (CMAF) writer for one AAC-LC track, the container of HLS audio segments: an initialization segment
 * ({@code ftyp}, {@code moov} with an empty sample table and {@code mvex}) and fragments ({@code moof} + {@code mdat})
 * holding raw AAC frames of 1024 samples each. Written here instead of through FFmpeg's HLS muxer, which writes files and
 * has no low-latency HLS parts: a fragment is a few boxes around bytes the live encoder already made.
 *
 * <p>Boxes as ISO/IEC 14496-12 defines them; the AAC configuration as 14496-3 (AudioSpecificConfig) in an {@code esds}
 * (14496-1 descriptors).
 */
public final class Fmp4Audio {
    /** Samples per AAC-LC frame. */
    public static final int FRAME = 1024;

    private Fmp4Audio() {}

    /** AudioSpecificConfig of AAC-LC at {@code rate} (48000 or 44100) with {@code channels}. */
    static byte[] audioSpecificConfig(int rate, int channels) {
        int index = switch (rate) {
            case 96000 -> 0;
            case 88200 -> 1;
            case 64000 -> 2;
            case 48000 -> 3;
            case 44100 -> 4;
            case 32000 -> 5;
            case 24000 -> 6;
            case 22050 -> 7;
            case 16000 -> 8;
            default -> throw new IllegalArgumentException("no AAC sampling index for " + rate + " Hz");
        };
        int bits = (2 << 11)
                | (index << 7)
                | (channels << 3); // object type 2 (LC), frequency index, channels, 3 zero bits
        return new byte[] {(byte) (bits >> 8), (byte) bits};
    }

    /** The initialization segment of a track of AAC-LC at {@code rate} with {@code channels}, about {@code bitRate} b/s. */
    public static byte[] init(int rate, int channels, int bitRate) {
        Box ftyp = new Box("ftyp")
                .fourcc("iso6")
                .u32(0)
                .fourcc("iso6")
                .fourcc("cmfc")
                .fourcc("mp41");
        Box mvhd = new Box("mvhd")
                .u32(0)
                .u32(0)
                .u32(0)
                .u32(1000)
                .u32(0)
                .u32(0x00010000)
                .u16(0x0100)
                .zeros(10)
                .matrix()
                .zeros(24)
                .u32(2);
        Box tkhd = new Box("tkhd")
                .u32(3)
                .u32(0)
                .u32(0)
                .u32(1)
                .u32(0)
                .u32(0)
                .zeros(8)
                .u16(0)
                .u16(0)
                .u16(0x0100)
                .u16(0)
                .matrix()
                .u32(0)
                .u32(0);
        Box mdhd = new Box("mdhd")
                .u32(0)
                .u32(0)
                .u32(0)
                .u32(rate)
                .u32(0)
                .u16(0x55C4)
                .u16(0); // language "und"
        Box hdlr = new Box("hdlr")
                .u32(0)
                .u32(0)
                .fourcc("soun")
                .zeros(12)
                .bytes("SoundHandler\0".getBytes(StandardCharsets.US_ASCII));
        Box smhd = new Box("smhd").u32(0).u16(0).u16(0);
        Box dinf = new Box("dinf").add(new Box("dref").u32(0).u32(1).add(new Box("url ").u32(1)));
        byte[] asc = audioSpecificConfig(rate, channels);
        // ES_Descriptor { ES_ID 1, DecoderConfigDescriptor { MPEG-4 audio, audio stream, buffer, rates,
        // DecoderSpecificInfo }, SLConfig }
        ByteArrayOutputStream dsi = descriptor(5, asc);
        ByteArrayOutputStream dcd = new ByteArrayOutputStream();
        dcd.write(0x40);
        dcd.write(0x15);
        write24(dcd, 6144);
        write32(dcd, bitRate);
        write32(dcd, bitRate);
        dcd.writeBytes(dsi.toByteArray());
        ByteArrayOutputStream es = new ByteArrayOutputStream();
        es.write(0);
        es.write(1);
        es.write(0);
        es.writeBytes(descriptor(4, dcd.toByteArray()).toByteArray());
        es.writeBytes(descriptor(6, new byte[] {2}).toByteArray());
        Box esds = new Box("esds").u32(0).bytes(descriptor(3, es.toByteArray()).toByteArray());
        Box mp4a = new Box("mp4a")
                .zeros(6)
                .u16(1)
                .zeros(8)
                .u16(channels)
                .u16(16)
                .u16(0)
                .u16(0)
                .u32(rate << 16)
                .add(esds);
        Box stbl = new Box("stbl")
                .add(new Box("stsd").u32(0).u32(1).add(mp4a))
                .add(new Box("stts").u32(0).u32(0))
                .add(new Box("stsc").u32(0).u32(0))
                .add(new Box("stsz").u32(0).u32(0).u32(0))
                .add(new Box("stco").u32(0).u32(0));
        Box minf = new Box("minf").add(smhd).add(dinf).add(stbl);
        Box trak = new Box("trak")
                .add(tkhd)
                .add(new Box("mdia").add(mdhd).add(hdlr).add(minf));
        Box mvex = new Box("mvex")
                .add(new Box("trex").u32(0).u32(1).u32(1).u32(FRAME).u32(0).u32(0));
        Box moov = new Box("moov").add(mvhd).add(trak).add(mvex);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(ftyp.toBytes());
        out.writeBytes(moov.toBytes());
        return out.toByteArray();
    }

    /**
     * One fragment: {@code frames} (raw AAC frames, no ADTS headers) starting at sample {@code decodeTime} of the track,
     * numbered {@code sequence} (1, 2, ... over the track's fragments).
     */
    public static byte[] fragment(long sequence, long decodeTime, List<byte[]> frames) {
        int payload = frames.stream().mapToInt(f -> f.length).sum();
        // trun: data offset and a size per sample; durations come from tfhd's default (one frame), all samples are
        // sync.
        Box trun = new Box("trun").u32(0x000201).u32(frames.size()).u32(0);
        for (byte[] f : frames) {
            trun.u32(f.length);
        }
        Box tfhd = new Box("tfhd").u32(0x020008).u32(1).u32(FRAME); // default-base-is-moof, default sample duration
        Box tfdt = new Box("tfdt").u32(0x01000000).u64(decodeTime);
        Box moof = new Box("moof")
                .add(new Box("mfhd").u32(0).u32((int) sequence))
                .add(new Box("traf").add(tfhd).add(tfdt).add(trun));
        byte[] head = moof.toBytes();
        int dataOffset = head.length + 8;
        // The trun's data offset is its third word: patch it now that the moof's size is known.
        int trunAt = indexOf(head, "trun");
        writeAt(head, trunAt + 16, dataOffset); // size, type, version and flags, sample count, then the offset
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + 8 + payload);
        out.writeBytes(head);
        write32(out, 8 + payload);
        out.writeBytes("mdat".getBytes(StandardCharsets.US_ASCII));
        frames.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /** The raw AAC frames in {@code adts} (whole ADTS frames, as the live encoder's AAC chunks are). */
    public static void adtsFrames(byte[] adts, Consumer<byte[]> frame) {
        int i = 0;
        while (i + 7 <= adts.length) {
            if ((adts[i] & 0xff) != 0xff || (adts[i + 1] & 0xf0) != 0xf0) {
                throw new IllegalArgumentException("not an ADTS frame at byte " + i);
            }
            boolean crc = (adts[i + 1] & 1) == 0;
            int length = ((adts[i + 3] & 3) << 11) | ((adts[i + 4] & 0xff) << 3) | ((adts[i + 5] & 0xff) >> 5);
            int header = crc ? 9 : 7;
            if (length < header || i + length > adts.length) {
                throw new IllegalArgumentException("a cut ADTS frame at byte " + i);
            }
            frame.accept(Arrays.copyOfRange(adts, i + header, i + length));
            i += length;
        }
    }

    private static int indexOf(byte[] b, String type) {
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + 4 <= b.length; i++) {
            if (b[i] == t[0] && b[i + 1] == t[1] && b[i + 2] == t[2] && b[i + 3] == t[3]) {
                return i - 4;
            }
        }
        throw new IllegalStateException("no " + type);
    }

    private static void writeAt(byte[] b, int at, int v) {
        b[at] = (byte) (v >> 24);
        b[at + 1] = (byte) (v >> 16);
        b[at + 2] = (byte) (v >> 8);
        b[at + 3] = (byte) v;
    }

    private static ByteArrayOutputStream descriptor(int tag, byte[] body) {
        ByteArrayOutputStream d = new ByteArrayOutputStream();
        d.write(tag);
        // Four-byte size form, as most muxers write it.
        int n = body.length;
        d.write(0x80 | (n >> 21) & 0x7f);
        d.write(0x80 | (n >> 14) & 0x7f);
        d.write(0x80 | (n >> 7) & 0x7f);
        d.write(n & 0x7f);
        d.writeBytes(body);
        return d;
    }

    private static void write24(ByteArrayOutputStream o, int v) {
        o.write(v >> 16);
        o.write(v >> 8);
        o.write(v);
    }

    private static void write32(ByteArrayOutputStream o, int v) {
        o.write(v >> 24);
        o.write(v >> 16);
        o.write(v >> 8);
        o.write(v);
    }

    /** A box being built: its fields, then its children. */
    private static final class Box {
        private final String type;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Box(String type) {
            this.type = type;
        }

        Box u16(int v) {
            body.write(v >> 8);
            body.write(v);
            return this;
        }

        Box u32(int v) {
            write32(body, v);
            return this;
        }

        Box u64(long v) {
            write32(body, (int) (v >>> 32));
            write32(body, (int) v);
            return this;
        }

        Box fourcc(String s) {
            body.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
            return this;
        }

        Box zeros(int n) {
            body.writeBytes(new byte[n]);
            return this;
        }

        Box bytes(byte[] b) {
            body.writeBytes(b);
            return this;
        }

        /** The identity matrix of mvhd and tkhd. */
        Box matrix() {
            return u32(0x00010000)
                    .u32(0)
                    .u32(0)
                    .u32(0)
                    .u32(0x00010000)
                    .u32(0)
                    .u32(0)
                    .u32(0)
                    .u32(0x40000000);
        }

        Box add(Box child) {
            body.writeBytes(child.toBytes());
            return this;
        }

        byte[] toBytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream(8 + body.size());
            write32(out, 8 + body.size());
            out.writeBytes(type.getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(body.toByteArray());
            return out.toByteArray();
        }
    }
}
