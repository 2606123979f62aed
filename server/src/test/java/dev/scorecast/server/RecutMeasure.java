package dev.scorecast.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Issue 27's measure of a conformed render against the first one, on the two masters (mono, 48 kHz):
 * <ul>
 * <li>every kept, trimmed or moved shot plays the old music again: the new master under the shot,
 * moved back by the shot's offset, correlates at 0.99 or more with the old master in 250 ms windows
 * that cover at least 80 % of the shot's length (the correlation over its middle 80 % is printed too);
 * <li>every accent of the new render is heard within a frame (results.json's sync report), and every
 * cut given is struck by one of them;
 * <li>the music ends on the last frame (the master lasts the video, and still sounds in its last second);
 * <li>no click at a splice: around every join of old and new music, no sample-to-sample step is
 * larger than the largest the music makes anywhere else.
 * </ul>
 * Used by ConformTest (re-cuts through the API) and RealRecutBench (re-cuts of real footage through
 * {@code bin/scorecast conform}); plain Java, no JUnit, so the benchmark runs it outside a test.
 */
public final class RecutMeasure {
    public static final int RATE = 48000;

    private RecutMeasure() {}

    /** What was measured, one line each, and every goal not met. */
    public record Report(String table, List<String> failures) {}

    /**
     * Measures a render of a conformed plan. {@code spans} and {@code transitions} are the conform
     * report's (as {@code /sync/conform} answers them), {@code results} the new execution's
     * results.json, {@code cuts} the cuts of the new video that must each be struck.
     */
    public static Report measure(
            String name,
            double fps,
            float[] oldAudio,
            float[] audio,
            JsonNode plan,
            JsonNode spans,
            JsonNode transitions,
            JsonNode results,
            List<Double> cuts) {
        double duration = plan.get("duration").asDouble();
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder(sections(name, plan));
        for (JsonNode span : spans) {
            String kind = span.get("kind").asText();
            if (!List.of("kept", "trimmed", "moved").contains(kind)) {
                table.append(String.format(
                        Locale.ROOT,
                        "%-8s %-7s old %s-%s new %s-%s%n",
                        name,
                        kind,
                        span.get("old_start"),
                        span.get("old_end"),
                        span.get("new_start"),
                        span.get("new_end")));
                continue;
            }
            double newStart = span.get("new_start").asDouble();
            double newEnd = span.get("new_end").asDouble();
            double shift = newStart - span.get("old_start").asDouble();
            double[] whole = keptMatch(oldAudio, audio, newStart, newEnd, shift);
            double[] kept = awayFromJoins(plan, transitions, newStart, newEnd, shift);
            double[] measured = keptMatch(oldAudio, audio, kept[0], kept[1], shift);
            table.append(String.format(
                    Locale.ROOT,
                    "%-8s %-7s old %6.3f-%6.3f new %6.3f-%6.3f  away from joins %6.3f-%6.3f: correlation %.4f,"
                            + " windows >= 0.99 over %.0f %%; the whole span %.0f %%%n",
                    name,
                    kind,
                    span.get("old_start").asDouble(),
                    span.get("old_end").asDouble(),
                    newStart,
                    newEnd,
                    kept[0],
                    kept[1],
                    measured[0],
                    100 * measured[1],
                    100 * whole[1]));
            if (measured[1] < 0.8) {
                failures.add(String.format(
                        Locale.ROOT,
                        "%s span %.3f-%.3f: windows at >= 0.99 cover only %d %% of %.3f-%.3f",
                        kind,
                        newStart,
                        newEnd,
                        Math.round(100 * measured[1]),
                        kept[0],
                        kept[1]));
            }
            if (kept[1] - kept[0] < 0.5 * (newEnd - newStart)) {
                failures.add(String.format(
                        Locale.ROOT,
                        "%s span %.3f-%.3f: only %.3f-%.3f of it is away from its joins",
                        kind,
                        newStart,
                        newEnd,
                        kept[0],
                        kept[1]));
            }
        }
        // Every accent of the new render is heard within a frame, and every cut is one of them.
        double worst = 0;
        for (JsonNode point : results.at("/sync/points")) {
            if (point.get("error_seconds").isNull()
                    || !point.get("within_frame").asBoolean()) {
                failures.add("accent at " + point.get("target") + " ("
                        + point.get("kind").asText() + ") heard at " + point.get("measured"));
            } else {
                worst = Math.max(worst, Math.abs(point.get("error_seconds").asDouble()));
            }
        }
        double worstCut = 0;
        for (double cut : cuts) {
            JsonNode struck = null;
            for (JsonNode point : results.at("/sync/points")) {
                if (Math.abs(point.get("target").asDouble() - cut) < 0.5 / fps
                        && !point.get("error_seconds").isNull()
                        && (struck == null
                                || Math.abs(point.get("measured").asDouble() - cut)
                                        < Math.abs(struck.get("measured").asDouble() - cut))) {
                    struck = point;
                }
            }
            double offset = struck == null ? Double.NaN : struck.get("measured").asDouble() - cut;
            if (struck == null || Math.abs(offset) > 1 / fps) {
                failures.add(String.format(
                        Locale.ROOT,
                        "the cut at %.3f s is not struck within a frame (%s)",
                        cut,
                        struck == null
                                ? "no accent heard on it"
                                : String.format(Locale.ROOT, "heard %+.1f ms off", 1000 * offset)));
            } else {
                worstCut = Math.max(worstCut, Math.abs(offset));
            }
        }
        table.append(String.format(
                Locale.ROOT,
                "%-8s accents: %d points, worst %.1f ms (a frame is %.1f ms), all within a frame: %s;"
                        + " %d cuts, worst %.1f ms%n",
                name,
                results.at("/sync/points").size(),
                1000 * worst,
                1000 / fps,
                results.at("/sync/all_within_frame").asBoolean(),
                cuts.size(),
                1000 * worstCut));
        // The music ends on the last frame: the master lasts the video and sounds in its last second.
        double length = audio.length / (double) RATE;
        double lastSecond = rms(audio, duration - 1.0, duration - 0.2);
        table.append(String.format(
                Locale.ROOT,
                "%-8s ends: master %.3f s for a %.3f s video, last second at %.1f dBFS%n",
                name,
                length,
                duration,
                20 * Math.log10(lastSecond + 1e-12)));
        if (Math.abs(length - duration) > 1 / fps) {
            failures.add("the master lasts " + length + " s, the video " + duration + " s");
        }
        if (lastSecond < 1e-3) {
            failures.add("the music is silent in its last second (" + lastSecond + ")");
        }
        // No click at a splice: a join of kept music and other music is no steeper than the music itself.
        // A splice is where music of one origin gives way to another: the cut, where the outgoing music is
        // let go on its beat and where the incoming comes in on its own (the report's transitions).
        List<Double> splices = new ArrayList<>();
        for (JsonNode section : plan.get("sections")) {
            splices.add(section.get("start").asDouble());
        }
        for (JsonNode t : transitions) {
            splices.add(t.get("from").asDouble());
            splices.add(t.get("to").asDouble());
            table.append(String.format(
                    Locale.ROOT,
                    "%-8s transition at %.3f: from %.3f to %.3f, %d beats%s%n",
                    name,
                    t.get("at").asDouble(),
                    t.get("from").asDouble(),
                    t.get("to").asDouble(),
                    t.get("beats").asInt(),
                    t.get("tempo").isNull()
                            ? " (on the beat)"
                            : String.format(
                                    Locale.ROOT, " at %.1f bpm", t.get("tempo").asDouble())));
        }
        List<double[]> joins =
                splices.stream().map(t -> new double[] {t - 0.05, t + 0.05}).toList();
        double own = 0;
        double atJoins = 0;
        double atJoinsTime = 0;
        for (int i = 1; i < audio.length; i++) {
            double step = Math.abs(audio[i] - audio[i - 1]);
            double t = i / (double) RATE;
            if (joins.stream().anyMatch(j -> t > j[0] && t < j[1])) {
                if (step > atJoins) {
                    atJoins = step;
                    atJoinsTime = t;
                }
            } else {
                own = Math.max(own, step);
            }
        }
        table.append(String.format(
                Locale.ROOT,
                "%-8s splices: largest step %.4f at the joins (at %.3f s), %.4f elsewhere%n",
                name,
                atJoins,
                atJoinsTime,
                own));
        if (atJoins > own) {
            failures.add("a step of " + atJoins + " at a join, above the music's own " + own);
        }
        return new Report(table.toString(), failures);
    }

    /** The plan's sections, one a line: where, tempo, metre, bars and where its music comes from. */
    public static String sections(String name, JsonNode plan) {
        StringBuilder out = new StringBuilder();
        for (JsonNode s : plan.get("sections")) {
            out.append(String.format(
                    Locale.ROOT,
                    "%-8s section %6.3f-%6.3f %7.3f bpm %s x %d%s%n",
                    name,
                    s.get("start").asDouble(),
                    s.get("end").asDouble(),
                    s.get("tempo").asDouble(),
                    s.get("meter").asText(),
                    s.get("bars").asInt(),
                    s.path("origin").isMissingNode() || s.path("origin").isNull()
                            ? ""
                            : " from " + s.at("/origin/source_start").asDouble()));
        }
        return out.toString();
    }

    /**
     * The part of a kept span (new {@code start} to {@code end}, its music {@code shift} seconds later
     * than in the old plan) away from its edges: where the span meets music of another origin (a
     * transition of the conform report at its start or end), the bar across the join belongs to the
     * join, not to the kept music (docs/EDITING.md: the outgoing music's bar since its bar line, the
     * transition's beats, the incoming music's to its next bar line; what the incoming music holds
     * over the join sounds again on its first beat, struck afresh where the old render's was decaying).
     * So the kept music is judged from the old music's first bar line at or after the transition at its
     * start to its last bar line at or before the transition at its end; an edge at no join (the span
     * runs on in the same music, or the video's first or last frame) is the span's own.
     */
    public static double[] awayFromJoins(JsonNode plan, JsonNode transitions, double start, double end, double shift) {
        JsonNode source = plan.get("source");
        double from = start;
        double to = end;
        for (JsonNode t : transitions) {
            double at = t.get("at").asDouble();
            // A kept stretch after new music may come in on its own beat up to a beat before the cut.
            if (at > start - 1.0 && at < start + 1e-3) {
                from = Math.max(
                        from, barLine(source, Math.max(start, t.get("to").asDouble()) - shift, true) + shift);
            }
            if (Math.abs(at - end) < 1e-3) {
                to = Math.min(to, barLine(source, Math.min(end, t.get("from").asDouble()) - shift, false) + shift);
            }
        }
        return to - from < 0.25 ? new double[] {start, start} : new double[] {from, to};
    }

    /** The old plan's first bar line at or after old time {@code t} ({@code after}), else its last at or before. */
    private static double barLine(JsonNode plan, double t, boolean after) {
        JsonNode section = plan.get("sections").get(0);
        for (JsonNode s : plan.get("sections")) {
            if (s.get("start").asDouble() <= t + 1e-6) {
                section = s;
            }
        }
        String meter = section.get("meter").asText();
        double bar = Integer.parseInt(meter.substring(0, meter.indexOf('/')))
                * 60.0
                / section.get("tempo").asDouble();
        double bars = (t - section.get("start").asDouble()) / bar;
        // Within 10 ms of a bar line is on it.
        double n = after ? Math.ceil(bars - 0.01 / bar) : Math.floor(bars + 0.01 / bar);
        return section.get("start").asDouble() + n * bar;
    }

    /**
     * The correlation of the new audio over the kept span's middle 80 % with the old audio under the
     * same shot (moved back by {@code shift}), and the share of the whole span's length covered by
     * 250 ms windows correlating at 0.99 or more.
     */
    public static double[] keptMatch(float[] old, float[] now, double start, double end, double shift) {
        double margin = 0.1 * (end - start);
        int lag = (int) Math.round(shift * RATE);
        double whole = AlignedCorrelation.of(
                old, now, (int) Math.round((start + margin) * RATE), (int) Math.round((end - margin) * RATE), lag);
        int from = (int) Math.round(start * RATE);
        int to = (int) Math.round(end * RATE);
        int window = RATE / 4;
        if (to - from < window) {
            return new double[] {Double.NaN, 0};
        }
        // Windows every 250 ms from the start, and one more ending at the end, so that no part of the span
        // goes unmeasured (a 2.6 s span is 10 windows and 100 ms); the share is of the span covered by
        // windows at 0.99 or more.
        List<Integer> starts = new ArrayList<>();
        for (int w = from; w + window <= to; w += window) {
            starts.add(w);
        }
        if (starts.getLast() + window < to) {
            starts.add(to - window);
        }
        int covered = 0;
        int coveredTo = from;
        StringBuilder windows = new StringBuilder();
        for (int w : starts) {
            double c = AlignedCorrelation.of(old, now, w, w + window, lag);
            windows.append(String.format(Locale.ROOT, " %.3f", c));
            if (c >= 0.99) {
                covered += w + window - Math.max(w, coveredTo);
                coveredTo = w + window;
            }
        }
        double share = covered / (double) (to - from);
        if (share < 1) {
            System.out.println("windows of " + start + "-" + end + ":" + windows);
        }
        return new double[] {whole, share};
    }

    /** The WAV's samples, mixed to one channel at 48 kHz (decoded by FFmpeg into {@code raw}). */
    public static float[] mono(Path wav, Path raw) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(
                        "ffmpeg",
                        "-hide_banner",
                        "-loglevel",
                        "error",
                        "-y",
                        "-i",
                        wav.toString(),
                        "-ac",
                        "1",
                        "-ar",
                        String.valueOf(RATE),
                        "-f",
                        "f32le",
                        raw.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IOException("ffmpeg could not decode " + wav + ": " + output);
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(raw)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(out);
        return out;
    }

    private static double rms(float[] audio, double from, double to) {
        double sum = 0;
        int n = 0;
        for (int i = (int) (from * RATE); i < Math.min(audio.length, (int) (to * RATE)); i++) {
            sum += audio[i] * audio[i];
            n++;
        }
        return n == 0 ? 0 : Math.sqrt(sum / n);
    }
}
