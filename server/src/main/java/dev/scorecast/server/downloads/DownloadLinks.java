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
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed, expiring links to an execution's outputs, so that a browser, a video player or curl can
 * fetch them without the API key (which a link must never carry). The signature is an HMAC of
 * the path and the expiry under a secret every node shares (from the database or the environment,
 * see {@link dev.scorecast.server.db.SharedSecrets}), so a link signed by one node verifies on any
 * other and across restarts.
 *
 * <p>A link made for a request that came with an API key carries the key's id ({@code key=}, signed
 * with the rest), and stops working as soon as that key is revoked; a link made outside a request
 * (results.json, a webhook payload) carries the key its execution was started with. The secret can be rotated
 * ({@code scorecast keys rotate-link-secret}): links are then signed with the new one, and the
 * previous one still verifies until the overlap it was given ends, so links handed out just before
 * keep working for that long (by default their lifetime).
 */
public final class DownloadLinks {
    /** The name of the secret in {@code shared_secrets}. */
    public static final String SECRET_NAME = "download-links";

    public static final String PREFIX = "/files/";
    static final Duration LIFETIME = Duration.ofDays(7);
    private static final String ALGORITHM = "HmacSHA256";

    /** The name in {@code shared_secrets} of the secret a rotation replaced, and when it stops verifying. */
    public static final String PREVIOUS_SECRET_NAME = SECRET_NAME + ".previous";

    /**
     * The secrets links are checked against: {@code current} signs; {@code previous} (may be null)
     * still verifies until {@code previousUntil}.
     */
    public record Secrets(byte[] current, byte[] previous, Instant previousUntil) {
        public Secrets {
            if (current.length < 16) {
                throw new IllegalArgumentException("a link secret needs at least 16 bytes");
            }
        }
    }

    /** The API key the current request came with, set around each authenticated request: the links it makes carry it. */
    private static final ThreadLocal<String> ISSUER = new ThreadLocal<>();

    private final Supplier<String> publicUrl;
    private final Supplier<Secrets> secrets;
    private final Predicate<String> revoked;
    private final Clock clock;

    /** {@code publicUrl} is asked at each link, since a server on port 0 knows its port only once it listens. */
    public DownloadLinks(Supplier<String> publicUrl, byte[] secret, Clock clock) {
        this(publicUrl, fixed(new Secrets(secret.clone(), null, null)), keyId -> false, clock);
    }

    /**
     * Links under {@code secrets} (asked at each link and check: a rotation reaches every node), refused
     * when they carry a key {@code revoked} says was revoked.
     */
    public DownloadLinks(
            Supplier<String> publicUrl, Supplier<Secrets> secrets, Predicate<String> revoked, Clock clock) {
        this.publicUrl = publicUrl;
        this.secrets = secrets;
        this.revoked = revoked;
        this.clock = clock;
    }

    private static Supplier<Secrets> fixed(Secrets secrets) {
        return () -> secrets;
    }

    /** Links made on this thread from now on carry {@code keyId} (null: none), until {@link #clearIssuer}. */
    public static void issuer(String keyId) {
        ISSUER.set(keyId);
    }

    public static void clearIssuer() {
        ISSUER.remove();
    }

    /** A link to {@code name} of execution {@code executionId}, valid for {@link #LIFETIME}, carrying the current request's key. */
    public String link(String executionId, String name) {
        return link(executionId, name, null);
    }

    /**
     * As {@link #link(String, String)}; made outside a request (no key on this thread: a job, a webhook delivery), it carries
     * {@code madeWith}, the key the execution was started with (null: none).
     */
    public String link(String executionId, String name, String madeWith) {
        long expires = clock.instant().plus(LIFETIME).getEpochSecond();
        String path = PREFIX + executionId + "/" + name;
        String key = ISSUER.get() != null ? ISSUER.get() : madeWith;
        return publicUrl.get() + path + "?expires=" + expires + (key == null ? "" : "&key=" + key) + "&signature="
                + sign(current(), path, expires, key);
    }

    /**
     * As {@link #link(String, String, String, Duration)}, carrying the current request's key, so that
     * revoking the key ends the link; {@link #verify(String, String, String, String)} checks it.
     */
    public String keyedLink(String urlPath, String query, String signedPath, Duration lifetime) {
        long expires = clock.instant().plus(lifetime).getEpochSecond();
        String key = ISSUER.get();
        return publicUrl.get() + urlPath + "?" + query + "&expires=" + expires + (key == null ? "" : "&key=" + key)
                + "&signature=" + sign(current(), signedPath, expires, key);
    }

    /**
     * A link to {@code urlPath?query} whose signature covers {@code signedPath} (what the link
     * opens, e.g. one live stream), valid for {@code lifetime}.
     */
    public String link(String urlPath, String query, String signedPath, Duration lifetime) {
        long expires = clock.instant().plus(lifetime).getEpochSecond();
        return publicUrl.get() + urlPath + "?" + query + "&expires=" + expires + "&signature="
                + sign(current(), signedPath, expires, null);
    }

    /** Checks a request for {@code path} whose link carries no key; see {@link #verify(String, String, String, String)}. */
    public void verify(String path, String expires, String signature) {
        verify(path, expires, null, signature);
    }

    /**
     * Checks a request for {@code path} with the link's {@code key} (null when it has none); a wrong,
     * missing or expired signature is a 404 (the link does not exist), and so is a link whose key was revoked.
     */
    public void verify(String path, String expires, String key, String signature) {
        long expiry;
        try {
            expiry = Long.parseLong(expires == null ? "" : expires);
        } catch (NumberFormatException e) {
            throw notFound();
        }
        if (signature == null || !signedByAny(path, expiry, key, signature.getBytes(StandardCharsets.US_ASCII))) {
            throw notFound();
        }
        if (clock.instant().getEpochSecond() > expiry) {
            throw new NotFound(
                    "expires", "This download link expired; call the status operation again for fresh links.");
        }
        if (key != null && revoked.test(key)) {
            throw new NotFound(
                    "key",
                    "The API key this link was made with has been revoked; fetch a fresh link with a valid key.");
        }
    }

    /** Whether the current secret, or the previous one while its overlap lasts, made {@code signature}. */
    private boolean signedByAny(String path, long expiry, String key, byte[] signature) {
        Secrets now = secrets.get();
        if (MessageDigest.isEqual(
                sign(now.current(), path, expiry, key).getBytes(StandardCharsets.US_ASCII), signature)) {
            return true;
        }
        return now.previous() != null
                && now.previousUntil() != null
                && clock.instant().isBefore(now.previousUntil())
                && MessageDigest.isEqual(
                        sign(now.previous(), path, expiry, key).getBytes(StandardCharsets.US_ASCII), signature);
    }

    private byte[] current() {
        return secrets.get().current();
    }

    private static NotFound notFound() {
        return new NotFound("signature", "No such file; use the links exactly as the status operation returned them.");
    }

    /** The signature of a link; a key, when the link carries one, is signed with the rest (so it cannot be taken off). */
    private static String sign(byte[] secret, String path, long expires, String key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
            byte[] digest = mac.doFinal(
                    (path + "\n" + expires + (key == null ? "" : "\n" + key)).getBytes(StandardCharsets.UTF_8));
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
