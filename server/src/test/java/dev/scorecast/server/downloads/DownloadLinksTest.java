package dev.scorecast.server.downloads;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.NotFound;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Links carry the key they were made for and die with it; a rotated secret verifies old links for
 * its overlap and no longer. Before, links carried no key (revoking one left every link it had
 * fetched working for 7 days) and the secret could not be rotated without killing every link at once.
 */
class DownloadLinksTest {
    private static final byte[] OLD = "0123456789abcdef0123456789abcdef".getBytes();
    private static final byte[] NEW = "fedcba9876543210fedcba9876543210".getBytes();
    private final Set<String> revoked = ConcurrentHashMap.newKeySet();

    @AfterEach
    void clear() {
        DownloadLinks.clearIssuer();
    }

    @Test
    void aLinkMadeWithAKeyStopsWorkingWhenTheKeyIsRevoked() {
        DownloadLinks links = new DownloadLinks(
                () -> "http://node",
                () -> new DownloadLinks.Secrets(OLD, null, null),
                revoked::contains,
                Clock.fixed(Instant.parse("2026-11-27T10:00:00Z"), ZoneOffset.UTC));
        DownloadLinks.issuer("abcdefghijkl");
        Map<String, String> q = query(links.link("exe_1", "video.mp4"));
        assertEquals("abcdefghijkl", q.get("key"));
        assertDoesNotThrow(
                () -> links.verify("/files/exe_1/video.mp4", q.get("expires"), q.get("key"), q.get("signature")));
        // The key cannot be taken off or swapped: it is signed.
        assertThrows(
                NotFound.class,
                () -> links.verify("/files/exe_1/video.mp4", q.get("expires"), null, q.get("signature")));
        assertThrows(
                NotFound.class,
                () -> links.verify("/files/exe_1/video.mp4", q.get("expires"), "bbbbbbbbbbbb", q.get("signature")));
        revoked.add("abcdefghijkl");
        NotFound gone = assertThrows(
                NotFound.class,
                () -> links.verify("/files/exe_1/video.mp4", q.get("expires"), q.get("key"), q.get("signature")));
        assertEquals("key", gone.field());
    }

    @Test
    void aRotatedSecretVerifiesOldLinksForItsOverlapOnly() {
        Instant rotatedAt = Instant.parse("2026-11-27T10:00:00Z");
        MutableClock clock = new MutableClock(rotatedAt);
        DownloadLinks.Secrets[] secrets = {new DownloadLinks.Secrets(OLD, null, null)};
        DownloadLinks links = new DownloadLinks(() -> "http://node", () -> secrets[0], revoked::contains, clock);
        Map<String, String> old = query(links.link("exe_1", "video.mp4"));
        secrets[0] = new DownloadLinks.Secrets(NEW, OLD, rotatedAt.plus(Duration.ofHours(24)));
        Map<String, String> fresh = query(links.link("exe_1", "video.mp4"));
        assertTrue(!old.get("signature").equals(fresh.get("signature")), "new links are signed with the new secret");
        clock.now = rotatedAt.plus(Duration.ofHours(23));
        assertDoesNotThrow(() -> links.verify("/files/exe_1/video.mp4", old.get("expires"), old.get("signature")));
        assertDoesNotThrow(() -> links.verify("/files/exe_1/video.mp4", fresh.get("expires"), fresh.get("signature")));
        clock.now = rotatedAt.plus(Duration.ofHours(25));
        assertThrows(
                NotFound.class, () -> links.verify("/files/exe_1/video.mp4", old.get("expires"), old.get("signature")));
        assertDoesNotThrow(() -> links.verify("/files/exe_1/video.mp4", fresh.get("expires"), fresh.get("signature")));
    }

    private static Map<String, String> query(String link) {
        Map<String, String> out = new HashMap<>();
        for (String pair : URI.create(link).getRawQuery().split("&")) {
            int eq = pair.indexOf('=');
            out.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return out;
    }

    private static final class MutableClock extends Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
