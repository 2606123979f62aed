package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The options are built by name, from the defaults, one {@code withX} per field. */
class GenerationOptionsTest {
    private static final String OPTIONS = GenerationOptions.class.getName().replace('.', '/');

    @Test
    void theDefaultsDuckAndAskForStemsAndLeaveTheRestOffOrToTheAnalysis() {
        GenerationOptions d = GenerationOptions.DEFAULT;
        assertEquals(
                new GenerationOptions(false, false, false, null, false, false, true, true, null, null, null, null), d);
        assertEquals(PlanOptions.DEFAULT, d.planOptions());
    }

    @Test
    void duckingCarriesIntoThePlanAsItIs() {
        assertFalse(GenerationOptions.DEFAULT.withDucking(false).planOptions().ducking());
    }

    /** So that a field added later cannot be left without its {@code withX}, nor one set another's. */
    @Test
    void everyFieldHasAWithThatSetsItAndKeepsTheOthers() throws Exception {
        GenerationOptions base = GenerationOptions.DEFAULT;
        for (RecordComponent field : GenerationOptions.class.getRecordComponents()) {
            String name = field.getName();
            String with =
                    name.startsWith("with") ? name : "with" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
            Method setter = GenerationOptions.class.getMethod(with, field.getType());
            Object value = otherThan(field.getAccessor().invoke(base), field.getType());
            GenerationOptions changed = (GenerationOptions) setter.invoke(base, value);
            for (RecordComponent other : GenerationOptions.class.getRecordComponents()) {
                Object expected = other.getName().equals(name)
                        ? value
                        : other.getAccessor().invoke(base);
                assertEquals(expected, other.getAccessor().invoke(changed), with + " and " + other.getName());
            }
            assertNotEquals(base, changed, with);
        }
    }

    private static Object otherThan(Object value, Class<?> type) {
        if (type == boolean.class) {
            return !(Boolean) value;
        }
        if (type == String.class) {
            return "x";
        }
        if (type == Long.class) {
            return 7L;
        }
        if (type == Integer.class) {
            return 99;
        }
        throw new AssertionError("no other value for a " + type + ": add one here");
    }

    /**
     * Read from the compiled classes of the engine and its tests with the JDK's class-file API (a
     * second or so; importing the engine into ArchUnit takes half a minute).
     */
    @Test
    void nothingInTheEngineNorItsTestsBuildsThemByPosition() throws Exception {
        List<String> callers = new ArrayList<>();
        for (Class<?> near : List.of(GenerationOptions.class, GenerationOptionsTest.class)) {
            Path root = Path.of(
                    near.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".class")).toList()) {
                    ClassModel model = ClassFile.of().parse(file);
                    String name = model.thisClass().asInternalName();
                    // The record and its own builder build it; nothing else does.
                    if (!name.equals(OPTIONS)
                            && !name.equals(OPTIONS + "$Builder")
                            && !name.equals(
                                    GenerationOptionsTest.class.getName().replace('.', '/'))) {
                        callers.addAll(constructorCalls(model));
                    }
                }
            }
        }
        assertEquals(
                List.of(),
                callers,
                "seven switches side by side are too easy to pass in the wrong order: "
                        + "start from GenerationOptions.DEFAULT and name what differs with its withX methods");
        try (var own = GenerationOptions.class.getResourceAsStream("GenerationOptions.class")) {
            assertFalse(
                    constructorCalls(ClassFile.of().parse(own.readAllBytes())).isEmpty(),
                    "the check finds a call where there is one");
        }
    }

    /** The methods of {@code model} that call a constructor of GenerationOptions. */
    private static List<String> constructorCalls(ClassModel model) {
        List<String> callers = new ArrayList<>();
        for (MethodModel method : model.methods()) {
            method.code()
                    .ifPresent(code -> code.forEach(element -> {
                        if (element instanceof InvokeInstruction call
                                && call.owner().asInternalName().equals(OPTIONS)
                                && call.name().equalsString("<init>")) {
                            callers.add(model.thisClass().asInternalName() + "."
                                    + method.methodName().stringValue());
                        }
                    }));
        }
        return callers;
    }
}
