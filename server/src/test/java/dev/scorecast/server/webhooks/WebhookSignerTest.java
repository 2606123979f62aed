package dev.scorecast.server.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The signature scheme against a vector computed elsewhere (Python's hmac), and what a receiver's check refuses. */
class WebhookSignerTest {
    private static final byte[] BODY = "{\"id\":\"evt_1\",\"type\":\"webhook.test\"}".getBytes(StandardCharsets.UTF_8);
    private static final Instant T = Instant.ofEpochSecond(1_700_000_000L);

    @Test
    void matchesTheDocumentedSchemeComputedByPython() {
        // python3 -c "import hmac,hashlib; print(hmac.new(b'whsec_test', b'1700000000.' + BODY,
        // hashlib.sha256).hexdigest())"
        assertEquals(
                "t=1700000000,v1=684fbc8999ff13aa332102c10e23ad56af8cb3b34c5d3bcba8bf53317e5f6c33",
                WebhookSigner.header("whsec_test", T, BODY));
    }

    @Test
    void verificationRefusesATamperedBodyAWrongSecretAndAnOldTime() {
        String header = WebhookSigner.header("whsec_test", T, BODY);
        Duration tolerance = WebhookSigner.TOLERANCE;
        assertTrue(WebhookSigner.verify("whsec_test", header, BODY, T.plusSeconds(299), tolerance));
        assertTrue(
                WebhookSigner.verify("whsec_test", header, BODY, T.minusSeconds(299), tolerance),
                "a receiver's clock a little behind");
        assertFalse(WebhookSigner.verify("whsec_test", header, BODY, T.plusSeconds(301), tolerance), "replayed later");
        assertFalse(WebhookSigner.verify("whsec_other", header, BODY, T, tolerance));
        byte[] tampered = BODY.clone();
        tampered[5] ^= 1;
        assertFalse(WebhookSigner.verify("whsec_test", header, tampered, T, tolerance));
        assertFalse(
                WebhookSigner.verify("whsec_test", header.replace("t=1700000000", "t=1700000001"), BODY, T, tolerance),
                "the time is signed with the body");
        assertFalse(
                WebhookSigner.verify(
                        "whsec_test", "v1=" + header.substring(header.indexOf("v1=") + 3), BODY, T, tolerance),
                "no time");
        assertFalse(WebhookSigner.verify("whsec_test", null, BODY, T, tolerance));
        assertTrue(
                WebhookSigner.verify("whsec_test", header + ",v1=" + "0".repeat(64), BODY, T, tolerance),
                "one of several signatures matching is enough (a secret being rolled)");
    }
}
