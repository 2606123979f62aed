package dev.scorecast.engine.live;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanOptions;
import dev.scorecast.engine.plan.Section;
import dev.scorecast.engine.voice.singing.EspeakSinger;
import dev.scorecast.engine.voice.singing.SungNote;
import java.util.ArrayList;
import java.util.List;

/**
 * One section composed by the sync pipeline's {@link Composer} and turned into {@link Cue}s in
 * beats for the synthesizer, and its sung line into {@link VocalPhrase}s for the singer. The
 * section is composed together with the one after it, so that its last bars lead into the next
 * (approach notes, no final cadence), and only its own notes are kept.
 */
final class SectionScore {
    /** MIDI channel per group, by ordinal: beats on the GM drum channel, the rest on their own. */
    static final int[] CHANNEL = {9, 0, 1, 2, 3, 4, 5, 6};

    private SectionScore() {}

    /** A part's sound on its channel: program, volume and pan to set when the section starts. */
    record ChannelSound(int channel, int program, boolean drums, int volume, int pan) {
        Cue.ChannelSound at(double beat) {
            return new Cue.ChannelSound(beat, channel, program, drums, volume, pan);
        }
    }

    /** The synthesizer's cues and channel sounds, and the lines the singer sings. */
    record Composed(List<Cue> cues, List<ChannelSound> sounds, List<VocalPhrase> phrases, double beats) {}

    /**
     * The cues of {@code section} from {@code startBeat} on. {@code firstNote} numbers the notes so
     * that every note of the performance has its own id.
     */
    static Composed compose(
            Composer composer,
            String genre,
            long seed,
            Section section,
            Section next,
            double startBeat,
            long firstNote) {
        double seconds = section.barsSeconds();
        List<Section> sections = new ArrayList<>();
        sections.add(section.alone(0, 0, seconds));
        double duration = seconds;
        if (next != null) {
            double nextSeconds = next.barsSeconds();
            sections.add(next.alone(1, seconds, seconds + nextSeconds));
            duration += nextSeconds;
        }
        Plan plan =
                new Plan(Plan.VERSION, null, seed, genre, duration, PlanOptions.DEFAULT, Plan.Master.DEFAULT, sections);
        Score score = composer.compose(plan);
        double beatsPerSecond = section.tempo() / 60.0;
        List<Cue> cues = new ArrayList<>();
        List<ChannelSound> sounds = new ArrayList<>();
        long id = firstNote;
        // The vocals part is not played: the singer sings the line (the phrases below).
        for (Part part : score.instrumental().parts()) {
            int channel = CHANNEL[part.group().ordinal()];
            // Gain as channel volume: GM volume is 40 log10(cc7 / 127) dB.
            int volume = (int) Math.round(Math.clamp(127 * Math.pow(10, part.gainDb() / 40), 0, 127));
            int pan = (int) Math.round(Math.clamp(64 + part.pan() * 63.5, 0, 127));
            sounds.add(new ChannelSound(channel, part.program(), part.drums(), volume, pan));
            for (Part.ProgramChange pc : part.programChanges()) {
                if (pc.time() < seconds) {
                    cues.add(new Cue.Program(
                            startBeat + pc.time() * beatsPerSecond, channel, pc.program(), part.drums()));
                }
            }
            for (Note n : part.notes()) {
                if (n.start() >= seconds - 1e-9) {
                    continue;
                }
                id++;
                double on = startBeat + n.start() * beatsPerSecond;
                double off = startBeat + n.end() * beatsPerSecond;
                cues.add(new Cue.NoteOn(on, channel, n.pitch(), n.velocity(), id));
                cues.add(new Cue.NoteOff(Math.max(off, on + 1e-4), channel, n.pitch(), id));
            }
        }
        return new Composed(
                cues,
                sounds,
                phrases(score, seconds, startBeat, section.tempo()),
                section.bars() * (double) section.beatsPerBar());
    }

    /**
     * The section's sung notes cut into phrases at every rest where the singer would breathe (each
     * line of lyrics is one), so that each can be sung, and re-sung after a tempo change, alone.
     */
    static List<VocalPhrase> phrases(Score score, double seconds, double startBeat, double bpm) {
        Part part = score.parts().stream()
                .filter(p -> p.group() == InstrumentGroup.VOCALS)
                .findFirst()
                .orElse(null);
        if (part == null) {
            return List.of();
        }
        List<VocalPhrase> phrases = new ArrayList<>();
        List<SungNote> line = new ArrayList<>();
        for (SungNote n : score.vocal()) {
            if (n.start() >= seconds - 1e-9) {
                break;
            }
            if (!line.isEmpty() && n.start() - line.getLast().end() >= EspeakSinger.BREATH_GAP_SECONDS) {
                phrases.add(phrase(line, startBeat, bpm, part));
                line.clear();
            }
            line.add(n);
        }
        if (!line.isEmpty()) {
            phrases.add(phrase(line, startBeat, bpm, part));
        }
        return phrases;
    }

    private static VocalPhrase phrase(List<SungNote> line, double startBeat, double bpm, Part part) {
        double first = line.getFirst().start();
        List<SungNote> notes = line.stream()
                .map(n -> new SungNote(
                        n.start() - first, n.duration(), n.pitch(), n.velocity(), n.syllable(), n.melisma()))
                .toList();
        return new VocalPhrase(startBeat + first * bpm / 60, bpm, notes, part.gainDb(), part.pan());
    }
}
