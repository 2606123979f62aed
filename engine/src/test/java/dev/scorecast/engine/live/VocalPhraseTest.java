package dev.scorecast.engine.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.plan.Continuation;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.style.GenreCatalog;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import dev.scorecast.engine.voice.singing.SungNote;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The composed sung line cut into phrases, and each phrase timed at every tempo the player can play it. */
class VocalPhraseTest {

    @Test
    void everyPhraseAtEveryRelativeTempoIsALineTheSingerAccepts() {
        GenreCatalog genres = GenreCatalog.builtIn();
        int phrases = 0;
        for (Experience e : ExperienceCatalog.builtIn(genres).all()) {
            var genre = genres.find(e.genre()).orElseThrow();
            Continuation.State state = null;
            Section section = Continuation.next(genre, null, e.tempo(), e.intensity(), true, e.seed());
            for (int i = 0; i < 3; i++) {
                state = Continuation.after(section, i, state == null ? section.key() : state.home());
                Section next = Continuation.next(genre, state, e.tempo(), e.intensity(), true, e.seed());
                double at = 100 + 4 * i;
                for (VocalPhrase p : SectionScore.compose(
                                new Composer(), genre.id(), e.seed() + i, section, next, at, 0)
                        .phrases()) {
                    phrases++;
                    assertTrue(
                            p.startBeat() >= at && p.endBeat() <= at + section.bars() * section.beatsPerBar(),
                            "inside its section");
                    for (double relative = 0.8; relative <= 1.2001; relative += 0.01) {
                        List<SungNote> notes = p.at(p.bpm() * relative);
                        assertEquals(0, notes.getFirst().start());
                        assertEquals(
                                p.beats() * 60 / (p.bpm() * relative),
                                notes.getLast().end(),
                                1e-5);
                        for (int k = 1; k < notes.size(); k++) {
                            double gap = notes.get(k).start() - notes.get(k - 1).end();
                            // What EspeakSinger refuses: overlapping notes, a melisma after a rest; and a rest that
                            // long ends a line.
                            assertTrue(gap >= 0, e.id() + ": notes overlap by " + -gap + " s at " + relative);
                            assertTrue(
                                    gap < EspeakSinger.BREATH_GAP_SECONDS,
                                    "a phrase is one line, without a breath inside");
                            assertTrue(!notes.get(k).melisma() || gap <= 0.05, "a melisma follows its syllable");
                        }
                    }
                }
                section = next;
            }
        }
        assertTrue(phrases > 100, "phrases checked: " + phrases);
    }

    @Test
    void theSameLineAtTheSameTempoIsTheSameKeyWhereverItStarts() {
        List<SungNote> notes = List.of(
                SungNote.sung(0, 0.2, 60, 100, "fol-"),
                SungNote.sung(0.2, 0.2, 62, 100, "low"),
                SungNote.melisma(0.4, 0.1, 64, 100));
        VocalPhrase a = new VocalPhrase(8, 110, notes, -3, 0);
        VocalPhrase b = new VocalPhrase(1234.5, 110, notes, -3, 0);
        assertEquals(a.at(132), b.at(132));
        assertEquals(0.4 * 110 / 132, a.at(132).get(2).start(), 1e-6);
    }
}
