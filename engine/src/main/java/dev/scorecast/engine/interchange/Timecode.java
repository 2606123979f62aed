package dev.scorecast.engine.interchange;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SMPTE timecode as editing programs export it, {@code HH:MM:SS:FF}, drop-frame written with a
 * semicolon ({@code HH;MM;SS;FF} or {@code HH:MM:SS;FF}), to a frame of the video's rate. Timelines
 * in editing programs start at 01:00:00:00 by habit; {@link #seconds} takes an offset to subtract.
 */
final class Timecode {
    private static final Pattern TC = Pattern.compile("(\\d{1,2})[:;.](\\d{2})[:;.](\\d{2})([:;.])(\\d{2,3})");

    private Timecode() {}

    /** Whether {@code text} looks like a timecode at all. */
    static boolean is(String text) {
        return text != null && TC.matcher(text.strip()).matches();
    }

    /** The frame count of {@code text} at {@code rate}; drop-frame when written with ';' (29.97 and 59.94 only). */
    static long frames(String text, FrameRate rate, int line, String field) {
        return frames(text, rate, false, line, field);
    }

    /** As {@link #frames(String, FrameRate, int, String)}; {@code dropFrame} as an EDL's "FCM: DROP FRAME" declares. */
    static long frames(String text, FrameRate rate, boolean dropFrame, int line, String field) {
        Matcher m = TC.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new MarkerFormatException(
                    line, field, "'" + text + "' is not a timecode; write HH:MM:SS:FF (HH;MM;SS;FF drop-frame)");
        }
        int h = Integer.parseInt(m.group(1));
        int min = Integer.parseInt(m.group(2));
        int s = Integer.parseInt(m.group(3));
        int f = Integer.parseInt(m.group(5));
        int base = rate.timecodeBase();
        if (min > 59 || s > 59 || f >= base) {
            throw new MarkerFormatException(
                    line,
                    field,
                    "'" + text + "' is not a timecode at " + base + " frames a second (minutes and"
                            + " seconds 0-59, frames 0-" + (base - 1) + ")");
        }
        long nominal = ((h * 60L + min) * 60 + s) * base + f;
        boolean drop = (dropFrame || text.contains(";")) && (base == 30 || base == 60) && rate.den() == 1001;
        if (!drop) {
            return nominal;
        }
        // Drop-frame skips frame numbers 0 and 1 (0-3 at 59.94) of every minute but each tenth.
        int dropped = base / 15;
        long totalMinutes = h * 60L + min;
        if (s == 0 && f < dropped && totalMinutes % 10 != 0) {
            throw new MarkerFormatException(
                    line,
                    field,
                    "'" + text + "' does not exist in drop-frame timecode (frames 0-" + (dropped - 1)
                            + " of this minute are skipped)");
        }
        return nominal - dropped * (totalMinutes - totalMinutes / 10);
    }

    /** Seconds from {@code origin} (frames) of the timecode's frame. */
    static double seconds(String text, FrameRate rate, long origin, int line, String field) {
        return (frames(text, rate, line, field) - origin) * (double) rate.den() / rate.num();
    }
}
