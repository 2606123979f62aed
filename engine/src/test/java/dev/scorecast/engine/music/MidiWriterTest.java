package dev.scorecast.engine.music;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.plan.Plan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.sound.midi.MetaMessage;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MidiWriterTest {

    @Test
    void namesTheSecondPartOfAGroupApart(@TempDir Path dir) throws Exception {
        Score composed = new Composer().compose(Plans.plan("ambient", 3, 0.2, 0.7, 0.9, 0.5));
        Part pads = composed.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.PADS)
                .findFirst()
                .orElseThrow();
        List<Part> parts = new ArrayList<>(composed.parts());
        parts.add(pads); // as a conformed score's held-over notes play beside their group
        Score score = new Score(
                composed.duration(),
                composed.tempoMap(),
                parts,
                composed.accents(),
                composed.vocal(),
                composed.drumFills());
        Path file = dir.resolve("score.mid");
        MidiWriter.write(score, file);

        List<String> names = new ArrayList<>();
        for (Track track : MidiSystem.getSequence(file.toFile()).getTracks()) {
            for (int i = 0; i < track.size(); i++) {
                if (track.get(i).getMessage() instanceof MetaMessage m && m.getType() == 0x03) {
                    names.add(new String(m.getData(), StandardCharsets.US_ASCII));
                }
            }
        }
        assertEquals(1, names.stream().filter("pads"::equals).count(), names.toString());
        assertEquals(1, names.stream().filter("pads 2"::equals).count(), names.toString());
    }

    @Test
    void writesATypeOneFileWhoseNotesSoundWhenTheScoreSays(@TempDir Path dir) throws Exception {
        Plan plan = Plans.plan("hip-hop", 11, 0.2, 0.7, 0.9, 0.5);
        Score score = new Composer().compose(plan);
        Path file = dir.resolve("score.mid");
        MidiWriter.write(score, file);

        assertEquals(1, MidiSystem.getMidiFileFormat(file.toFile()).getType());
        Sequence sequence = MidiSystem.getSequence(file.toFile());
        assertEquals(Sequence.PPQ, sequence.getDivisionType());
        assertEquals(MidiWriter.PPQ, sequence.getResolution());
        Track[] tracks = sequence.getTracks();
        assertEquals(1 + score.parts().size(), tracks.length);

        // The conductor track: one tempo per section, at the right value.
        List<long[]> tempos = new ArrayList<>(); // {tick, micros per quarter}
        for (int i = 0; i < tracks[0].size(); i++) {
            if (tracks[0].get(i).getMessage() instanceof MetaMessage m && m.getType() == 0x51) {
                byte[] d = m.getData();
                tempos.add(new long[] {
                    tracks[0].get(i).getTick(), ((d[0] & 0xFF) << 16) | ((d[1] & 0xFF) << 8) | (d[2] & 0xFF)
                });
            }
        }
        assertEquals(plan.sections().size(), tempos.size());
        for (int i = 0; i < tempos.size(); i++) {
            assertEquals(60_000_000.0 / plan.sections().get(i).tempo(), tempos.get(i)[1], 0.5);
            assertEquals(plan.sections().get(i).start(), seconds(tempos, tempos.get(i)[0]), 0.001);
        }

        Map<InstrumentGroup, Integer> seen = new EnumMap<>(InstrumentGroup.class);
        for (int t = 1; t < tracks.length; t++) {
            Part part = score.parts().get(t - 1);
            int nth = seen.merge(part.group(), 1, Integer::sum);
            Track track = tracks[t];
            String name = null;
            List<Double> onsets = new ArrayList<>();
            int channel = -1;
            for (int i = 0; i < track.size(); i++) {
                MidiEvent e = track.get(i);
                if (e.getMessage() instanceof MetaMessage m && m.getType() == 0x03) {
                    name = new String(m.getData(), StandardCharsets.US_ASCII);
                } else if (e.getMessage() instanceof ShortMessage s
                        && s.getCommand() == ShortMessage.NOTE_ON
                        && s.getData2() > 0) {
                    onsets.add(seconds(tempos, e.getTick()));
                    channel = s.getChannel();
                }
            }
            assertEquals(nth == 1 ? part.group().wire() : part.group().wire() + " " + nth, name);
            assertEquals(part.drums(), channel == 9, part.group() + " on channel " + (channel + 1));
            List<Double> expected =
                    part.notes().stream().map(Note::start).sorted().toList();
            assertEquals(expected.size(), onsets.size(), part.group() + " note count");
            onsets.sort(null);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), onsets.get(i), 0.001, part.group() + " note " + i);
            }
        }
        // Section starts land on the tick whose time is the section start (within half a tick).
        for (var s : plan.sections()) {
            assertTrue(tracks[1].size() > 0);
            assertEquals(s.start(), seconds(tempos, new MidiWriter.TickMap(score.tempoMap()).tick(s.start())), 0.0006);
        }
    }

    /** Ticks to seconds as any MIDI player reads the tempo map. */
    private static double seconds(List<long[]> tempos, long tick) {
        double seconds = 0;
        long at = 0;
        long mpq = 500_000;
        for (long[] tempo : tempos) {
            if (tempo[0] > tick) {
                break;
            }
            seconds += (tempo[0] - at) * mpq / 1e6 / MidiWriter.PPQ;
            at = tempo[0];
            mpq = tempo[1];
        }
        return seconds + (tick - at) * mpq / 1e6 / MidiWriter.PPQ;
    }
}
