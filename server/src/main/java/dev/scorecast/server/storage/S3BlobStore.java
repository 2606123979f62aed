package dev.scorecast.server.storage;

import dev.scorecast.engine.error.Overloaded;
import dev.scorecast.engine.error.TooLarge;
import dev.scorecast.server.config.StorageSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Blobs in an S3-compatible object store, shared by every node. Writes stream through one part
 * buffer: a blob that fits in one part is one PUT, a larger one a multipart upload, and either
 * appears whole when it completes or not at all (a failed multipart upload is aborted). Reads
 * stream from the store; tools that need a file get a copy in this node's scratch directory.
 * A store that does not answer is retried for 16 to 32 s (a restart, a network blip); past that
 * the call fails as {@link Overloaded}, which clients see as 503 and jobs report by name.
 */
public final class S3BlobStore implements BlobStore, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(S3BlobStore.class);
    private static final Pattern SAFE_KEY = Pattern.compile("[a-z0-9_][a-z0-9_.-]*(/[a-z0-9_][a-z0-9_.-]*)*");
    /** Parts of 8 MiB: S3's minimum is 5 MiB, and one buffer of this size is all a write holds in memory. */
    static final int PART_BYTES = 8 << 20;
    /** Connections of the downloads' own pool. */
    static final int DOWNLOAD_CONNECTIONS = 32;
    /** Multipart uploads older than this are leftovers of a crash; younger ones may be another node's live write. */
    private static final Duration LEFTOVER_AGE = Duration.ofDays(1);

    private final S3Client client;
    /** Downloads streamed through a node read on a client of their own: however many are open, jobs keep their connections. */
    private final S3Client downloads;

    private final S3Presigner presigner;
    private final String bucket;
    private final String prefix;
    private final Scratch scratch;
    private volatile boolean batchDeletes = true;

    S3BlobStore(S3Client client, S3Presigner presigner, String bucket, String prefix, Scratch scratch) {
        this(client, client, presigner, bucket, prefix, scratch);
    }

    S3BlobStore(
            S3Client client, S3Client downloads, S3Presigner presigner, String bucket, String prefix, Scratch scratch) {
        this.client = client;
        this.downloads = downloads;
        this.presigner = presigner;
        this.bucket = bucket;
        this.prefix = prefix;
        this.scratch = scratch;
    }

    /** The store {@code settings} name, with credentials from the standard AWS_* variables and profile files. */
    public static S3BlobStore open(StorageSettings settings, Scratch scratch) {
        String bucket = settings.bucket().orElseThrow(() -> new IllegalArgumentException("not an s3:// store"));
        AwsCredentialsProvider credentials = settings.credentials()
                .<AwsCredentialsProvider>map(c -> StaticCredentialsProvider.create(c.sessionToken()
                        .<AwsCredentials>map(
                                token -> AwsSessionCredentials.create(c.accessKeyId(), c.secretAccessKey(), token))
                        .orElseGet(() -> AwsBasicCredentials.create(c.accessKeyId(), c.secretAccessKey()))))
                .orElseGet(() -> DefaultCredentialsProvider.builder().build());
        Region region = Region.of(settings.region());
        var retries = AwsRetryStrategy.standardRetryStrategy().toBuilder()
                // 500 ms doubling to 5 s, at least half of each delay kept, over ten attempts: 16 to 32 s
                // of a store that does not answer (a restart, a failover) before a call gives up.
                .maxAttempts(10)
                .backoffStrategy(
                        BackoffStrategy.exponentialDelayHalfJitter(Duration.ofMillis(500), Duration.ofSeconds(5)))
                .circuitBreakerEnabled(false)
                .build();
        var builder =
                clientBuilder(settings, region, credentials, 64).overrideConfiguration(o -> o.retryStrategy(retries));
        // Proxied downloads: a pool of their own, so that slow readers holding every one of them cannot starve the
        // jobs' pool.
        var downloadsBuilder = clientBuilder(settings, region, credentials, DOWNLOAD_CONNECTIONS);
        var presignerBuilder = S3Presigner.builder()
                .region(region)
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder()
                        .pathStyleAccessEnabled(settings.endpoint().isPresent())
                        .build());
        settings.endpoint().ifPresent(endpoint -> {
            builder.endpointOverride(endpoint);
            downloadsBuilder.endpointOverride(endpoint);
            presignerBuilder.endpointOverride(endpoint);
        });
        return new S3BlobStore(
                builder.build(),
                downloadsBuilder.build(),
                presignerBuilder.build(),
                bucket,
                settings.prefix(),
                scratch);
    }

    /** A client of the store with a connection pool of {@code maxConnections}; the endpoint is set by the caller. */
    private static S3ClientBuilder clientBuilder(
            StorageSettings settings, Region region, AwsCredentialsProvider credentials, int maxConnections) {
        return S3Client.builder()
                .region(region)
                .credentialsProvider(credentials)
                .forcePathStyle(settings.endpoint().isPresent())
                // Checksums only where S3 requires them: S3-compatible stores differ in the newer trailing checksums.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(ApacheHttpClient.builder()
                        .maxConnections(maxConnections)
                        .connectionTimeout(Duration.ofSeconds(3))
                        .socketTimeout(Duration.ofSeconds(30)));
    }

    @Override
    public StoredBlob write(String key, InputStream content, long maxBytes, String sizeField, boolean withSha256) {
        String objectKey = objectKey(key);
        MessageDigest digest = withSha256 ? sha256() : null;
        var crc = new CRC32C();
        byte[] buffer = new byte[PART_BYTES];
        long size = 0;
        String uploadId = null;
        List<CompletedPart> parts = new ArrayList<>();
        try {
            while (true) {
                int filled = fill(content, buffer);
                size += filled;
                if (size > maxBytes) {
                    throw new TooLarge(
                            sizeField,
                            "The " + sizeField + " is larger than the limit of " + maxBytes
                                    + " bytes; send it in smaller pieces.");
                }
                crc.update(buffer, 0, filled);
                if (digest != null) {
                    digest.update(buffer, 0, filled);
                }
                boolean last = filled < buffer.length;
                if (uploadId == null && last) {
                    // The whole blob fits in one part: one PUT, atomic by itself.
                    byte[] body = Arrays.copyOf(buffer, filled);
                    call(() -> client.putObject(
                            r -> r.bucket(bucket).key(objectKey).contentLength((long) filled),
                            RequestBody.fromBytes(body)));
                    break;
                }
                if (uploadId == null) {
                    uploadId = call(() -> client.createMultipartUpload(
                                    r -> r.bucket(bucket).key(objectKey))
                            .uploadId());
                }
                if (filled > 0 || parts.isEmpty()) {
                    int number = parts.size() + 1;
                    String id = uploadId;
                    byte[] body = filled == buffer.length ? buffer : Arrays.copyOf(buffer, filled);
                    String etag = call(() -> client.uploadPart(
                                    r -> r.bucket(bucket)
                                            .key(objectKey)
                                            .uploadId(id)
                                            .partNumber(number)
                                            .contentLength((long) filled),
                                    RequestBody.fromBytes(body))
                            .eTag());
                    parts.add(CompletedPart.builder()
                            .partNumber(number)
                            .eTag(etag)
                            .build());
                }
                if (last) {
                    String id = uploadId;
                    // Only now does the object exist, whole.
                    call(() -> client.completeMultipartUpload(
                            r -> r.bucket(bucket).key(objectKey).uploadId(id).multipartUpload(m -> m.parts(parts))));
                    uploadId = null;
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (uploadId != null) {
                abortQuietly(objectKey, uploadId);
            }
        }
        return new StoredBlob(
                key,
                size,
                Checksums.hex(crc),
                digest == null ? null : HexFormat.of().formatHex(digest.digest()));
    }

    @Override
    public void moveIn(String key, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            write(key, in, Long.MAX_VALUE, "file", false);
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public InputStream open(String key) {
        String objectKey = objectKey(key);
        try {
            return call(() -> client.getObject(r -> r.bucket(bucket).key(objectKey)));
        } catch (NoSuchKeyException e) {
            throw new UncheckedIOException(new NoSuchFileException(key));
        }
    }

    @Override
    public InputStream openForDownload(String key) {
        String objectKey = objectKey(key);
        try {
            return call(() -> downloads.getObject(r -> r.bucket(bucket).key(objectKey)));
        } catch (NoSuchKeyException e) {
            throw new UncheckedIOException(new NoSuchFileException(key));
        }
    }

    @Override
    public long size(String key) {
        String objectKey = objectKey(key);
        try {
            return call(() ->
                    client.headObject(r -> r.bucket(bucket).key(objectKey)).contentLength());
        } catch (NoSuchKeyException e) {
            throw new UncheckedIOException(new NoSuchFileException(key));
        }
    }

    @Override
    public Staged stage(String key) {
        String objectKey = objectKey(key);
        Path dir = scratch.newDirectory();
        Path file = dir.resolve(key.substring(key.lastIndexOf('/') + 1));
        try {
            call(() -> client.getObject(r -> r.bucket(bucket).key(objectKey), file));
            return new Staged(file, true);
        } catch (NoSuchKeyException e) {
            new Staged(file, true).close();
            throw new UncheckedIOException(new NoSuchFileException(key));
        } catch (RuntimeException e) {
            new Staged(file, true).close();
            throw e;
        }
    }

    @Override
    public Path scratchDirectory() {
        return scratch.newDirectory();
    }

    @Override
    public boolean exists(String key) {
        String objectKey = objectKey(key);
        try {
            call(() -> client.headObject(r -> r.bucket(bucket).key(objectKey)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }

    @Override
    public void delete(String key) {
        String objectKey = objectKey(key);
        call(() -> client.deleteObject(r -> r.bucket(bucket).key(objectKey)));
    }

    @Override
    public void deleteTree(String treePrefix) {
        String listed = objectKey(treePrefix) + "/";
        List<String> keys =
                call(() -> client.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(listed)).contents().stream()
                        .map(S3Object::key)
                        .toList());
        for (int from = 0; from < keys.size(); from += 1000) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + 1000));
            if (batchDeletes) {
                try {
                    List<ObjectIdentifier> ids = batch.stream()
                            .map(k -> ObjectIdentifier.builder().key(k).build())
                            .toList();
                    call(() -> client.deleteObjects(
                            r -> r.bucket(bucket).delete(d -> d.objects(ids).quiet(true))));
                    continue;
                } catch (S3Exception e) {
                    if (e.statusCode() != 501) {
                        throw e;
                    }
                    // Some S3-compatible stores lack the checksums the SDK sends with DeleteObjects: one by one from
                    // now on.
                    LOG.info(
                            "the object store does not take batch deletes ({}); deleting one object at a time",
                            e.getMessage());
                    batchDeletes = false;
                }
            }
            for (String k : batch) {
                call(() -> client.deleteObject(r -> r.bucket(bucket).key(k)));
            }
        }
    }

    /** Aborts multipart uploads a crash left, old enough that no live write can own them. */
    @Override
    public void removeLeftovers() {
        // The uploads' start times are the store's own, on the host's clock: compared with the host's clock too, not
        // the service's Clock (which a node may run offset, SCORECAST_CLOCK_OFFSET_SECONDS).
        removeLeftovers(Instant.now().minus(LEFTOVER_AGE));
    }

    @Override
    public void list(String treePrefix, BiConsumer<String, Instant> each) {
        String listed = objectKey(treePrefix) + "/";
        int strip = prefix.isEmpty() ? 0 : prefix.length() + 1;
        call(() -> {
            // A key ending in a slash is a folder marker some stores list (S3Proxy on files); blob keys never end so.
            client.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(listed)).contents().stream()
                    .filter(object -> !object.key().endsWith("/"))
                    .forEach(object -> each.accept(object.key().substring(strip), object.lastModified()));
            return null;
        });
    }

    /** Multipart uploads initiated before {@code before}: a live write of a part takes seconds, a whole blob minutes. */
    @Override
    public void removeLeftovers(Instant before) {
        try {
            var uploads = call(() -> client
                    .listMultipartUploadsPaginator(r -> r.bucket(bucket).prefix(prefix.isEmpty() ? null : prefix + "/"))
                    .uploads()
                    .stream()
                    .filter(u -> u.initiated() != null && u.initiated().isBefore(before))
                    .toList());
            uploads.forEach(u -> abortQuietly(u.key(), u.uploadId()));
        } catch (RuntimeException e) {
            // Not every S3-compatible store lists multipart uploads; a bucket lifecycle rule does the same.
            LOG.info(
                    "could not list unfinished multipart uploads in {} ({}); set a lifecycle rule to abort them",
                    bucket,
                    e.getMessage());
        }
    }

    @Override
    public void checkReachable() {
        call(() -> client.headBucket(r -> r.bucket(bucket)));
    }

    @Override
    public Optional<URI> presignedGet(String key, Duration lifetime, String contentType, String fileName) {
        String objectKey = objectKey(key);
        var request = presigner.presignGetObject(p -> p.signatureDuration(lifetime)
                .getObjectRequest(r -> r.bucket(bucket)
                        .key(objectKey)
                        .responseContentType(contentType)
                        .responseContentDisposition("inline; filename=\"" + fileName + "\"")));
        try {
            return Optional.of(request.url().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        presigner.close();
        client.close();
        if (downloads != client) {
            downloads.close();
        }
    }

    private String objectKey(String key) {
        if (key == null || !SAFE_KEY.matcher(key).matches() || key.contains("..")) {
            throw new IllegalArgumentException("unsafe blob key: " + key);
        }
        return prefix.isEmpty() ? key : prefix + "/" + key;
    }

    private void abortQuietly(String objectKey, String uploadId) {
        try {
            client.abortMultipartUpload(r -> r.bucket(bucket).key(objectKey).uploadId(uploadId));
        } catch (RuntimeException e) {
            LOG.warn(
                    "could not abort the multipart upload {} of {}; a bucket lifecycle rule or the next start removes it",
                    uploadId,
                    objectKey,
                    e);
        }
    }

    /**
     * Runs one store call, turning a store that cannot be reached (after the client's retries) or
     * that fails on its side into {@link Overloaded}: the request was fine, the store was not.
     */
    private static <T> T call(Supplier<T> request) {
        try {
            return request.get();
        } catch (NoSuchKeyException e) {
            throw e;
        } catch (SdkClientException e) {
            if (causedByIo(e)) {
                throw unavailable(e);
            }
            // Not the store's absence (credentials, configuration): a fault of this node, reported as it is.
            throw e;
        } catch (S3Exception e) {
            if (e.statusCode() >= 500 && e.statusCode() != 501) {
                throw unavailable(e);
            }
            throw e;
        }
    }

    private static boolean causedByIo(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    private static Overloaded unavailable(RuntimeException cause) {
        LOG.warn("object store call failed", cause);
        return new Overloaded(
                "The object store could not be reached (" + cause.getMessage()
                        + "); nothing was lost, try again in a few seconds.",
                Duration.ofSeconds(10));
    }

    /** Reads until {@code buffer} is full or the stream ends; returns how many bytes it holds. */
    private static int fill(InputStream in, byte[] buffer) throws IOException {
        int filled = 0;
        while (filled < buffer.length) {
            int read = in.read(buffer, filled, buffer.length - filled);
            if (read == -1) {
                break;
            }
            filled += read;
        }
        return filled;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
