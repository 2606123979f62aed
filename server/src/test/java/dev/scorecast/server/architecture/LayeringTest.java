package dev.scorecast.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's part of the layering docs/ARCHITECTURE.md describes, held on the compiled classes:
 * each package uses only the floors below its own; FFmpeg is used only behind engine.media; the
 * server's packages do not depend on each other in a circle; the player service knows no HTTP. The engine's floors (and that it knows nothing of the
 * server) are the engine's own test, EngineLayeringTest, so an engine-only build checks them.
 */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.scorecast.server");
    }

    /**
     * Bottom to top, as docs/ARCHITECTURE.md draws them; "root" is the package dev.scorecast.server
     * itself (ScorecastServer, which wires the others), under the CLI that starts it.
     */
    static final List<List<String>> FLOORS = List.of(
            List.of("config", "db", "studio"),
            List.of("storage", "auth", "downloads"),
            List.of("quota", "jobs", "player", "library"),
            List.of("upload", "retention"),
            List.of("analysis", "thumbnails"),
            List.of("execution", "webhooks"),
            List.of("api"),
            List.of("ops"),
            List.of("root"),
            List.of("cli"));

    private static final String SERVER = "dev.scorecast.server";

    @Test
    void eachFloorUsesOnlyTheFloorsBelowIt() {
        LayeredArchitecture floors = layeredArchitecture().consideringOnlyDependenciesInAnyPackage(SERVER + "..");
        List<String> below = new ArrayList<>();
        List<String[]> rules = new ArrayList<>();
        for (List<String> floor : FLOORS) {
            for (String name : floor) {
                floors = floors.layer(name).definedBy(name.equals("root") ? SERVER : SERVER + "." + name + "..");
                rules.add(new String[] {name, String.join(",", below)});
            }
            below.addAll(floor);
        }
        for (String[] rule : rules) {
            floors = rule[1].isEmpty()
                    ? floors.whereLayer(rule[0]).mayNotAccessAnyLayer()
                    : floors.whereLayer(rule[0]).mayOnlyAccessLayers(rule[1].split(","));
        }
        floors.because("docs/ARCHITECTURE.md draws the server's floors: a package uses only those below it")
                .check(classes);
    }

    @Test
    void everyPackageHasAFloor() {
        List<String> placed = FLOORS.stream().flatMap(List::stream).toList();
        var unplaced = classes.stream()
                .map(c -> c.getPackageName())
                .filter(p -> p.startsWith(SERVER + "."))
                .map(p -> p.substring(SERVER.length() + 1).split("\\.")[0])
                .filter(p -> !placed.contains(p))
                .distinct()
                .sorted()
                .toList();
        assertEquals(List.of(), unplaced, "a new package needs its floor here and in docs/ARCHITECTURE.md's drawing");
    }

    @Test
    void theServerLeavesFfmpegToEngineMedia() {
        noClasses()
                .that()
                .resideInAPackage("dev.scorecast.server..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.bytedeco..")
                .because(
                        "native decoding and encoding stay behind one package that knows their limits and failure modes")
                .check(classes);
    }

    @Test
    void serverPackagesHaveNoCycles() {
        slices().matching("dev.scorecast.server.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void thePlayerServiceKnowsNoHttp() {
        noClasses()
                .that()
                .resideInAPackage("dev.scorecast.server.player..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.javalin..", "dev.scorecast.server.api..")
                .because("the player is a service with plain values in and out; the api package is its only HTTP face")
                .check(classes);
    }
}
