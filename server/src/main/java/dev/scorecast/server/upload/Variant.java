package dev.scorecast.server.upload;

/**
 * Which of the spec's two sync surfaces an upload came through; ids of one are unknown to the other.
 * Each knows the names its clients use for the same facts, so errors name the field they sent.
 */
public enum Variant {
    A("upl", "upload_id", "X-Chunk-Index", "X-Chunk-Crc32c", "X-Chunk-Sha256", "body"),
    B("task", "taskid", "index", "crc32c", "sha256", "file");

    private final String idPrefix;
    private final String idField;
    private final String indexField;
    private final String crc32cField;
    private final String sha256Field;
    private final String contentField;

    Variant(
            String idPrefix,
            String idField,
            String indexField,
            String crc32cField,
            String sha256Field,
            String contentField) {
        this.idPrefix = idPrefix;
        this.idField = idField;
        this.indexField = indexField;
        this.crc32cField = crc32cField;
        this.sha256Field = sha256Field;
        this.contentField = contentField;
    }

    public String idPrefix() {
        return idPrefix;
    }

    public String idField() {
        return idField;
    }

    public String indexField() {
        return indexField;
    }

    public String crc32cField() {
        return crc32cField;
    }

    public String sha256Field() {
        return sha256Field;
    }

    public String contentField() {
        return contentField;
    }
}
