package dev.scorecast.engine.interchange;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.scorecast.engine.io.Json;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A music cue sheet, what a rights administrator files with a collecting society or a broadcaster:
 * the production, every use of music in it with its timing (in, out and duration, as non-drop
 * timecode at the video's rate and in seconds) and usage code ({@code BI} background instrumental,
 * {@code BV} background vocal), who wrote it, and the sound sources it was played with and their
 * licenses (the provenance results.json holds). One cue per section of the plan: each is a stretch of
 * music of its own between two cuts. Written as JSON and as CSV ({@link #csv()}), one row a cue.
 *
 * @param title       the production
 * @param frameRate   the video's frame rate the timecodes count, e.g. {@code 30000/1001}
 * @param composer    who wrote the music
 * @param planSha256  the plan that determines every note (with the seed and the engine version)
 */
public record CueSheet(
        String title,
        String video,
        String frameRate,
        String duration,
        double durationSeconds,
        String composer,
        String engineVersion,
        String planSha256,
        long seed,
        List<Cue> cues,
        List<Source> sources) {

    public CueSheet {
        Objects.requireNonNull(title, "title");
        cues = List.copyOf(cues);
        sources = List.copyOf(sources);
    }

    /** One use of music: where it starts and ends in the production, its usage, the stems playing and their sources (ids). */
    public record Cue(
            int number,
            String title,
            String usage,
            String in,
            String out,
            String duration,
            double inSeconds,
            double outSeconds,
            double durationSeconds,
            List<String> stems,
            List<String> sources) {
        public Cue {
            stems = List.copyOf(stems);
            sources = List.copyOf(sources);
        }
    }

    /** A sound source the music was played with: its id, what it is, where it comes from and its license. */
    public record Source(String id, String title, String origin, String license) {}

    /** The frame of {@code seconds} as a cue's timing: timecode and seconds rounded to the millisecond. */
    public static String timecode(FrameRate rate, double seconds) {
        return rate.timecode(rate.frameAt(seconds));
    }

    public String json() {
        try {
            return Json.indented().writeValueAsString(this) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a cue sheet of plain records always writes", e);
        }
    }

    /** RFC 4180 CSV with a header row, one row a cue; a cue's sources are named with their licenses. */
    public String csv() {
        StringBuilder out = new StringBuilder();
        row(
                out,
                "production",
                "cue",
                "title",
                "usage",
                "in",
                "out",
                "duration",
                "in_seconds",
                "out_seconds",
                "duration_seconds",
                "stems",
                "composer",
                "sources",
                "licenses");
        for (Cue cue : cues) {
            List<Source> used =
                    sources.stream().filter(s -> cue.sources().contains(s.id())).toList();
            row(
                    out,
                    title,
                    Integer.toString(cue.number()),
                    cue.title(),
                    cue.usage(),
                    cue.in(),
                    cue.out(),
                    cue.duration(),
                    seconds(cue.inSeconds()),
                    seconds(cue.outSeconds()),
                    seconds(cue.durationSeconds()),
                    String.join("; ", cue.stems()),
                    composer,
                    String.join(
                            "; ",
                            used.stream()
                                    .map(s -> s.title() + " (" + s.origin() + ")")
                                    .toList()),
                    String.join("; ", used.stream().map(Source::license).toList()));
        }
        return out.toString();
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    private static void row(StringBuilder out, String... fields) {
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            String f = fields[i] == null ? "" : fields[i];
            if (f.indexOf(',') >= 0 || f.indexOf('"') >= 0 || f.indexOf('\n') >= 0 || f.indexOf('\r') >= 0) {
                out.append('"').append(f.replace("\"", "\"\"")).append('"');
            } else {
                out.append(f);
            }
        }
        out.append("\r\n");
    }
}
