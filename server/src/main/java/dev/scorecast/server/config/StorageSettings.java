package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * Where files live: {@code file:} (the data directory's {@code files/}, one machine) or
 * {@code s3://BUCKET/PREFIX} (any S3-compatible store, shared by every node). Credentials come from
 * the standard {@code AWS_*} variables, never from here.
 *
 * @param bucket     empty for the local store
 * @param prefix     key prefix inside the bucket, without leading or trailing slash (may be empty)
 * @param endpoint   a non-AWS store's base URL (path-style access), empty for AWS itself
 * @param region     the signing region (AWS_REGION, us-east-1 when unset)
 * @param presignedDownloads whether a download link answers with a redirect to a presigned URL of the store
 * @param credentials AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) when set; empty for the
 *                    AWS SDK's own chain (profile files, instance roles)
 */
public record StorageSettings(
        Optional<String> bucket,
        String prefix,
        Optional<URI> endpoint,
        String region,
        boolean presignedDownloads,
        Optional<Credentials> credentials) {

    /** An access key; {@link #toString()} never shows the secret. */
    public record Credentials(String accessKeyId, String secretAccessKey, Optional<String> sessionToken) {
        @Override
        public String toString() {
            return "Credentials[" + accessKeyId + "]";
        }
    }

    public boolean isS3() {
        return bucket.isPresent();
    }

    /** How the store is shown in logs: never a credential. */
    public String describe() {
        return bucket.map(b -> "s3://" + b + (prefix.isEmpty() ? "" : "/" + prefix)
                        + endpoint.map(e -> " at " + e).orElse(""))
                .orElse("the data directory");
    }

    static StorageSettings from(Settings settings) {
        String url = settings.string("SCORECAST_STORAGE_URL", "file:");
        // On S3 a link answers with a redirect to the store by default: a node streaming downloads holds a connection
        // each.
        String downloads =
                settings.string("SCORECAST_PUBLIC_DOWNLOADS", url.startsWith("s3://") ? "presigned" : "proxied");
        boolean presigned = switch (downloads) {
            case "proxied" -> false;
            case "presigned" -> true;
            default ->
                throw new InvalidParameter(
                        "SCORECAST_PUBLIC_DOWNLOADS",
                        "SCORECAST_PUBLIC_DOWNLOADS must be proxied (files stream through the API nodes) or presigned (a redirect to the store), not \""
                                + downloads + "\".");
        };
        String region = settings.string("AWS_REGION", settings.string("AWS_DEFAULT_REGION", "us-east-1"));
        Optional<URI> endpoint = Optional.of(settings.string("SCORECAST_S3_ENDPOINT", ""))
                .filter(s -> !s.isEmpty())
                .map(StorageSettings::endpoint);
        Optional<Credentials> credentials = Optional.empty();
        String keyId = settings.string("AWS_ACCESS_KEY_ID", "");
        String secret = settings.string("AWS_SECRET_ACCESS_KEY", "");
        if (!keyId.isEmpty() && !secret.isEmpty()) {
            credentials = Optional.of(new Credentials(
                    keyId,
                    secret,
                    Optional.of(settings.string("AWS_SESSION_TOKEN", "")).filter(t -> !t.isEmpty())));
        }
        if (url.equals("file:") || url.equals("file")) {
            if (presigned) {
                throw new InvalidParameter(
                        "SCORECAST_PUBLIC_DOWNLOADS",
                        "SCORECAST_PUBLIC_DOWNLOADS=presigned needs an s3:// SCORECAST_STORAGE_URL.");
            }
            return new StorageSettings(Optional.empty(), "", endpoint, region, false, credentials);
        }
        if (!url.startsWith("s3://")) {
            throw new InvalidParameter(
                    "SCORECAST_STORAGE_URL",
                    "SCORECAST_STORAGE_URL must be file: (the data directory) or s3://BUCKET/PREFIX, not \"" + url
                            + "\".");
        }
        String rest = url.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1).replaceAll("^/+|/+$", "");
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")
                || !prefix.matches("[A-Za-z0-9_./-]*")
                || prefix.contains("..")) {
            throw new InvalidParameter(
                    "SCORECAST_STORAGE_URL",
                    "SCORECAST_STORAGE_URL must name a bucket (3 to 63 lowercase letters, digits, dots, dashes) and an optional prefix of"
                            + " letters, digits, _ . / -, as in s3://scorecast/prod, not \"" + url + "\".");
        }
        return new StorageSettings(Optional.of(bucket), prefix, endpoint, region, presigned, credentials);
    }

    private static URI endpoint(String text) {
        try {
            URI uri = new URI(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new InvalidParameter(
                "SCORECAST_S3_ENDPOINT",
                "SCORECAST_S3_ENDPOINT must be an http:// or https:// URL such as http://127.0.0.1:9000, not \"" + text
                        + "\".");
    }
}
