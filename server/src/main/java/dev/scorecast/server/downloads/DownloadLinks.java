package dev.scorecast.server.downloads;

import dev.scorecast.engine.error.NotFound;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed, expiring links to an execution's outputs, so that a browser, a video player or curl can
 * fetch them without the API key (which a link must never carry). The signature is an HMAC of
 * the path and the expiry under a secret every node shares (from the database or the environment,
 * see {@link dev.scorecast.server.db.SharedSecrets}), so a link signed by one node verifies on any
 * other and across restarts.
 */
public final class DownloadLinks {
    /** The name of the secret in {@code shared_secrets}. */
    public static final String SECRET_NAME = "download-links";
    public static final String PREFIX = "/files/";
    static final Duration LIFETIME = Duration.ofDays(7);
    private static final String ALGORITHM = "HmacSHA256";

    private final Supplier<String> publicUrl;
    private final byte[] secret;
    private final Clock clock;

    /** {@code publicUrl} is asked at each link, since a server on port 0 knows its port only once it listens. */
    public DownloadLinks(Supplier<String> publicUrl, byte[] secret, Clock clock) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("a link secret needs at least 16 bytes");
        }
        this.publicUrl = publicUrl;
        this.secret = secret.clone();
        this.clock = clock;
    }

    /** A link to {@code name} of execution {@code executionId}, valid for {@link #LIFETIME}. */
    public String link(String executionId, String name) {
        long expires = clock.instant().plus(LIFETIME).getEpochSecond();
        String path = PREFIX + executionId + "/" + name;
        return publicUrl.get() + path + "?expires=" + expires + "&signature=" + sign(path, expires);
    }

    /**
     * A link to {@code urlPath?query} whose signature covers {@code signedPath} (what the link
     * opens, e.g. one live stream), valid for {@code lifetime}.
     */
    public String link(String urlPath, String query, String signedPath, Duration lifetime) {
        long expires = clock.instant().plus(lifetime).getEpochSecond();
        return publicUrl.get() + urlPath + "?" + query + "&expires=" + expires + "&signature=" + sign(signedPath, expires);
    }

    /** Checks a request for {@code path}; a wrong, missing or expired signature is a 404 (the link does not exist). */
    public void verify(String path, String expires, String signature) {
        long expiry;
        try {
            expiry = Long.parseLong(expires == null ? "" : expires);
        } catch (NumberFormatException e) {
            throw notFound();
        }
        if (signature == null || !MessageDigest.isEqual(sign(path, expiry).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII))) {
            throw notFound();
        }
        if (clock.instant().getEpochSecond() > expiry) {
            throw new NotFound("expires", "This download link expired; call the status operation again for fresh links.");
        }
    }

    private static NotFound notFound() {
        return new NotFound("signature", "No such file; use the links exactly as the status operation returned them.");
    }

    private String sign(String path, long expires) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            byte[] digest = mac.doFinal((path + "\n" + expires).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }

    /**
     * The secret of an installation from before secrets moved into the database (one node's
     * {@code secrets/download-links.key}), so links handed out then keep working after the upgrade.
     */
    public static Optional<byte[]> legacySecret(Path dataDir) {
        Path file = dataDir.resolve("secrets/download-links.key");
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
