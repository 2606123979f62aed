package dev.scorecast.engine.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's floors as docs/ARCHITECTURE.md draws them, held on the engine's own compiled classes
 * (so an engine-only build checks them: {@code mvn -pl engine test}). A package may use the packages
 * on the floors below its own and none on its floor or above; {@code render}, {@code live} and
 * {@code pipeline} never use {@code analysis}. The edges the code has that the drawing does not are
 * listed in {@link #EXCEPTIONS}, each with its reason, so that a new one fails here instead of
 * slipping in. The server's rules are the server's (server's LayeringTest).
 */
class EngineLayeringTest {
    private static final String ENGINE = "dev.scorecast.engine";

    /**
     * Bottom to top. A floor's packages do not use each other (core, dsp and io stand side by side;
     * so do voice's three parts, which share only what voice itself holds).
     */
    static final List<List<String>> FLOORS = List.of(
            List.of("error"),
            List.of("core", "dsp", "io"),
            List.of("media", "voice"),
            List.of("instruments", "voice.speech", "voice.speaking", "voice.singing"),
            List.of("style", "sampler"),
            List.of("analysis"),
            List.of("plan"),
            List.of("music", "interchange"),
            List.of("render", "conform"),
            List.of("live", "pipeline"));

    /** Floors a package may not use although they are below it. */
    static final Map<String, Set<String>> NEVER = Map.of(
            "render", Set.of("analysis"),
            "live", Set.of("analysis"),
            "pipeline", Set.of("analysis"));

    /** An edge the code has and the drawing does not: from classes of one package to some classes of another, and why. */
    record Edge(String from, String to, List<String> classes, String reason) {}

    /**
     * The pipeline's use of the Analysis record is by design (see its reason). The loudness and
     * true-peak meters, once listed here for render and pipeline, now live in dsp (issue 30).
     */
    static final List<Edge> EXCEPTIONS = List.of(
            new Edge(
                    "pipeline",
                    "analysis",
                    List.of("Analysis"),
                    "an execution is handed the analysis its plan was made from: the video's facts and its dialogue,"
                            + " read-only, as the record the analysis wrote (the pipeline runs analysis, plan and render in turn)"));

    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ENGINE);
    }

    /** A layer per package; "analysis" takes its audio part along (the two are one floor), every other name is exactly one package. */
    private static String[] packagesOf(String name) {
        return name.equals("analysis") ? new String[] {ENGINE + ".analysis.."} : new String[] {ENGINE + "." + name};
    }

    @Test
    void eachFloorUsesOnlyTheFloorsBelowIt() {
        LayeredArchitecture floors = layeredArchitecture().consideringOnlyDependenciesInAnyPackage(ENGINE + "..");
        List<String> below = new ArrayList<>();
        Map<String, List<String>> allowed = new LinkedHashMap<>();
        for (List<String> floor : FLOORS) {
            for (String name : floor) {
                floors = floors.layer(name).definedBy(packagesOf(name));
                List<String> may = new ArrayList<>(below);
                may.removeAll(NEVER.getOrDefault(name, Set.of()));
                allowed.put(name, may);
            }
            below.addAll(floor);
        }
        for (var e : allowed.entrySet()) {
            floors = e.getValue().isEmpty()
                    ? floors.whereLayer(e.getKey()).mayNotAccessAnyLayer()
                    : floors.whereLayer(e.getKey())
                            .mayOnlyAccessLayers(e.getValue().toArray(String[]::new));
        }
        for (Edge x : EXCEPTIONS) {
            floors = floors.ignoreDependency(
                    resideInAPackage(ENGINE + "." + x.from()).as(x.from()), targets(x));
        }
        floors.because("docs/ARCHITECTURE.md draws the engine's floors; an edge outside them is either a mistake or an"
                        + " exception listed with its reason")
                .check(classes);
    }

    /** The listed classes of the exception's package, nested classes (a meter's Result) and arrays of them included. */
    private static DescribedPredicate<JavaClass> targets(Edge x) {
        DescribedPredicate<JavaClass> named = DescribedPredicate.alwaysFalse();
        for (String simple : x.classes()) {
            String name = ENGINE + "." + x.to() + "." + simple;
            named = named.or(DescribedPredicate.describe(
                    simple,
                    c -> c.getBaseComponentType().getName().equals(name)
                            || c.getBaseComponentType().getName().startsWith(name + "$")));
        }
        return named.as(x.to() + "." + x.classes() + " (" + x.reason() + ")");
    }

    @Test
    void everyPackageHasAFloor() {
        List<String> placed = FLOORS.stream().flatMap(List::stream).toList();
        var unplaced = classes.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> p.startsWith(ENGINE + "."))
                .map(p -> p.substring(ENGINE.length() + 1))
                .filter(p -> !p.startsWith("analysis"))
                .filter(p -> !placed.contains(p))
                .distinct()
                .sorted()
                .toList();
        assertEquals(List.of(), unplaced, "a new package needs its floor here and in docs/ARCHITECTURE.md's drawing");
    }

    @Test
    void theExceptionsAreStillNeeded() {
        // An exception the code no longer needs is removed from the list, so that the edge cannot come back unnoticed.
        for (Edge x : EXCEPTIONS) {
            boolean used = classes.stream()
                    .filter(resideInAPackage(ENGINE + "." + x.from()))
                    .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                    .anyMatch(d -> targets(x).test(d.getTargetClass()));
            assertTrue(used, "no longer used, remove the exception: " + x);
        }
    }

    @Test
    void theEngineNeverUsesTheServerHttpOrADatabase() {
        noClasses()
                .that()
                .resideInAPackage(ENGINE + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.scorecast.server..",
                        "dev.scorecast.client..",
                        "dev.scorecast.bench..",
                        "io.javalin..",
                        "org.eclipse.jetty..",
                        "java.sql..",
                        "javax.sql..",
                        "com.github.kagkarlsson..",
                        "org.flywaydb..",
                        "software.amazon..")
                .because("engine is the library every front end drives: a test, the CLI, a benchmark or the server")
                .check(classes);
    }

    @Test
    void onlyMediaUsesFfmpeg() {
        noClasses()
                .that()
                .resideInAPackage(ENGINE + "..")
                .and()
                .resideOutsideOfPackage(ENGINE + ".media..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.bytedeco..")
                .because(
                        "native decoding and encoding stay behind one package that knows their limits and failure modes")
                .check(classes);
    }

    @Test
    void packagesHaveNoCycles() {
        // Each package on its own (analysis.audio apart from analysis), and each top-level part with its subpackages.
        slices().matching(ENGINE + ".(**)").should().beFreeOfCycles().check(classes);
        slices().matching(ENGINE + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void speechDetectionSpeakingAndSingingStandApart() {
        slices().matching(ENGINE + ".voice.(*)..")
                .should()
                .notDependOnEachOther()
                .because("each is used on its own (the analysis detects speech, the pipeline speaks and sings);"
                        + " what they share, espeak-ng and YIN, is engine.voice's")
                .check(classes);
        noClasses()
                .that()
                .resideInAPackage(ENGINE + ".voice")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        ENGINE + ".voice.speech..", ENGINE + ".voice.speaking..", ENGINE + ".voice.singing..")
                .because("engine.voice holds the shared tools the three parts build on")
                .check(classes);
    }
}
