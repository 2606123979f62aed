package dev.scorecast.engine.sampler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the SFZ text format into its regions, each the opcodes it inherits from its
 * {@code <global>}, {@code <master>} and {@code <group>} headers with its own on top; {@code <control>}
 * gives {@code default_path}, and {@code #define $NAME value} substitutions are applied. Which
 * opcodes mean something is the {@link Zone}'s business; this only parses.
 *
 * <p>Values run to the next opcode on the line, so a sample name may hold spaces, as in SFZ.
 */
final class Sfz {
    private Sfz() {}

    /** The regions of {@code text}, each a map of opcode to value, in file order. */
    static List<Map<String, String>> regions(String text, String where) {
        Map<String, String> control = new HashMap<>();
        Map<String, String> global = new HashMap<>();
        Map<String, String> master = new HashMap<>();
        Map<String, String> group = new HashMap<>();
        Map<String, String> current = null;
        String header = null;
        Map<String, String> defines = new LinkedHashMap<>();
        List<Map<String, String>> regions = new ArrayList<>();
        int lineNo = 0;
        for (String raw : text.split("\r?\n")) {
            lineNo++;
            String line = stripComment(raw).strip();
            if (line.startsWith("#define")) {
                String[] p = line.split("\\s+", 3);
                if (p.length == 3) {
                    defines.put(p[1], p[2].strip());
                }
                continue;
            }
            for (var d : defines.entrySet()) {
                line = line.replace(d.getKey(), d.getValue());
            }
            int i = 0;
            while (i < line.length()) {
                char c = line.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                    continue;
                }
                if (c == '<') {
                    int end = line.indexOf('>', i);
                    if (end < 0) {
                        throw new IllegalArgumentException(where + ":" + lineNo + ": a header without '>'");
                    }
                    header = line.substring(i + 1, end).strip();
                    switch (header) {
                        case "control" -> current = control;
                        case "global" -> {
                            global = new HashMap<>();
                            master = new HashMap<>();
                            group = new HashMap<>();
                            current = global;
                        }
                        case "master" -> {
                            master = new HashMap<>(global);
                            group = new HashMap<>(master);
                            current = master;
                        }
                        case "group" -> {
                            group = new HashMap<>(master.isEmpty() ? global : master);
                            current = group;
                        }
                        case "region" -> {
                            Map<String, String> r =
                                    new HashMap<>(group.isEmpty() ? (master.isEmpty() ? global : master) : group);
                            if (control.containsKey("default_path")) {
                                r.put("default_path", control.get("default_path"));
                            }
                            regions.add(r);
                            current = r;
                        }
                        default -> current = new HashMap<>(); // headers this subset ignores (<curve>, <effect>)
                    }
                    i = end + 1;
                    continue;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0 || current == null) {
                    throw new IllegalArgumentException(where + ":" + lineNo
                            + ": expected opcode=value after a header, got '" + line.substring(i) + "'");
                }
                String key = line.substring(i, eq).strip();
                int next = nextOpcode(line, eq + 1);
                current.put(key, line.substring(eq + 1, next).strip());
                i = next;
            }
        }
        return regions;
    }

    /** Where the value that starts at {@code from} ends: before the next {@code name=} or header. */
    private static int nextOpcode(String line, int from) {
        int i = from;
        while (i < line.length()) {
            if (line.charAt(i) == '<') {
                return i;
            }
            if (Character.isWhitespace(line.charAt(i))) {
                int j = i;
                while (j < line.length() && Character.isWhitespace(line.charAt(j))) {
                    j++;
                }
                int k = j;
                while (k < line.length() && (Character.isLetterOrDigit(line.charAt(k)) || line.charAt(k) == '_')) {
                    k++;
                }
                if (k > j && k < line.length() && line.charAt(k) == '=') {
                    return i;
                }
                if (j < line.length() && line.charAt(j) == '<') {
                    return i;
                }
                i = j;
                continue;
            }
            i++;
        }
        return line.length();
    }

    private static String stripComment(String line) {
        int c = line.indexOf("//");
        return c < 0 ? line : line.substring(0, c);
    }
}
