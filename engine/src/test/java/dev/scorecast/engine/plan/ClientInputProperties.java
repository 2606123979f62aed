package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.analysis.CutKind;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.error.ScorecastException;
import dev.scorecast.engine.style.GenreCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * What a client can send, drawn at random: analyses with any numbers (NaN, infinities, negative,
 * huge), missing kinds, unsorted and overlapping lists, under any options; plans as JSON with
 * fields replaced by random values. Each must end in a plan or in the service's own error type
 * (which the server answers 4xx), never another exception, and within 100 ms of planning.
 * Seed-fixed so CI runs the same cases; a benchmark would raise the tries.
 */
class ClientInputProperties {
    private static final GenreCatalog GENRES = GenreCatalog.builtIn();
    private static final Planner PLANNER = new Planner(GENRES);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long BUDGET_NANOS = 100_000_000L;
    /** CPU time of this thread, not wall time: on a shared machine the wall clock measures the neighbours. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Property(tries = 300, seed = "20261123")
    void anyAnalysisEndsInAPlanOrTheServicesOwnError(
            @ForAll("analyses") Analysis analysis, @ForAll("options") GenerationOptions options) {
        long started = THREADS.getCurrentThreadCpuTime();
        try {
            AnalysisValidator.validate(analysis, "analysis");
            Plan plan = PLANNER.plan(analysis, options);
            PlanValidator.validate(plan, analysis.video().duration(), GENRES);
        } catch (ScorecastException expected) {
            // a 4xx with the field named
        }
        long elapsed = THREADS.getCurrentThreadCpuTime() - started;
        assertTrue(elapsed < BUDGET_NANOS, "took " + elapsed / 1_000_000 + " ms of CPU");
    }

    @Property(tries = 300, seed = "20261123")
    void anyEditOfAPlanEndsInAValidPlanOrTheServicesOwnError(@ForAll("plans") String planJson) {
        long started = THREADS.getCurrentThreadCpuTime();
        try {
            Plan parsed = PlanJson.parse(planJson);
            PlanValidator.validateLive(parsed, GENRES);
        } catch (ScorecastException expected) {
            // a 4xx with the field named
        }
        long elapsed = THREADS.getCurrentThreadCpuTime() - started;
        assertTrue(elapsed < BUDGET_NANOS, "took " + elapsed / 1_000_000 + " ms of CPU");
    }

    @Provide
    Arbitrary<GenerationOptions> options() {
        return Combinators.combine(
                        Arbitraries.of(true, false),
                        Arbitraries.of(true, false),
                        Arbitraries.of(null, "house", "lofi", "polka"),
                        Arbitraries.longs().injectNull(0.2))
                .as((vocals, underWords, genre, seed) -> GenerationOptions.DEFAULT
                        .withVocals(vocals)
                        .withGenre(genre)
                        .withOriginalAudio(underWords)
                        .withOriginalAudioVoiceover(underWords)
                        .withSeed(seed));
    }

    @Provide
    Arbitrary<Analysis> analyses() {
        Arbitrary<Double> any = Arbitraries.oneOf(
                Arbitraries.doubles().between(-10, 700),
                Arbitraries.of(
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY,
                        0.0,
                        -0.0,
                        1e300,
                        Double.MIN_VALUE));
        Arbitrary<Double> unit = Arbitraries.doubles().between(0, 1);
        Arbitrary<Cut> cut = Combinators.combine(
                        any,
                        Arbitraries.of(CutKind.values()).injectNull(0.1),
                        unit,
                        Arbitraries.doubles().between(0, 2))
                .as((time, kind, strength, width) -> new Cut(
                        time,
                        Math.max(0, Math.round(Double.isFinite(time) ? time * 25 : 0)),
                        kind,
                        strength,
                        time - (Double.isFinite(width) ? width : 0),
                        time + width));
        Arbitrary<Span> span = Combinators.combine(
                        Arbitraries.doubles().between(0, 600),
                        Arbitraries.doubles().between(0.01, 30))
                .as((start, length) -> new Span(start, start + length));
        return Combinators.combine(
                        any,
                        Arbitraries.doubles().between(0, 240),
                        cut.list().ofMaxSize(300),
                        span.list().ofMaxSize(300),
                        any.list().ofMaxSize(200),
                        Arbitraries.of(0.1, 0.5, 0.0, -1.0, Double.NaN),
                        unit,
                        unit)
                .as((duration, fps, cuts, speech, energy, hop, valence, arousal) -> new Analysis(
                        Analysis.VERSION,
                        new Analysis.VideoFacts(duration, 1280, 720, fps, 100, true, "h264", 0),
                        cuts,
                        List.of(),
                        new Analysis.Energy(
                                hop,
                                energy.stream().mapToDouble(Double::doubleValue).toArray()),
                        new Analysis.AudioFacts(-20.0, -1.0, speech, List.of(), 0.2),
                        new Analysis.Mood(valence, arousal),
                        new Analysis.Suggestions("house", 124, 115, 130, List.of()),
                        new Analysis.Quality(0, 0, List.of())));
    }

    /** A valid plan's JSON with 1 to 6 values, anywhere in it, replaced by random JSON values (or removed). */
    @Provide
    Arbitrary<String> plans() {
        return Arbitraries.longs().map(seed -> {
            Random random = new Random(seed);
            Analysis analysis = Analyses.random(seed, 20 + random.nextInt(200), random.nextInt(30));
            JsonNode plan;
            try {
                plan = JSON.readTree(PlanJson.write(PLANNER.plan(analysis, PlannerTest.genre("house", seed))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (int edits = 1 + random.nextInt(6); edits > 0; edits--) {
                mutate(plan, random);
            }
            return plan.toString();
        });
    }

    private static void mutate(JsonNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(random.nextInt(containers.size()));
        JsonNode value = switch (random.nextInt(9)) {
            case 0 -> JSON.nullNode();
            case 1 -> JSON.getNodeFactory().numberNode(-1);
            case 2 -> JSON.getNodeFactory().numberNode(1e12);
            case 3 -> JSON.getNodeFactory().numberNode(Integer.MAX_VALUE);
            case 4 -> JSON.getNodeFactory().textNode("");
            case 5 -> JSON.getNodeFactory().textNode("x".repeat(random.nextInt(20_000)));
            case 6 -> JSON.createArrayNode().add(JSON.nullNode());
            case 7 -> JSON.createObjectNode();
            default -> JSON.getNodeFactory().numberNode(random.nextDouble() * 1000 - 500);
        };
        if (target instanceof ObjectNode object && object.size() > 0) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            String name = names.get(random.nextInt(names.size()));
            if (random.nextInt(5) == 0) {
                object.remove(name);
            } else {
                object.set(name, value);
            }
        } else if (target instanceof ArrayNode array && !array.isEmpty()) {
            array.set(random.nextInt(array.size()), value);
        }
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.forEach(child -> collect(child, out));
        }
    }
}
