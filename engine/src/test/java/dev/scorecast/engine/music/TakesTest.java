package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.scorecast.engine.core.InstrumentGroup;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TakesTest {
    @Test
    void eachKeysStrikesAreNumberedInTimeOrderWhateverTheListOrder() {
        Part part = new Part(
                InstrumentGroup.BEATS,
                0,
                true,
                0,
                0,
                List.of(
                        new Note(1.0, 0.1, 42, 90),
                        new Note(0.0, 0.1, 36, 100),
                        new Note(0.5, 0.1, 42, 80),
                        new Note(0.0, 0.1, 42, 70),
                        new Note(1.5, 0.1, 36, 100)),
                List.of());
        List<Note> n = Takes.numbered(part).notes();
        assertEquals(List.of(2, 0, 1, 0, 1), n.stream().map(Note::take).toList());
        assertEquals(
                part.notes().stream().map(Note::start).toList(),
                n.stream().map(Note::start).toList(),
                "notes stay where they were");
    }

    @Test
    void theComposersPartsCarryTheirTakes() {
        Score score = new Composer().compose(Plans.plan("pop", 30, 0.2, 0.5, 0.9, 0.4));
        for (Part p : score.parts()) {
            Map<Integer, Integer> next = new HashMap<>();
            p.notes().stream().sorted(Comparator.comparingDouble(Note::start)).forEach(note -> {
                int expected = next.merge(note.pitch(), 1, Integer::sum) - 1;
                assertEquals(expected, note.take(), p.group() + " pitch " + note.pitch() + " at " + note.start());
            });
        }
    }
}
