package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChordTest {

    private static List<Integer> pcs(String symbol, String key, String mode) {
        return Chord.parse(symbol, key, mode).pitchClasses();
    }

    @Test
    void degreesCountInTheModeScale() {
        assertEquals(List.of(8, 0, 3), pcs("VI", "C", "minor"), "C minor VI = Ab major");
        assertEquals(List.of(3, 7, 10), pcs("III", "C", "minor"), "C minor III = Eb major");
        assertEquals(List.of(10, 2, 5), pcs("VII", "C", "minor"), "C minor VII = Bb major");
        assertEquals(List.of(0, 3, 7), pcs("i", "C", "minor"));
        assertEquals(List.of(7, 11, 2), pcs("V", "C", "minor"), "upper case makes the dominant major");
        assertEquals(List.of(9, 0, 4), pcs("vi", "C", "major"));
        assertEquals(List.of(10, 2, 5), pcs("VII", "C", "mixolydian"));
        assertEquals(List.of(9, 0, 4), pcs("iv", "E", "minor"));
        assertEquals(List.of(9, 1, 4), pcs("IV", "E", "minor"));
        assertEquals(List.of(5, 9, 0), pcs("IV", "C", "dorian"));
    }

    @Test
    void accidentalsShiftTheRoot() {
        assertEquals(List.of(10, 2, 5), pcs("bVII", "C", "major"));
        assertEquals(List.of(8, 0, 3), pcs("bVI", "C", "major"));
        assertEquals(List.of(6, 9, 0), pcs("#ivdim", "C", "major"));
        assertEquals(List.of(9, 0, 3), pcs("viidim", "Bb", "major"));
        assertEquals(List.of(7, 11, 2), pcs("bVII", "Bb", "minor"), "Bb minor VII is Ab, flattened G");
    }

    @Test
    void qualitiesAndExtensions() {
        assertEquals(List.of(7, 11, 2, 5), pcs("V7", "C", "major"));
        assertEquals(List.of(2, 5, 9, 0), pcs("ii7", "C", "major"));
        assertEquals(List.of(0, 4, 7, 11), pcs("Imaj7", "C", "major"));
        assertEquals(List.of(0, 2, 7), pcs("Isus2", "C", "major"));
        assertEquals(List.of(7, 0, 2), pcs("Vsus4", "C", "major"));
        assertEquals(List.of(0, 4, 7, 2), pcs("Iadd9", "C", "major"));
        assertEquals(List.of(11, 2, 5), pcs("viidim", "C", "major"));
        assertEquals(List.of(11, 2, 5, 8), pcs("viidim7", "C", "major"));
        assertEquals(List.of(0, 4, 8), pcs("Iaug", "C", "major"));
        assertEquals(List.of(6, 9, 1), pcs("i", "F#", "minor"));
        assertEquals(List.of(3, 6, 10), pcs("i", "D#", "minor"));
    }

    @Test
    void badSymbolsAreBugs() {
        assertThrows(IllegalStateException.class, () -> Chord.parse("IX", "C", "major"));
        assertThrows(IllegalStateException.class, () -> Chord.parse("I", "H", "major"));
        assertThrows(IllegalStateException.class, () -> Chord.parse("I", "C", "lydian"));
    }
}
