package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The contract of a live part's {@code copy()}, checked by reflection over the part's fields, so that a field added
 * later and forgotten in {@code copy()} fails its test: {@link #fill} gives every field a value unlike a fresh part's
 * (numbers moved on, booleans flipped, collections and arrays given elements, references the test's samples, by field
 * name), and {@link #assertCopied} compares every field of the copy with the original's, deeply, except those the part
 * does not take over by design, each named with its reason. A field neither filled nor given a reason fails.
 */
final class CopyCheck {
    private CopyCheck() {}

    /**
     * Fills every field of {@code part}: primitives moved off what they hold, collections and arrays given the elements
     * in {@code samples} (or, for primitive arrays, non-zero ones), other references set to {@code samples}' value. Final
     * primitives and strings are left as the constructor set them (the copy is built with them). Fails for a field it
     * cannot fill that {@code skip} does not name.
     */
    static <T> T fill(T part, Map<String, ?> samples, Set<String> skip) {
        for (Field f : fields(part.getClass())) {
            try {
                fill(part, f, samples, skip);
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        return part;
    }

    static <T> T fill(T part, Map<String, ?> samples) {
        return fill(part, samples, Set.of());
    }

    private static void fill(Object part, Field f, Map<String, ?> samples, Set<String> skip)
            throws IllegalAccessException {
        String name = f.getName();
        Class<?> type = f.getType();
        boolean isFinal = Modifier.isFinal(f.getModifiers());
        Object now = f.get(part);
        if (skip.contains(name)) {
            return;
        }
        if (samples.containsKey(name)) {
            Object sample = samples.get(name);
            if (now instanceof Collection<?> c && isFinal) {
                @SuppressWarnings("unchecked")
                Collection<Object> into = (Collection<Object>) c;
                into.clear();
                into.addAll((Collection<?>) sample);
            } else if (type.isArray() && isFinal) {
                assertEquals(Array.getLength(now), Array.getLength(sample), name + ": the sample's length");
                System.arraycopy(sample, 0, now, 0, Array.getLength(sample));
            } else {
                f.set(part, sample);
            }
            return;
        }
        if (type.isPrimitive()) {
            if (!isFinal) {
                f.set(part, moved(type, now));
            }
            return;
        }
        if (type == String.class && isFinal) {
            return;
        }
        if (type.isArray() && type.getComponentType().isPrimitive()) {
            for (int i = 0; i < Array.getLength(now); i++) {
                Array.set(now, i, moved(type.getComponentType(), Array.get(now, i)));
            }
            return;
        }
        fail("no sample for field " + name + " (" + type.getSimpleName() + ") of "
                + part.getClass().getSimpleName() + ": give the test one, or name why copy() leaves it");
    }

    /** A value of primitive {@code type} unlike {@code now}. */
    private static Object moved(Class<?> type, Object now) {
        return switch (now) {
            case Boolean b -> !b;
            case Integer i -> i + 3;
            case Long l -> l + 5;
            case Double d -> Double.isNaN(d) ? 1.0 : d + 0.25;
            case Float x -> x + 0.5f;
            default -> throw new AssertionError("no moved value for " + type);
        };
    }

    /**
     * Asserts that every field of {@code copy} holds what the same field of {@code original} holds (deeply: records by
     * their components, collections by their elements, the project's classes field by field, the JDK's other classes the
     * same instance), except the fields of {@code notCopied}, whose values are the reasons. A name there that is no field
     * fails too, so the list cannot go stale.
     */
    static void assertCopied(Object original, Object copy, Map<String, String> notCopied) {
        assertEquals(original.getClass(), copy.getClass());
        List<Field> fields = fields(original.getClass());
        for (String name : notCopied.keySet()) {
            assertTrue(
                    fields.stream().anyMatch(f -> f.getName().equals(name)),
                    "no field " + name + " in " + original.getClass().getSimpleName());
        }
        for (Field f : fields) {
            if (notCopied.containsKey(f.getName())) {
                continue;
            }
            try {
                String path = original.getClass().getSimpleName() + "." + f.getName();
                assertTrue(
                        filled(f.get(original)),
                        path + " holds what a fresh one does: fill it, or the check says nothing of it");
                assertSame(f.get(original), f.get(copy), path, new IdentityHashMap<>());
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static void assertSame(Object a, Object b, String path, IdentityHashMap<Object, Object> seen)
            throws IllegalAccessException {
        if (a == b) {
            return;
        }
        if (a == null || b == null) {
            fail(path + ": " + a + " in the original, " + b + " in the copy");
        }
        assertEquals(a.getClass(), b.getClass(), path);
        Class<?> type = a.getClass();
        if (seen.put(a, b) != null) {
            return;
        }
        if (type.isArray()) {
            assertEquals(Array.getLength(a), Array.getLength(b), path + ": length");
            for (int i = 0; i < Array.getLength(a); i++) {
                assertSame(Array.get(a, i), Array.get(b, i), path + "[" + i + "]", seen);
            }
        } else if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    assertSame(c.getAccessor().invoke(a), c.getAccessor().invoke(b), path + "." + c.getName(), seen);
                } catch (ReflectiveOperationException e) {
                    throw new AssertionError(e);
                }
            }
        } else if (a instanceof List<?> x) {
            List<?> y = (List<?>) b;
            assertEquals(x.size(), y.size(), path + ": size");
            for (int i = 0; i < x.size(); i++) {
                assertSame(x.get(i), y.get(i), path + "[" + i + "]", seen);
            }
        } else if (a instanceof Collection<?> x) {
            // A queue or a set: the same elements, in whatever order it keeps them.
            List<Object> left = new ArrayList<>((Collection<?>) b);
            assertEquals(x.size(), left.size(), path + ": size");
            for (Object e : x) {
                Object match = left.stream()
                        .filter(o -> same(e, o, path))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(path + ": " + e + " is not in the copy"));
                left.remove(match);
            }
        } else if (overridesEquals(type)) {
            assertEquals(a, b, path);
        } else if (type.getName().startsWith("java.")) {
            fail(path + ": another " + type.getSimpleName() + " in the copy, where it shares the original's");
        } else {
            for (Field f : fields(type)) {
                assertSame(f.get(a), f.get(b), path + "." + f.getName(), seen);
            }
        }
    }

    /** Whether {@code value} is unlike a fresh field's: not null, zero, false, empty, or an array of those. */
    private static boolean filled(Object value) {
        return switch (value) {
            case null -> false;
            case Boolean b -> b;
            case Number n -> n.doubleValue() != 0;
            case Collection<?> c -> !c.isEmpty();
            case Object a
            when a.getClass().isArray() ->
                IntStream.range(0, Array.getLength(a)).anyMatch(i -> filled(Array.get(a, i)));
            default -> true;
        };
    }

    private static boolean same(Object a, Object b, String path) {
        try {
            assertSame(a, b, path, new IdentityHashMap<>());
            return true;
        } catch (AssertionError | IllegalAccessException e) {
            return false;
        }
    }

    private static boolean overridesEquals(Class<?> type) {
        try {
            return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The instance fields {@code type} declares, made accessible. */
    static List<Field> fields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                f.setAccessible(true);
                fields.add(f);
            }
        }
        return fields;
    }

    /** A new instance of {@code type} (a private one of a part, as a line of the singer) from the constructor taking {@code args}. */
    static Object construct(Class<?> type, Object... args) {
        try {
            var ctor = Arrays.stream(type.getDeclaredConstructors())
                    .filter(c -> c.getParameterCount() == args.length)
                    .findFirst()
                    .orElseThrow();
            ctor.setAccessible(true);
            return ctor.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** The nested class {@code name} of {@code outer} (a part's private record or class). */
    static Class<?> nested(Class<?> outer, String name) {
        return Arrays.stream(outer.getDeclaredClasses())
                .filter(c -> c.getSimpleName().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
