package dev.scorecast.server.downloads;

import dev.scorecast.engine.error.NotFound;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed, expiring links to an execution's outputs, so that a browser, a video player or curl can
 * fetch them without the API key (which a link must never carry). The signature is an HMAC of
 * the path and the expiry under a secret kept in the data directory, so links stay valid across
 * restarts and across processes sharing that directory.
 */
public final class DownloadLinks {
    public static final String PREFIX = "/files/";
    static final Duration LIFETIME = Duration.ofDays(7);
    private static final String ALGORITHM = "HmacSHA256";

    private final Supplier<String> publicUrl;
    private final byte[] secret;
    private final Clock clock;

    /** {@code publicUrl} is asked at each link, since a server on port 0 knows its port only once it listens. */
    public DownloadLinks(Supplier<String> publicUrl, Path dataDir, Clock clock) {
        this.publicUrl = publicUrl;
        this.secret = loadOrCreateSecret(dataDir.resolve("secrets/download-links.key"));
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

    private static byte[] loadOrCreateSecret(Path file) {
        try {
            if (Files.exists(file)) {
                return Files.readAllBytes(file);
            }
            Files.createDirectories(file.getParent());
            byte[] fresh = new byte[32];
            new SecureRandom().nextBytes(fresh);
            Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(temp, fresh, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
            try {
                Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                Files.deleteIfExists(temp);
            }
            // Another process may have won the race; everyone uses whatever landed.
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
