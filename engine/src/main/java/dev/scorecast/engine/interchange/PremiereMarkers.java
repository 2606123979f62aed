package dev.scorecast.engine.interchange;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Premiere Pro's marker list (File > Export > Markers, CSV): a header row naming the columns
 * ({@code Marker Name}, {@code Description}, {@code In}, {@code Out}, {@code Duration},
 * {@code Marker Type}), then a row per marker. Separated by tabs or commas (either is read),
 * quoted fields as RFC 4180. The marker's time is its {@code In} timecode.
 */
final class PremiereMarkers {
    private PremiereMarkers() {}

    static List<MarkerFiles.Found> read(String text, FrameRate rate) {
        String[] lines = text.split("\r\n|\r|\n", -1);
        int headerLine = 0;
        while (headerLine < lines.length && lines[headerLine].isBlank()) {
            headerLine++;
        }
        char separator = lines[headerLine].indexOf('\t') >= 0 ? '\t' : ',';
        List<String> header = fields(lines[headerLine], separator, headerLine + 1);
        int name = column(header, "marker name");
        int description = column(header, "description");
        int in = column(header, "in");
        if (in < 0) {
            throw new MarkerFormatException(
                    headerLine + 1,
                    "In",
                    "the header names no In column; export the markers from Premiere"
                            + " Pro (File > Export > Markers) or add one (In: the marker's timecode)");
        }
        List<MarkerFiles.Found> out = new ArrayList<>();
        for (int i = headerLine + 1; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            int line = i + 1;
            List<String> row = fields(lines[i], separator, line);
            if (row.size() <= in) {
                throw new MarkerFormatException(
                        line,
                        "In",
                        "the row has " + row.size() + " fields and no In; it needs the header's " + header.size());
            }
            long frame = Timecode.frames(row.get(in), rate, line, "In");
            String markerName = name >= 0 && name < row.size() ? row.get(name) : null;
            String note = description >= 0 && description < row.size() ? row.get(description) : null;
            out.add(MarkerFiles.Found.atFrame(
                    frame, row.get(in).contains(";"), MarkerFiles.kindOf(markerName, note), line, "In"));
        }
        return out;
    }

    private static int column(List<String> header, String name) {
        for (int i = 0; i < header.size(); i++) {
            if (header.get(i).strip().toLowerCase(Locale.ROOT).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** One row's fields; a quoted field may hold the separator and doubled quotes. */
    static List<String> fields(String line, char separator, int lineNumber) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"' && field.isEmpty()) {
                quoted = true;
            } else if (c == separator) {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new MarkerFormatException(lineNumber, "field " + (out.size() + 1), "a quoted field is not closed");
        }
        out.add(field.toString());
        return out;
    }
}
