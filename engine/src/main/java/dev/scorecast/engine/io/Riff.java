package dev.scorecast.engine.io;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/** Reading RIFF files (WAV, SF2) by chunk: little-endian fields at absolute offsets, four-letter tags. */
public final class Riff {
    private Riff() {}

    /** {@code bytes} bytes at {@code at}, little-endian, ready to read; null if the file ends first. */
    public static ByteBuffer read(FileChannel ch, long at, int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                return null;
            }
        }
        return b.flip();
    }

    /** The four-letter tag at {@code at} ("RIFF", "fmt ", "data", "LIST", ...). */
    public static String tag(ByteBuffer b, int at) {
        byte[] four = new byte[4];
        b.get(at, four);
        return new String(four, US_ASCII);
    }
}
