package dev.scorecast.engine.music;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.music.Part.ProgramChange;
import dev.scorecast.engine.music.Score.TempoChange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.sound.midi.InvalidMidiDataException;
import javax.sound.midi.MetaMessage;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;

/**
 * Writes a {@link Score} as a type-1 Standard MIDI File at {@value #PPQ} ticks per quarter: a
 * conductor track with the tempo map (tempo and time signature at each section start), then one
 * track per part named after its group, drums on channel 10. Seconds become ticks through the
 * tempo map; each tempo change sits on the tick where a reader's clock meets its time, so no
 * rounding accumulates and every note is within half a tick (< 0.5 ms) of its time in seconds.
 */
public final class MidiWriter {
    static final int PPQ = 960;

    private MidiWriter() {}

    public static void write(Score score, Path out) {
        try {
            Sequence sequence = sequence(score);
            Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
            try (var stream = Files.newOutputStream(tmp)) {
                MidiSystem.write(sequence, 1, stream);
            }
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write MIDI file " + out, e);
        } catch (InvalidMidiDataException e) {
            throw new IllegalStateException("score does not fit in MIDI: " + e.getMessage(), e);
        }
    }

    static Sequence sequence(Score score) throws InvalidMidiDataException {
        Sequence sequence = new Sequence(Sequence.PPQ, PPQ);
        TickMap ticks = new TickMap(score.tempoMap());
        Track conductor = sequence.createTrack();
        conductor.add(meta(0x03, "tempo map".getBytes(StandardCharsets.US_ASCII), 0));
        for (int i = 0; i < ticks.segments.size(); i++) {
            Segment s = ticks.segments.get(i);
            int mpq = s.microsPerQuarter;
            conductor.add(meta(0x51, new byte[] {(byte) (mpq >> 16), (byte) (mpq >> 8), (byte) mpq}, s.tick));
            String meter = score.tempoMap().get(i).meter() == null
                    ? "4/4"
                    : score.tempoMap().get(i).meter();
            int numerator = Integer.parseInt(meter.substring(0, meter.indexOf('/')));
            int denominator = Integer.parseInt(meter.substring(meter.indexOf('/') + 1));
            int power = Integer.numberOfTrailingZeros(Integer.highestOneBit(Math.max(1, denominator)));
            conductor.add(meta(0x58, new byte[] {(byte) numerator, (byte) power, 24, 8}, s.tick));
        }
        int nextChannel = 0;
        Map<InstrumentGroup, Integer> named = new EnumMap<>(InstrumentGroup.class);
        for (Part part : score.parts()) {
            int channel;
            if (part.drums()) {
                channel = 9;
            } else {
                channel = nextChannel == 9 ? ++nextChannel : nextChannel;
                nextChannel = Math.min(15, channel + 1);
            }
            Track track = sequence.createTrack();
            track.add(meta(
                    0x03,
                    trackName(part.group(), named.merge(part.group(), 1, Integer::sum))
                            .getBytes(StandardCharsets.US_ASCII),
                    0));
            // A program above 127 is 128 x bank + program (SoundBank): bank select MSB, then the program.
            track.add(new MidiEvent(
                    new ShortMessage(ShortMessage.CONTROL_CHANGE, channel, 0, part.program() >> 7 & 0x7F), 0));
            track.add(
                    new MidiEvent(new ShortMessage(ShortMessage.PROGRAM_CHANGE, channel, part.program() & 0x7F, 0), 0));
            int volume = (int) Math.round(Math.clamp(100 * Math.pow(10, part.gainDb() / 40), 0, 127));
            int pan = (int) Math.round(Math.clamp(64 + part.pan() * 63, 0, 127));
            track.add(new MidiEvent(new ShortMessage(ShortMessage.CONTROL_CHANGE, channel, 7, volume), 0));
            track.add(new MidiEvent(new ShortMessage(ShortMessage.CONTROL_CHANGE, channel, 10, pan), 0));
            for (ProgramChange pc : part.programChanges()) {
                track.add(new MidiEvent(
                        new ShortMessage(ShortMessage.CONTROL_CHANGE, channel, 0, pc.program() >> 7 & 0x7F),
                        ticks.tick(pc.time())));
                track.add(new MidiEvent(
                        new ShortMessage(ShortMessage.PROGRAM_CHANGE, channel, pc.program() & 0x7F, 0),
                        ticks.tick(pc.time())));
            }
            for (Part.Control c : part.controls()) {
                track.add(new MidiEvent(
                        new ShortMessage(ShortMessage.CONTROL_CHANGE, channel, c.controller(), c.value()),
                        ticks.tick(c.time())));
            }
            List<Note> notes = new ArrayList<>(part.notes());
            notes.sort(Comparator.comparingDouble(Note::start));
            for (Note n : notes) {
                long on = ticks.tick(n.start());
                long off = Math.max(on + 1, ticks.tick(n.end()));
                track.add(new MidiEvent(new ShortMessage(ShortMessage.NOTE_ON, channel, n.pitch(), n.velocity()), on));
                track.add(new MidiEvent(new ShortMessage(ShortMessage.NOTE_OFF, channel, n.pitch(), 0), off));
            }
        }
        return sequence;
    }

    /**
     * A track's name: its group's, and from the group's second part on a number after it ("pads",
     * "pads 2"), so a DAW shows apart the parts one group holds (a conformed score's held-over notes
     * play on a part of their own beside the group's).
     */
    static String trackName(InstrumentGroup group, int nth) {
        return nth == 1 ? group.wire() : group.wire() + " " + nth;
    }

    private static MidiEvent meta(int type, byte[] data, long tick) throws InvalidMidiDataException {
        return new MidiEvent(new MetaMessage(type, data, data.length), tick);
    }

    /** One tempo: from {@code tick} (heard at {@code seconds} by a reader) at {@code microsPerQuarter}. */
    record Segment(double time, long tick, double seconds, int microsPerQuarter) {}

    /** Seconds -> ticks through the tempo map, as a MIDI reader will turn them back. */
    static final class TickMap {
        final List<Segment> segments = new ArrayList<>();

        TickMap(List<TempoChange> tempoMap) {
            List<TempoChange> map = tempoMap.isEmpty() ? List.of(new TempoChange(0, 120, "4/4")) : tempoMap;
            for (TempoChange change : map) {
                int mpq = (int) Math.round(60_000_000.0 / change.bpm());
                if (segments.isEmpty()) {
                    segments.add(new Segment(0, 0, 0, mpq));
                    continue;
                }
                long tick = tick(change.time());
                Segment previous = segments.getLast();
                double seconds = previous.seconds + (tick - previous.tick) * previous.microsPerQuarter / 1e6 / PPQ;
                segments.add(new Segment(change.time(), tick, seconds, mpq));
            }
        }

        long tick(double time) {
            Segment s = segments.getFirst();
            for (Segment candidate : segments) {
                if (candidate.time <= time + 1e-9) {
                    s = candidate;
                }
            }
            return s.tick + Math.round((time - s.seconds) * 1e6 / s.microsPerQuarter * PPQ);
        }
    }
}
