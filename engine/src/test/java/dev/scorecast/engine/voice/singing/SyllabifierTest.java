package dev.scorecast.engine.voice.singing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SyllabifierTest {

    @ParameterizedTest
    @CsvSource({
        "beautiful, beau-ti-ful",
        "morning, mor-ning",
        "light, light",
        "table, ta-ble",
        "flying, fly-ing",
        "going, go-ing",
        "away, a-way",
        "tonight, to-night",
        "under, un-der",
        "golden, gol-den",
        "the, the",
        "fire, fire",
        "makes, makes",
        "wanted, wan-ted",
        "walked, walked",
        "brother, bro-ther",
        "singer, sing-er",
        "yesterday, yes-ter-day",
        "don't, don't",
        "hello, hel-lo",
        "dancing, dan-cing",
        "river, ri-ver",
        "together, to-ge-ther",
        "heart, heart",
        "Shadows, Sha-dows",
        "little, lit-tle",
        "forever, fo-re-ver"
    })
    void splitsWordsBySpelling(String word, String expected) {
        assertEquals(List.of(expected.split("-")), Syllabifier.word(word));
    }

    @Test
    void aLineIsHyphenatedForTheSinger() {
        assertEquals(
                List.of("Hold", "me", "un-", "der", "the", "gol-", "den", "light"),
                Syllabifier.syllables("  Hold me, under the golden light!  "));
        assertEquals(8, Syllabifier.count("Hold me, under the golden light!"));
        assertEquals(List.of(), Syllabifier.syllables(" ... "));
    }
}
