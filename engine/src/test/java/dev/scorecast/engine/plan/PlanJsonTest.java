package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.analysis.Cut;
import dev.scorecast.engine.error.InvalidParameter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanJsonTest {
    static final Plan PLAN = PlanValidatorTest.PLAN;

    static ObjectNode tree() throws Exception {
        return (ObjectNode) PlanJson.mapper().readTree(PlanJson.write(PLAN));
    }

    static InvalidParameter refused(String json) {
        return assertThrows(InvalidParameter.class, () -> PlanJson.parse(json));
    }

    @Test
    void writesSnakeCaseAndReadsBackTheSamePlan() throws Exception {
        String json = PlanJson.write(PLAN);
        assertTrue(
                json.contains("\"target_lufs\":-14")
                        && json.contains("\"gain_db\"")
                        && json.contains("\"original_audio_voiceover\""),
                json);
        assertEquals(PLAN, PlanJson.parse(json));
        assertEquals(json, PlanJson.write(PlanJson.parse(json)));
    }

    @Test
    void aPlanWithoutResidualsIsReadAndGetsThemComputed() throws Exception {
        ObjectNode tree = tree();
        for (JsonNode section : tree.get("sections")) {
            ((ObjectNode) section).remove("residual");
        }
        Plan read = PlanJson.parse(tree.toString());
        Plan valid = PlanValidator.validate(read, PLAN.duration(), PlanValidatorTest.GENRES);
        for (int i = 0; i < PLAN.sections().size(); i++) {
            assertEquals(
                    PLAN.sections().get(i).residual(), valid.sections().get(i).residual(), 1e-6, "sections[" + i + "]");
        }
        assertEquals(PlanJson.write(PLAN), PlanJson.write(valid));
    }

    @Test
    void aLivePlanGivenInBarsAndTempoGetsItsTimes() throws Exception {
        ObjectNode tree = tree();
        tree.remove("duration");
        for (JsonNode section : tree.get("sections")) {
            ((ObjectNode) section).remove(List.of("start", "end", "residual", "index"));
        }
        String json = tree.toString();
        Plan plan = PlanValidator.validateLive(PlanJson.parseLive(json), PlanValidatorTest.GENRES);
        double at = 0;
        for (int i = 0; i < plan.sections().size(); i++) {
            Section s = plan.sections().get(i);
            assertEquals(at, s.start(), 1e-6, "sections[" + i + "] starts where the one before ends");
            assertEquals(s.start() + s.barsSeconds(), s.end(), 1e-6, "sections[" + i + "] ends with its bars");
            assertEquals(0, s.residual(), 1e-6);
            assertEquals(i, s.index());
            at = s.end();
        }
        assertEquals(at, plan.duration(), 1e-6);
        // The sync pipeline's plans keep their times: there they are the cuts.
        assertEquals("sections[0].start", refused(json).field());
        // Without a tempo nothing can be derived, and the error names what is missing.
        ((ObjectNode) tree.get("sections").get(0)).remove("tempo");
        InvalidParameter noTempo = assertThrows(InvalidParameter.class, () -> PlanJson.parseLive(tree.toString()));
        assertTrue(noTempo.field().startsWith("sections[0]"), noTempo.field());
    }

    @Test
    void garbageIsRefusedAsThePlan() {
        for (String garbage : new String[] {"", "{", "not json", "[1, 2]", "42", "{\"version\": 1} trailing", "null"}) {
            var e = refused(garbage);
            assertEquals("plan", e.field(), garbage + ": " + e.getMessage());
            assertEquals("invalid_parameter", e.code());
        }
    }

    @Test
    void wrongTypesNameTheFieldPath() throws Exception {
        ObjectNode plan = tree();
        ((ObjectNode) plan.withArray("sections").get(1)).put("tempo", "fast");
        var e = refused(plan.toString());
        assertEquals("sections[1].tempo", e.field());
        assertTrue(e.getMessage().contains("must be a number") && e.getMessage().contains("\"fast\""), e.getMessage());

        plan = tree();
        ((ObjectNode) plan.withArray("sections").get(0)).put("bars", 4.5);
        assertEquals("sections[0].bars", refused(plan.toString()).field());

        plan = tree();
        ((ObjectNode) plan.withArray("sections").get(2).get("instruments").get("bass")).put("program", "piano");
        assertEquals(
                "sections[2].instruments.bass.program", refused(plan.toString()).field());

        plan = tree();
        plan.put("sections", 5);
        assertEquals("sections", refused(plan.toString()).field());

        plan = tree();
        ((ObjectNode) plan.withArray("sections").get(0)).put("key", 7);
        assertEquals("sections[0].key", refused(plan.toString()).field());

        plan = tree();
        ((ObjectNode) plan.get("options")).put("ducking", "yes");
        assertEquals("options.ducking", refused(plan.toString()).field());

        plan = tree();
        ((ObjectNode) plan.withArray("sections").get(0)).putNull("tempo");
        assertEquals("sections[0].tempo", refused(plan.toString()).field());

        plan = tree();
        plan.put("seed", 1e30);
        assertEquals("seed", refused(plan.toString()).field());
    }

    @Test
    void aNullInsideAListIsNamed() throws Exception {
        ObjectNode plan = tree();
        ((ArrayNode) plan.withArray("sections").get(0).get("progression")).insertNull(1);
        var e = refused(plan.toString());
        assertEquals("sections[0].progression[1]", e.field());
    }

    @Test
    void unknownFieldsAreAcceptedAnywhere() throws Exception {
        ObjectNode plan = tree();
        plan.put("colour", "blue");
        ((ObjectNode) plan.withArray("sections").get(0)).put("mood_board", 3);
        ((ObjectNode) plan.withArray("sections").get(0).get("instruments").get("bass"))
                .putObject("extra")
                .put("x", 1);
        ((ObjectNode) plan.get("master")).put("ceiling", -1);
        assertEquals(PLAN, PlanJson.parse(plan.toString()));
    }

    @Test
    void aSilencedGroupIsNull() throws Exception {
        ObjectNode plan = tree();
        ((ObjectNode) plan.withArray("sections").get(0).get("instruments")).putNull("bass");
        Plan parsed = PlanJson.parse(plan.toString());
        assertTrue(parsed.sections().getFirst().instruments().containsKey("bass"));
        assertEquals(null, parsed.sections().getFirst().instruments().get("bass"));
        PlanValidator.validate(parsed, 45, PlanValidatorTest.GENRES);
    }

    /** The example plan of docs/PLAN.md, written to target/plan-example.json. */
    @Test
    void writesTheDocumentedExample() throws Exception {
        var cuts = new ArrayList<>(Analyses.cuts(7.04, 8.2, 20.0));
        cuts.add(Analyses.dissolve(26.4));
        cuts.sort(Comparator.comparingDouble(Cut::time));
        var analysis = Analyses.of(
                36.0, 25, cuts, t -> t < 7 ? 0.2 : t < 20 ? 0.45 : t < 26.4 ? 0.8 : 0.3, 0.72, 0.45, "corporate", 110);
        Plan plan = new Planner(PlanValidatorTest.GENRES)
                .plan(analysis, GenerationOptions.DEFAULT.withInstrument(true).withSeed(42L));
        PlanValidator.validate(plan, 36.0, PlanValidatorTest.GENRES);
        JsonNode tree = PlanJson.mapper().readTree(PlanJson.write(plan.withId("plan_8f2c1a")));
        Path out = Path.of("target", "plan-example.json");
        Files.createDirectories(out.getParent());
        Files.writeString(
                out, PlanJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(tree));
        Path doc = Path.of("..", "docs", "PLAN.md");
        if (Files.exists(doc)) {
            String text = Files.readString(doc);
            int from = text.indexOf("```json\n") + "```json\n".length();
            JsonNode documented = PlanJson.mapper().readTree(text.substring(from, text.indexOf("```", from)));
            assertEquals(
                    tree,
                    documented,
                    "docs/PLAN.md shows another plan than the planner makes now; paste " + out.toAbsolutePath()
                            + " into its example");
        }
    }
}
