package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.scorecast.engine.io.Json;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The phrase forms and overlays (styles/phrases.json) as pure functions. */
class PhrasingTest {

    private static JsonNode json(String text) throws Exception {
        return Json.mapper().readTree(text);
    }

    @Test
    void anOverlayKeepsWhatItDoesNotReplaceAndSlicesATwoBarPattern() {
        assertEquals("R-R-R-R-R-R-N---", Phrasing.overlay("R-R-R-R-R-R-R-R-", 0, "____________N---"));
        assertEquals("..X.........x.x.", Phrasing.overlay("X-------X-------..X.............", 1, "____________x.x."));
    }

    @Test
    void eachLetterIsHeardAsADifferentRhythmEvenWhereTheFirstOverlayChangesNothing() throws Exception {
        // Straight quarters already strike beat 4: a push there is no variation, the next overlay is taken.
        JsonNode b = json("[\"____________X---\", \"______________N-\"]");
        JsonNode c = json("[\"______________N-\", \"____________x.x.\", \"________x.X.x.X.\"]");
        Map<Character, JsonNode> variants = Map.of('B', b, 'C', c);
        String level = "X---X---X---X---";
        Set<BitSet> heard = new HashSet<>();
        heard.add(Phrasing.onsets(level));
        for (char letter : new char[] {'B', 'C'}) {
            String bar = Phrasing.rhythm(level, 0, letter, l -> variants.get((char) l));
            assertEquals(16, bar.length());
            // distinct from A and from every letter before it
            assertEquals(true, heard.add(Phrasing.onsets(bar)), letter + " " + bar);
        }
        assertEquals("X---X---X---X-N-", Phrasing.rhythm(level, 0, 'B', l -> variants.get((char) l)));
    }

    @Test
    void drumOverlaysGoPerNoteWithAWildcardAndAddTheNotesTheGridLacks() throws Exception {
        Map<String, String> grid = Map.of("36", "9...9...9...9...", "42", "7.7.7.7.7.7.7.7.");
        Map<String, String> varied = Phrasing.overlay(
                grid,
                0,
                json("{\"*\": \"______________..\", \"36\": \"______________5_\", \"46\": \"______________6.\"}"));
        assertEquals("9...9...9...9.5.", varied.get("36"));
        assertEquals("7.7.7.7.7.7.7...", varied.get("42"));
        assertEquals("..............6.", varied.get("46"));
        // All drums together: a kick added where the hats already play is not heard as a new rhythm; the next candidate
        // is.
        JsonNode b = json("[{\"36\": \"______________6_\"}, {\"36\": \"_____________5__\"}]");
        Map<String, String> chosen = Phrasing.grid(grid, 0, 'B', l -> l == 'B' ? b : null);
        assertEquals("9...9...9...95..", chosen.get("36"));
        assertNotEquals(Phrasing.onsets(Phrasing.overlay(grid, 0, null)), Phrasing.onsets(chosen));
    }

    @Test
    void theBarBeforeTheNextSectionTurnsAroundAndTheFinalCadenceIsTheLevelsOwn() {
        List<String> forms = List.of("AABCAABD");
        assertEquals('D', Phrasing.letter(forms, 0, 7, 8, false));
        assertEquals('B', Phrasing.letter(forms, 0, 2, 16, false));
        assertEquals('C', Phrasing.letter(forms, 0, 11, 16, false));
        assertEquals('A', Phrasing.letter(forms, 0, 14, 16, true));
        assertEquals('A', Phrasing.letter(forms, 0, 15, 16, true));
    }
}
