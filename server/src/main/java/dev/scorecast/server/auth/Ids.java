package dev.scorecast.server.auth;

import java.security.SecureRandom;
import java.util.Locale;

/** Unguessable identifiers: a readable prefix and 130 random bits in lowercase base32. */
public final class Ids {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private Ids() {}

    public static String next(String prefix) {
        return prefix + "_" + randomBase32(26);
    }

    /** 160 random bits in lowercase base32, for secrets. */
    public static String secret() {
        return randomBase32(32);
    }

    static String randomBase32(int length) {
        var text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        return text.toString();
    }

    /** True when {@code text} could be an id with this prefix; anything else is a plain 404. */
    public static boolean looksLike(String prefix, String text) {
        return text != null
                && text.length() == prefix.length() + 27
                && text.startsWith(prefix + "_")
                && text.substring(prefix.length() + 1)
                        .toLowerCase(Locale.ROOT)
                        .equals(text.substring(prefix.length() + 1));
    }
}
