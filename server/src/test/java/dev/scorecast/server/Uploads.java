package dev.scorecast.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/** Client-side chunking, as a user's uploader would do it. */
final class Uploads {
    private Uploads() {}

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Splits {@code bytes} into {@code count} nearly equal chunks. */
    static List<byte[]> split(byte[] bytes, int count) {
        var chunks = new ArrayList<byte[]>();
        int size = (bytes.length + count - 1) / count;
        for (int start = 0; start < bytes.length; start += size) {
            chunks.add(Arrays.copyOfRange(bytes, start, Math.min(bytes.length, start + size)));
        }
        return chunks;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** CRC32C as the server prints it: 8 lowercase hex digits. */
    static String crc32c(byte[] bytes) {
        var crc = new CRC32C();
        crc.update(bytes);
        return HexFormat.of().toHexDigits((int) crc.getValue());
    }

    static String initA(Api api, String name, long size, String type) {
        Api.Response r = api.postJson(
                "/sync/initialize_video_upload", Map.of("file_name", name, "file_size", size, "file_type", type));
        if (r.status() != 200) {
            throw new AssertionError("initialize failed: " + r);
        }
        return r.body().get("upload_id").asText();
    }

    static Api.Response chunkA(Api api, String uploadId, int index, byte[] chunk) {
        return api.postBytes(
                "/sync/upload_chunk", chunk, Map.of("X-Upload-Id", uploadId, "X-Chunk-Index", String.valueOf(index)));
    }

    static String initB(Api api, String name) {
        Api.Response r = api.postJson("/sync_upload_init", Map.of("payload", Map.of("filename", name)));
        if (r.status() != 200) {
            throw new AssertionError("init failed: " + r);
        }
        return r.body().get("taskid").asText();
    }

    static Api.Response chunkB(Api api, String taskId, int index, int total, byte[] chunk) {
        return api.postMultipart(
                "/sync_upload_chunk",
                Map.of("payload", Api.write(Map.of("taskid", taskId, "index", index, "total", total))),
                "file",
                chunk);
    }

    /** Uploads {@code file} through variant A in {@code count} chunks, in order, and completes it. */
    static Api.Response uploadA(Api api, Path file, String type, int count) {
        byte[] bytes = read(file);
        String id = initA(api, file.getFileName().toString(), bytes.length, type);
        List<byte[]> chunks = split(bytes, count);
        for (int i = 0; i < chunks.size(); i++) {
            Api.Response r = chunkA(api, id, i, chunks.get(i));
            if (r.status() != 200) {
                throw new AssertionError("chunk " + i + " failed: " + r);
            }
        }
        return api.postJson("/sync/complete_video_upload", Map.of("upload_id", id));
    }

    /** Uploads {@code file} through variant B in {@code count} chunks, in order, and completes it. */
    static Api.Response uploadB(Api api, Path file, int count) {
        byte[] bytes = read(file);
        String id = initB(api, file.getFileName().toString());
        List<byte[]> chunks = split(bytes, count);
        for (int i = 0; i < chunks.size(); i++) {
            Api.Response r = chunkB(api, id, i, chunks.size(), chunks.get(i));
            if (r.status() != 200) {
                throw new AssertionError("chunk " + i + " failed: " + r);
            }
        }
        return api.postJson("/sync_upload_complete", Map.of("taskid", id, "total", chunks.size()));
    }
}
