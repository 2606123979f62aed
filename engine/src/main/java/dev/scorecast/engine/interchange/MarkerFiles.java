package dev.scorecast.engine.interchange;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.EditorMarker;
import dev.scorecast.engine.plan.EditorMarker.Kind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The editor's markers from the files editing programs export (docs/EDITING.md): a CMX3600 EDL
 * with locators ({@code * LOC:} lines, or DaVinci Resolve's {@code |M:} marker lines under each
 * event), FCPXML markers (Final Cut Pro, Resolve), or Premiere Pro's marker list (CSV, comma or tab
 * separated, UTF-8 or UTF-16). The format is told from the content. A marker's kind is the first
 * word (or two, "mute until") of its name, else of its note, else it is a {@code hit}. Timecodes are
 * read at the video's frame rate; a timeline starting at 01:00:00:00, as editing programs start
 * them, counts from there. Every problem is a 422 on {@code markers_file} naming the line.
 */
public final class MarkerFiles {
    /**
     * What a reader found: the timeline's frame of a timecode ({@code frame}, drop-frame or not) or
     * seconds on the timeline (FCPXML, whose sequence says where it starts); the kind; where it was.
     */
    record Found(double seconds, Long frame, boolean dropFrame, Kind kind, int line, String field) {
        static Found atFrame(long frame, boolean dropFrame, Kind kind, int line, String field) {
            return new Found(Double.NaN, frame, dropFrame, kind, line, field);
        }

        static Found atSeconds(double seconds, Kind kind, int line, String field) {
            return new Found(seconds, null, false, kind, line, field);
        }
    }

    private static final Pattern WORDS = Pattern.compile("[a-z_]+(?:[ -][a-z]+)?");

    private MarkerFiles() {}

    /**
     * The markers of {@code file} for a video of {@code duration} seconds at {@code rate}.
     *
     * @param field the request field the file came in, named by the error
     * @throws Unprocessable naming the line and field of the first problem
     */
    public static List<EditorMarker> read(byte[] file, FrameRate rate, double duration, String field) {
        String text = decode(file);
        List<Found> found;
        try {
            found = switch (format(text)) {
                case FCPXML -> FcpxmlMarkers.read(text);
                case PREMIERE_CSV -> PremiereMarkers.read(text, rate);
                case EDL -> EdlMarkers.read(text, rate);
            };
        } catch (MarkerFormatException e) {
            throw new Unprocessable(field, "The markers file cannot be read: " + e.getMessage() + ".");
        }
        if (found.isEmpty()) {
            throw new Unprocessable(
                    field, "The markers file holds no markers; export the timeline's markers (docs/EDITING.md).");
        }
        if (found.size() > EditorMarker.MAX) {
            throw new Unprocessable(
                    field,
                    "The markers file holds " + found.size() + " markers; at most " + EditorMarker.MAX
                            + " are accepted.");
        }
        // A timeline that starts at 01:00:00:00 (every timecode past an hour, the video shorter): count from there.
        boolean fromHour = duration < 3600
                && found.stream().allMatch(f -> f.frame() == null || f.frame() >= hour(rate, f.dropFrame()));
        List<EditorMarker> markers = new ArrayList<>();
        for (Found f : found) {
            double t = f.frame() == null
                    ? f.seconds()
                    : (f.frame() - (fromHour ? hour(rate, f.dropFrame()) : 0)) * (double) rate.den() / rate.num();
            t = Math.round(t * 1e6) / 1e6;
            if (!(t >= 0 && t < duration)) {
                throw new Unprocessable(
                        field,
                        "The markers file cannot be read: line " + f.line() + ", " + f.field() + ": the marker at "
                                + String.format(Locale.ROOT, "%.3f", t) + " s is outside the video (0 to " + duration
                                + " s); export the markers of this video's timeline, which starts at 00:00:00:00 or 01:00:00:00.");
            }
            markers.add(new EditorMarker(t, f.kind()));
        }
        return markers;
    }

    /** The frame 01:00:00:00 (01:00:00;00 drop-frame) names. */
    private static long hour(FrameRate rate, boolean dropFrame) {
        return Timecode.frames(dropFrame ? "01:00:00;00" : "01:00:00:00", rate, dropFrame, 0, null);
    }

    private enum Format {
        EDL,
        FCPXML,
        PREMIERE_CSV
    }

    private static Format format(String text) {
        String head = text.stripLeading();
        if (head.startsWith("<")) {
            return Format.FCPXML;
        }
        String firstLine = head.lines().findFirst().orElse("");
        if (firstLine.toLowerCase(Locale.ROOT).contains("marker name")) {
            return Format.PREMIERE_CSV;
        }
        if (firstLine.startsWith("TITLE:")
                || firstLine.startsWith("FCM:")
                || firstLine.matches("\\s*\\d{3,6}\\s+.*")
                || firstLine.startsWith("*")) {
            return Format.EDL;
        }
        throw new MarkerFormatException(
                1,
                null,
                "this is not a marker file Scorecast reads: export the markers as a CMX3600 EDL"
                        + " (DaVinci Resolve: Timeline > Export > Timeline Markers to EDL), FCPXML (Final Cut Pro, Resolve) or"
                        + " Premiere Pro's marker CSV (File > Export > Markers)");
    }

    /** UTF-8, or UTF-16 by its byte order mark (Premiere writes its marker lists so). */
    static String decode(byte[] file) {
        if (file.length >= 2 && (file[0] & 0xff) == 0xff && (file[1] & 0xff) == 0xfe) {
            return new String(file, 2, file.length - 2, StandardCharsets.UTF_16LE);
        }
        if (file.length >= 2 && (file[0] & 0xff) == 0xfe && (file[1] & 0xff) == 0xff) {
            return new String(file, 2, file.length - 2, StandardCharsets.UTF_16BE);
        }
        if (file.length >= 3 && (file[0] & 0xff) == 0xef && (file[1] & 0xff) == 0xbb && (file[2] & 0xff) == 0xbf) {
            return new String(file, 3, file.length - 3, StandardCharsets.UTF_8);
        }
        return new String(file, StandardCharsets.UTF_8);
    }

    /** The kind a marker's name (else its note) starts with; a plain marker is a hit. */
    static Kind kindOf(String name, String note) {
        for (String text : new String[] {name, note}) {
            if (text == null || text.isBlank()) {
                continue;
            }
            String lower = text.strip().toLowerCase(Locale.ROOT);
            var whole = Kind.parse(lower);
            if (whole.isPresent()) {
                return whole.get();
            }
            Matcher m = WORDS.matcher(lower);
            if (m.lookingAt()) {
                String words = m.group();
                var two = Kind.parse(words);
                if (two.isPresent()) {
                    return two.get();
                }
                var one = Kind.parse(words.split("[ -]")[0]);
                if (one.isPresent()) {
                    return one.get();
                }
            }
        }
        return Kind.HIT;
    }
}
