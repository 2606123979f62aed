package dev.scorecast.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.conform.ConformedScore;
import dev.scorecast.engine.plan.PlanJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measure of issue 27's benchmark on real footage (bench/recut/run.sh): the first cut scored with
 * {@code bin/scorecast score} and each re-cut conformed with {@code bin/scorecast conform}, read from
 * the files those commands left, measured by {@link RecutMeasure} as ConformTest measures its re-cuts,
 * and, since a conform that matched a shot to the wrong footage would still replay old music
 * faithfully, each kept, trimmed or moved span checked against the footage the re-cut really shows
 * there (the NAME.shots files make-real-recuts.sh writes).
 *
 * <p>Usage: {@code RealRecutBench DIR NAME[:kind=count,...]...}, DIR holding first.shots,
 * first-scored-outputs/, and per re-cut NAME.shots, NAME-scored-outputs/ and NAME-conform.log (the
 * conform's standard output); each {@code kind=count} is a count of spans the edit must give. Prints
 * the figures; exits 1 if any goal is not met (each named).
 */
public final class RealRecutBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SPAN = Pattern.compile("^(kept|trimmed|moved|removed|new)\\s+old (\\S+) new (\\S+)$");

    private RealRecutBench() {}

    /** A shot of a cut: its place in the cut and the footage it shows (clip, start in the clip). */
    record Shot(double at, double length, String clip, double source) {
        /** Where in its clip this cut shows footage at {@code t} (seconds of the cut), or NaN outside the shot. */
        double sourceAt(double t) {
            return t >= at && t < at + length ? source + (t - at) : Double.NaN;
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        List<Shot> first = shots(dir.resolve("first.shots"));
        Path old = dir.resolve("first-scored-outputs");
        float[] oldAudio = RecutMeasure.mono(old.resolve("audio.wav"), dir.resolve("first.f32"));
        List<String> unmet = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            String[] spec = args[i].split(":", 2);
            String name = spec[0];
            Map<String, Integer> expected = new LinkedHashMap<>();
            if (spec.length > 1) {
                for (String e : spec[1].split(",")) {
                    expected.put(e.split("=")[0], Integer.parseInt(e.split("=")[1]));
                }
            }
            for (String failure : measure(dir, name, first, oldAudio, expected)) {
                unmet.add(name + ": " + failure);
            }
        }
        System.out.println(unmet.isEmpty() ? "every goal met" : "NOT MET:\n  " + String.join("\n  ", unmet));
        System.exit(unmet.isEmpty() ? 0 : 1);
    }

    private static List<String> measure(
            Path dir, String name, List<Shot> first, float[] oldAudio, Map<String, Integer> expected)
            throws IOException, InterruptedException {
        Path outputs = dir.resolve(name + "-scored-outputs");
        if (!Files.isRegularFile(outputs.resolve("results.json"))) {
            String refused = "the conform gave no result: "
                    + Files.readString(dir.resolve(name + "-conform.err")).strip();
            System.out.println(name + "   NOT MET: " + refused);
            return List.of(refused);
        }
        String planText = Files.readString(outputs.resolve("plan.json"));
        JsonNode plan = JSON.readTree(planText);
        JsonNode results = JSON.readTree(outputs.resolve("results.json").toFile());
        JsonNode analysis = JSON.readTree(outputs.resolve("analysis.json").toFile());
        double fps = analysis.at("/video/fps").asDouble();
        List<Double> cuts = new ArrayList<>();
        analysis.get("cuts").forEach(c -> cuts.add(c.get("time").asDouble()));
        ArrayNode spans = spans(Files.readAllLines(dir.resolve(name + "-conform.log")));
        float[] audio = RecutMeasure.mono(outputs.resolve("audio.wav"), dir.resolve(name + ".f32"));

        RecutMeasure.Report report =
                RecutMeasure.measure(name, fps, oldAudio, audio, plan, spans, transitions(planText), results, cuts);
        List<String> failures = new ArrayList<>(report.failures());
        StringBuilder table = new StringBuilder(report.table());
        failures.addAll(footage(name, spans, first, shots(dir.resolve(name + ".shots")), 1 / fps, table));
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String kind : List.of("kept", "trimmed", "moved", "removed", "new")) {
            int n = 0;
            for (JsonNode s : spans) {
                n += s.get("kind").asText().equals(kind) ? 1 : 0;
            }
            counts.put(kind, n);
        }
        table.append(String.format(
                Locale.ROOT,
                "%-8s spans: %s; %d cuts in the new video: %s%n",
                name,
                counts,
                cuts.size(),
                cuts.stream().map(c -> String.format(Locale.ROOT, "%.3f", c)).toList()));
        expected.forEach((kind, n) -> {
            if (!n.equals(counts.get(kind))) {
                failures.add(kind + " spans: " + counts.get(kind) + ", the edit makes " + n);
            }
        });
        System.out.print(table);
        failures.forEach(f -> System.out.println(name + "   NOT MET: " + f));
        return failures;
    }

    /**
     * Checks each span against the footage: a kept, trimmed or moved span must show, at its middle,
     * the footage the first cut showed at the old time it was matched to (within {@code frame}); a new
     * span must show footage the first cut never showed.
     */
    private static List<String> footage(
            String name, JsonNode spans, List<Shot> first, List<Shot> recut, double frame, StringBuilder table) {
        List<String> failures = new ArrayList<>();
        for (JsonNode span : spans) {
            String kind = span.get("kind").asText();
            if (kind.equals("removed")) {
                continue;
            }
            double newStart = span.get("new_start").asDouble();
            double newEnd = span.get("new_end").asDouble();
            double middle = (newStart + newEnd) / 2;
            Shot shown = recut.stream()
                    .filter(s -> !Double.isNaN(s.sourceAt(middle)))
                    .findFirst()
                    .orElseThrow();
            double source = shown.sourceAt(middle);
            Shot before = first.stream()
                    .filter(s ->
                            s.clip().equals(shown.clip()) && source >= s.source() && source < s.source() + s.length())
                    .findFirst()
                    .orElse(null);
            String truth = before == null
                    ? String.format(Locale.ROOT, "%s at %.2f s, not in the first cut", shown.clip(), source)
                    : String.format(
                            Locale.ROOT,
                            "%s at %.2f s, old %.3f",
                            shown.clip(),
                            source,
                            before.at() + source - before.source());
            boolean right;
            if (kind.equals("new")) {
                right = before == null;
            } else {
                double matched = middle - (newStart - span.get("old_start").asDouble());
                right = before != null && Math.abs(before.at() + source - before.source() - matched) <= frame;
            }
            table.append(String.format(
                    Locale.ROOT,
                    "%-8s footage %-7s new %6.3f-%6.3f shows %s: %s%n",
                    name,
                    kind,
                    newStart,
                    newEnd,
                    truth,
                    right ? "right" : "WRONG"));
            if (!right) {
                failures.add(
                        String.format(Locale.ROOT, "the %s span %.3f-%.3f shows %s", kind, newStart, newEnd, truth));
            }
        }
        return failures;
    }

    /** The spans the conform printed ("kept     old 0.000-4.000 new 0.000-4.000", "removed  old 4.000-8.000 new -"). */
    static ArrayNode spans(List<String> conformOutput) {
        ArrayNode spans = JsonNodeFactory.instance.arrayNode();
        for (String line : conformOutput) {
            Matcher m = SPAN.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            ObjectNode span = spans.addObject().put("kind", m.group(1));
            range(span, "old", m.group(2));
            range(span, "new", m.group(3));
        }
        return spans;
    }

    private static void range(ObjectNode span, String side, String range) {
        if (range.equals("-")) {
            span.putNull(side + "_start").putNull(side + "_end");
        } else {
            String[] ends = range.split("-");
            span.put(side + "_start", Double.parseDouble(ends[0])).put(side + "_end", Double.parseDouble(ends[1]));
        }
    }

    /** The joins of the conformed plan, as {@code /sync/conform} reports them (ConformReport.Transition). */
    private static ArrayNode transitions(String planJson) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (ConformedScore.Bridge b : ConformedScore.bridges(PlanJson.parse(planJson))) {
            ObjectNode t = out.addObject()
                    .put("at", b.cut())
                    .put("from", b.from())
                    .put("to", b.to())
                    .put("beats", b.beats());
            if (b.onTheBeat()) {
                t.putNull("tempo");
            } else {
                t.put("tempo", b.tempo());
            }
        }
        return out;
    }

    /** A cut's shots, from the NAME.shots file: "clip start length" a line, laid end to end from 0. */
    static List<Shot> shots(Path file) throws IOException {
        List<Shot> shots = new ArrayList<>();
        double at = 0;
        for (String line : Files.readAllLines(file)) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 3) {
                continue;
            }
            double length = Double.parseDouble(f[2]);
            shots.add(new Shot(at, length, f[0], Double.parseDouble(f[1])));
            at += length;
        }
        return shots;
    }
}
