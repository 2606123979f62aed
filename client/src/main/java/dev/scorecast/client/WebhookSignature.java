package dev.scorecast.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Checks a webhook delivery's {@code Scorecast-Signature} header ({@code t=UNIX,v1=HEX}), as
 * docs/WEBHOOKS.md describes: HMAC-SHA256 keyed with the endpoint's secret over {@code t + "." +
 * body}, compared in constant time, and refused when {@code t} is more than the tolerance (300 s by
 * default) from the receiver's clock.
 */
public final class WebhookSignature {
    public static final String HEADER = "Scorecast-Signature";
    public static final Duration TOLERANCE = Duration.ofSeconds(300);

    private WebhookSignature() {}

    /** True when {@code header} signs {@code body} (the raw bytes received) with {@code secret}, now. */
    public static boolean verify(String secret, String header, byte[] body) {
        return verify(secret, header, body, Instant.now(), TOLERANCE);
    }

    public static boolean verify(String secret, String header, byte[] body, Instant now, Duration tolerance) {
        if (secret == null || header == null || body == null) {
            return false;
        }
        long t = -1;
        List<String> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] kv = part.strip().split("=", 2);
            if (kv.length != 2) {
                continue;
            }
            if (kv[0].equals("t")) {
                try {
                    t = Long.parseLong(kv[1]);
                } catch (NumberFormatException e) {
                    return false;
                }
            } else if (kv[0].equals("v1")) {
                signatures.add(kv[1]);
            }
        }
        if (t < 0 || Math.abs(now.getEpochSecond() - t) > tolerance.toSeconds()) {
            return false;
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
            expected = HexFormat.of().formatHex(mac.doFinal(body)).getBytes(StandardCharsets.UTF_8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every JDK", e);
        }
        boolean match = false;
        for (String signature : signatures) {
            match |= MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.UTF_8));
        }
        return match;
    }
}
