package dev.scorecast.engine.interchange;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Markers of a CMX3600 EDL. Two ways editing programs write them: Avid-style locators, a comment
 * {@code * LOC: 01:00:04:00 RED     hit} (timecode, colour, name), and DaVinci Resolve's marker
 * export, one event per marker whose record-in is the marker's time, followed by
 * {@code  |C:ResolveColorBlue |M:hit |D:1}. Events without a marker line are the cut, not markers.
 * {@code FCM: DROP FRAME} makes every timecode drop-frame.
 */
final class EdlMarkers {
    private static final String TC = "(\\d{1,2}[:;.]\\d{2}[:;.]\\d{2}[:;.]\\d{2,3})";
    /** Edit number, reel, track, transition (a dissolve or wipe with its duration), source in/out, record in/out. */
    private static final Pattern EVENT =
            Pattern.compile("^\\s*(\\d{1,6})\\s+(\\S+)\\s+(\\S+)\\s+([A-Z]\\d*|W\\d+|K\\s*B?)\\s+(?:\\d+\\s+)?" + TC
                    + "\\s+" + TC + "\\s+" + TC + "\\s+" + TC + "\\s*$");

    private static final Pattern LOCATOR = Pattern.compile("^\\*\\s*LOC:\\s*(\\S+)\\s+(\\S+)\\s*(.*)$");
    private static final Pattern RESOLVE = Pattern.compile("\\|M:([^|]*)");

    private EdlMarkers() {}

    static List<MarkerFiles.Found> read(String text, FrameRate rate) {
        List<MarkerFiles.Found> out = new ArrayList<>();
        boolean drop = false;
        String recordIn = null;
        int eventLine = 0;
        String[] lines = text.split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int line = i + 1;
            String l = lines[i];
            String trimmed = l.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("TITLE:")) {
                continue;
            }
            if (trimmed.startsWith("FCM:")) {
                String mode = trimmed.substring(4).strip();
                if (!mode.equals("DROP FRAME") && !mode.equals("NON-DROP FRAME")) {
                    throw new MarkerFormatException(
                            line, "FCM", "'" + mode + "' is neither DROP FRAME nor NON-DROP FRAME");
                }
                drop = mode.equals("DROP FRAME");
                continue;
            }
            Matcher loc = LOCATOR.matcher(trimmed);
            if (loc.matches()) {
                long frame = Timecode.frames(loc.group(1), rate, drop, line, "LOC timecode");
                out.add(MarkerFiles.Found.atFrame(
                        frame,
                        drop || loc.group(1).contains(";"),
                        MarkerFiles.kindOf(loc.group(3), null),
                        line,
                        "LOC timecode"));
                continue;
            }
            if (trimmed.startsWith("*")) {
                continue; // FROM CLIP NAME, SOURCE FILE and other comments
            }
            if (trimmed.startsWith("|") || trimmed.contains("|M:")) {
                Matcher name = RESOLVE.matcher(trimmed);
                if (name.find()) {
                    if (recordIn == null) {
                        throw new MarkerFormatException(
                                line, "|M:", "a marker line with no event before it; each follows its event");
                    }
                    long frame = Timecode.frames(recordIn, rate, drop, eventLine, "record in");
                    out.add(MarkerFiles.Found.atFrame(
                            frame,
                            drop || recordIn.contains(";"),
                            MarkerFiles.kindOf(name.group(1), null),
                            eventLine,
                            "record in"));
                }
                continue;
            }
            if (Character.isDigit(trimmed.charAt(0))) {
                Matcher event = EVENT.matcher(l);
                if (!event.matches()) {
                    throw new MarkerFormatException(
                            line,
                            "event",
                            "'" + trimmed + "' is not a CMX3600 event (edit, reel, track,"
                                    + " transition, source in, source out, record in, record out)");
                }
                // Checked now, so a bad timecode is reported on its own line even when no marker follows.
                Timecode.frames(event.group(5), rate, drop, line, "source in");
                Timecode.frames(event.group(6), rate, drop, line, "source out");
                Timecode.frames(event.group(7), rate, drop, line, "record in");
                Timecode.frames(event.group(8), rate, drop, line, "record out");
                recordIn = event.group(7);
                eventLine = line;
                continue;
            }
            if (trimmed.startsWith("M2")
                    || trimmed.startsWith("SPLIT")
                    || trimmed.startsWith("AUD")
                    || trimmed.startsWith(">>>")) {
                continue; // motion effects, splits, audio channels, Avid's own notes
            }
            throw new MarkerFormatException(line, null, "'" + trimmed + "' is not part of a CMX3600 EDL");
        }
        return out;
    }
}
