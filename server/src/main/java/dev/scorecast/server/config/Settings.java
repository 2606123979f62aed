package dev.scorecast.server.config;

import dev.scorecast.engine.error.InvalidParameter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** Typed reads of environment variables, each failing with a message that names the variable. */
final class Settings {
    private final Map<String, String> env;

    Settings(Map<String, String> env) {
        this.env = env;
    }

    String string(String name, String fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : value.strip();
    }

    Path path(String name, Path fallback) {
        String value = env.get(name);
        return value == null || value.isBlank() ? fallback : Path.of(value.strip());
    }

    int integer(String name, int fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new InvalidParameter(name, name + " must be a whole number, not \"" + value + "\".");
        }
    }

    /** true or false (also 1/0, yes/no), failing with the variable's name on anything else. */
    boolean flag(String name, boolean fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new InvalidParameter(name, name + " must be true or false, not \"" + value + "\".");
        };
    }

    /** A byte count: plain digits, or digits followed by KiB, MiB or GiB. */
    long bytes(String name, long fallback) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        String text = value.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        for (var suffix :
                Map.of("kib", 1L << 10, "mib", 1L << 20, "gib", 1L << 30).entrySet()) {
            if (text.endsWith(suffix.getKey())) {
                unit = suffix.getValue();
                text = text.substring(0, text.length() - suffix.getKey().length())
                        .strip();
            }
        }
        try {
            long count = Long.parseLong(text);
            if (count < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(count, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidParameter(
                    name, name + " must be a byte count such as 33554432 or 32MiB, not \"" + value + "\".");
        }
    }
}
