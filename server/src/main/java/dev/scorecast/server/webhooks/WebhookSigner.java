package dev.scorecast.server.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code Scorecast-Signature} header: {@code t=UNIX,v1=HEX(HMAC-SHA256(secret, t + "." + body))},
 * the scheme Stripe made familiar. The time is signed with the body, so a receiver that refuses
 * signatures older than {@link #TOLERANCE} cannot be fed a recorded delivery again later.
 * docs/WEBHOOKS.md shows the same check in Java, TypeScript and Python.
 */
public final class WebhookSigner {
    public static final String HEADER = "Scorecast-Signature";
    /** How far a receiver should accept the signed time from its own clock, either way. */
    public static final Duration TOLERANCE = Duration.ofMinutes(5);

    private static final String ALGORITHM = "HmacSHA256";

    private WebhookSigner() {}

    /** The header value for {@code body} sent at {@code time}. */
    public static String header(String secret, Instant time, byte[] body) {
        long t = time.getEpochSecond();
        return "t=" + t + ",v1=" + hex(secret, t, body);
    }

    /**
     * Whether {@code header} signs {@code body} with {@code secret} at a time within {@code tolerance}
     * of {@code now}. Every {@code v1} is tried (a header may carry several while a secret is rolled).
     */
    public static boolean verify(String secret, String header, byte[] body, Instant now, Duration tolerance) {
        if (header == null) {
            return false;
        }
        Long t = null;
        var candidates = new ArrayList<String>();
        for (String part : header.split(",")) {
            String[] kv = part.strip().split("=", 2);
            if (kv.length != 2) {
                continue;
            }
            switch (kv[0]) {
                case "t" -> {
                    try {
                        t = Long.parseLong(kv[1]);
                    } catch (NumberFormatException e) {
                        return false;
                    }
                }
                case "v1" -> candidates.add(kv[1]);
                default -> {}
            }
        }
        if (t == null || Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
            return false;
        }
        byte[] expected = hex(secret, t, body).getBytes(StandardCharsets.US_ASCII);
        boolean match = false;
        for (String candidate : candidates) {
            match |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
        }
        return match;
    }

    private static String hex(String secret, long t, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            mac.update((t + ".").getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
    }
}
