package dev.scorecast.server.upload;

import dev.scorecast.engine.error.WrongState;
import dev.scorecast.server.storage.BlobStore;
import dev.scorecast.server.storage.Checksums;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/** A stored chunk read back for assembly; at its end its CRC32C must be the one recorded when it arrived. */
final class VerifiedChunk extends FilterInputStream {
    private final Chunk chunk;
    private final CRC32C crc;
    private boolean checked;

    VerifiedChunk(Chunk chunk, BlobStore blobs) {
        this(chunk, new CRC32C(), blobs);
    }

    private VerifiedChunk(Chunk chunk, CRC32C crc, BlobStore blobs) {
        super(new CheckedInputStream(blobs.open(chunk.storedAs()), crc));
        this.chunk = chunk;
        this.crc = crc;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b < 0) {
            verify();
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n < 0) {
            verify();
        }
        return n;
    }

    private void verify() {
        if (checked) {
            return;
        }
        checked = true;
        String actual = Checksums.hex(crc);
        if (!actual.equals(chunk.crc32c())) {
            throw new WrongState(
                    "chunks",
                    "Chunk " + chunk.index() + " was damaged in storage (CRC32C " + actual + ", " + chunk.crc32c()
                            + " when it arrived); send chunk " + chunk.index() + " again, then complete again.",
                    Map.of("missing_indices", List.of(chunk.index())));
        }
    }
}
