package dev.scorecast.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/ARCHITECTURE.md describes, held on the compiled classes: the engine knows
 * nothing of HTTP, databases or the server; FFmpeg is used only behind engine.media; neither the
 * engine's nor the server's packages depend on each other in a circle; the voice's three parts
 * (speech detection, speaking, singing) share only what engine.voice itself holds.
 */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void load() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.scorecast");
    }

    @Test
    void theEngineNeverUsesTheServerHttpOrADatabase() {
        noClasses().that().resideInAPackage("dev.scorecast.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.scorecast.server..", "io.javalin..", "org.eclipse.jetty..",
                        "java.sql..", "javax.sql..", "com.github.kagkarlsson..", "org.flywaydb..", "software.amazon..")
                .because("engine is the library every front end drives: a test, the CLI, a benchmark or the server")
                .check(classes);
    }

    @Test
    void onlyEngineMediaUsesFfmpeg() {
        noClasses().that().resideOutsideOfPackage("dev.scorecast.engine.media..")
                .should().dependOnClassesThat().resideInAPackage("org.bytedeco..")
                .because("native decoding and encoding stay behind one package that knows their limits and failure modes")
                .check(classes);
    }

    @Test
    void enginePackagesHaveNoCycles() {
        // The shared vocabulary (Span, InstrumentGroup) lives in engine.core; dsp holds processors
        // only (the production chain that reads the style data is render's PartChain).
        slices().matching("dev.scorecast.engine.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void speechDetectionSpeakingAndSingingStandApart() {
        slices().matching("dev.scorecast.engine.voice.(*)..").should().notDependOnEachOther()
                .because("each is used on its own (the analysis detects speech, the pipeline speaks and sings);"
                        + " what they share, espeak-ng and YIN, is engine.voice's")
                .check(classes);
        noClasses().that().resideInAPackage("dev.scorecast.engine.voice")
                .should().dependOnClassesThat().resideInAnyPackage("dev.scorecast.engine.voice.speech..",
                        "dev.scorecast.engine.voice.speaking..", "dev.scorecast.engine.voice.singing..")
                .because("engine.voice holds the shared tools the three parts build on")
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
