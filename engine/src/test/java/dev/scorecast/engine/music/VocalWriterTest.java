package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.core.Span;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Syllabifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sung line: every syllable on a note, lines ending long with a rest, resting under speech. */
class VocalWriterTest {
    static final String LYRICS =
            "We ride the morning light\nOut where the river runs\nHold on and never fight\nAll of the shining suns";

    /** Plans.plan's second section (12 to 30 s) singing the lyrics. */
    static Plan singing(String lyrics) {
        Plan plan = Plans.plan("pop", 3, 0.5, 0.7, 0.6, 0.4);
        List<Section> sections = new ArrayList<>(plan.sections());
        Section s = sections.get(1);
        Map<String, Section.Instrument> instruments = new LinkedHashMap<>(s.instruments());
        instruments.put("vocals", new Section.Instrument("pop", 85, "lead voice", -3, 0, "pop/vocals/2"));
        sections.set(1, s.withVocals(instruments, lyrics));
        return new Plan(
                plan.version(),
                plan.id(),
                plan.seed(),
                plan.genre(),
                plan.duration(),
                plan.options(),
                plan.master(),
                sections);
    }

    @Test
    void everySyllableIsSungInOrderAndLinesEndLongWithARest() {
        Score score = new Composer().compose(singing(LYRICS));
        List<SungNote> vocal = score.vocal();
        List<String> expected = new ArrayList<>();
        LYRICS.lines().forEach(line -> expected.addAll(Syllabifier.syllables(line)));
        List<String> sung =
                vocal.stream().filter(n -> !n.melisma()).map(SungNote::syllable).toList();
        assertEquals(expected, sung, "one syllable per note, in order");
        assertTrue(vocal.stream().anyMatch(SungNote::melisma), "some syllable sings more than one note");
        for (int i = 1; i < vocal.size(); i++) {
            assertTrue(
                    vocal.get(i).start() >= vocal.get(i - 1).end() - 1e-9,
                    "a monophonic line: " + vocal.get(i - 1) + " " + vocal.get(i));
        }
        long restsOfABeat = 0;
        for (int i = 1; i < vocal.size(); i++) {
            if (vocal.get(i).start() - vocal.get(i - 1).end() >= 0.4) {
                restsOfABeat++;
            }
        }
        assertTrue(restsOfABeat >= 3, "a breath between each of the four lines: " + restsOfABeat);
        assertTrue(
                vocal.stream().allMatch(n -> n.pitch() >= VocalWriter.LOW && n.pitch() <= VocalWriter.HIGH),
                "in the register");
        assertTrue(
                vocal.stream().allMatch(n -> n.start() >= 12 - 1e-9 && n.end() <= 30 + 1e-9),
                "inside the singing section");
        Part part = score.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.VOCALS)
                .findFirst()
                .orElseThrow();
        assertEquals(vocal.size(), part.notes().size(), "the MIDI part is the sung line");
        assertFalse(
                score.instrumental().parts().stream().anyMatch(p -> p.group() == InstrumentGroup.VOCALS),
                "the synth never plays it");
    }

    @Test
    void theSingerRestsUnderSpeechAndComesBackAfterIt() {
        Plan plan = singing(LYRICS);
        List<SungNote> all = new Composer().compose(plan).vocal();
        double firstLineEnd = all.stream()
                .filter(n -> n.start() < 16)
                .mapToDouble(SungNote::end)
                .max()
                .orElseThrow();
        List<SungNote> around =
                new Composer().compose(plan, List.of(new Span(13, 14))).vocal();
        assertTrue(around.stream().noneMatch(n -> n.start() < firstLineEnd), "the line under the words is not sung");
        assertFalse(around.isEmpty(), "the next lines come back");
        assertTrue(around.size() < all.size());
        List<Note> melody = new Composer()
                .compose(plan, List.of(new Span(20, 24))).parts().stream()
                        .filter(p -> p.group() == InstrumentGroup.MELODY)
                        .findFirst()
                        .orElseThrow()
                        .notes();
        assertTrue(
                melody.stream().noneMatch(n -> n.end() > 19.75 && n.start() < 24.25),
                "the melody rests under speech too");
    }

    @Test
    void noLyricsNoLine() {
        assertTrue(new Composer().compose(singing(null)).vocal().isEmpty());
        assertTrue(new Composer().compose(singing("  \n ")).vocal().isEmpty());
    }
}
