package dev.scorecast.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's part of the layering docs/ARCHITECTURE.md describes, held on the compiled classes:
 * FFmpeg is used only behind engine.media; the server's packages do not depend on each other in a
 * circle; the player service knows no HTTP. The engine's floors (and that it knows nothing of the
 * server) are the engine's own test, EngineLayeringTest, so an engine-only build checks them.
 */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.scorecast.server");
    }

    @Test
    void theServerLeavesFfmpegToEngineMedia() {
        noClasses().that().resideInAPackage("dev.scorecast.server..")
                .should().dependOnClassesThat().resideInAPackage("org.bytedeco..")
                .because("native decoding and encoding stay behind one package that knows their limits and failure modes")
                .check(classes);
    }

    @Test
    void serverPackagesHaveNoCycles() {
        slices().matching("dev.scorecast.server.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void thePlayerServiceKnowsNoHttp() {
        noClasses().that().resideInAPackage("dev.scorecast.server.player..")
                .should().dependOnClassesThat().resideInAnyPackage("io.javalin..", "dev.scorecast.server.api..")
                .because("the player is a service with plain values in and out; the api package is its only HTTP face")
                .check(classes);
    }
}
