package dev.scorecast.server.storage;

import java.util.HexFormat;
import java.util.zip.Checksum;

/** Checksums as clients see them: CRC32C as 8 lowercase hex digits, big-endian. */
public final class Checksums {
    private Checksums() {}

    public static String hex(Checksum crc) {
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }
}
