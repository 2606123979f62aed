package dev.scorecast.engine.render;

import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.sampler.Sampler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sound.midi.ShortMessage;

/**
 * How long after its note-on an instrument of the bank is heard: the time a sampled note takes to
 * speak. A timpani sample has a few milliseconds of lead-in, a string section's bow takes 20 to 30
 * ms to bite, and a note written on a cut sounds that much after it. Players (and producers, with a
 * negative track delay) start such notes early so that they land on the beat; the renderer does the
 * same with these figures, so an accent on a cut is heard on the cut whichever instrument strikes it.
 *
 * <p>Each figure is measured once per bank, instrument and key (drums) or four-semitone span
 * (melodic) by playing the note alone on a synthesizer like the renderer's (velocity 100) and
 * finding where it is heard ({@link #heardAt}). Against aubio's HFC onset detector on 53 isolated
 * notes (strings, violas, basses, horns, flute, timpani, pianos, AVL and electronic kicks, snares
 * and crashes, across the range) that point lay 5.8 ms from aubio's on average; judged against the
 * peak of the first {@value #WINDOW_MS} ms rather than the whole note it no longer waits for a
 * swell's later crest (that erred by up to 54 ms). A few notes whose first breath or scrape aubio
 * already hears (a flute's high register) are still started up to 30 ms too early; a note slower
 * than {@link #MAX_SECONDS} is a swell, not a strike, and is started that much early at most.
 *
 * <p>Thread-safe; the figures are cached for the bank's life.
 */
public final class OnsetLatency {
    /** A note is heard from the first millisecond within this many dB of its early peak. */
    static final double HEARD_DB = 9;
    /** The smoothing of the slope's power, ms, centred: a single sharp sample does not count as the note. */
    static final int SMOOTH_MS = 5;
    /** The part of a note its early peak is looked for in. */
    static final int WINDOW_MS = 60;
    /** The most a note is started early: slower attacks are swells, placed as written. */
    public static final double MAX_SECONDS = 0.050;

    private static final int VELOCITY = 100;
    private static final int KEYS_PER_MEASURE = 4;
    private static final int POLYPHONY = 8;
    private static final int DRUM_CHANNEL = 9;
    private static final int FRAMES_PER_MS = SynthDriver.RATE / 1000;

    private final SoundBank bank;
    private final Map<Long, Double> seconds = new ConcurrentHashMap<>();

    OnsetLatency(SoundBank bank) {
        this.bank = bank;
    }

    /**
     * {@code part} as the renderer plays it: each note started as much early as its instrument takes
     * to speak, its length kept (never before 0), and each program change moved as early as the
     * first note it applies to, so that note still gets its instrument.
     */
    public Part aligned(Part part) {
        List<Part.ProgramChange> changes = new ArrayList<>(part.programChanges());
        changes.sort(Comparator.comparingDouble(Part.ProgramChange::time));
        double[] changeAt = new double[changes.size()];
        for (int c = 0; c < changeAt.length; c++) {
            changeAt[c] = changes.get(c).time();
        }
        List<Note> notes = new ArrayList<>(part.notes().size());
        for (Note n : part.notes()) {
            int c = lastAtOrBefore(changes, n.start());
            int program = c < 0 ? part.program() : changes.get(c).program();
            double start = Math.max(
                    0, n.start() - seconds(program, part.drums(), part.drums() ? n.pitch() : bucket(n.pitch())));
            notes.add(n.moved(start, n.duration()));
            if (c >= 0) {
                changeAt[c] = Math.min(changeAt[c], start);
            }
        }
        List<Part.ProgramChange> moved = new ArrayList<>(changes.size());
        for (int c = 0; c < changeAt.length; c++) {
            moved.add(new Part.ProgramChange(changeAt[c], changes.get(c).program()));
        }
        return new Part(
                part.group(), part.program(), part.drums(), part.gainDb(), part.pan(), notes, moved, part.controls());
    }

    private static int lastAtOrBefore(List<Part.ProgramChange> changes, double time) {
        int found = -1;
        for (int c = 0; c < changes.size() && changes.get(c).time() <= time; c++) {
            found = c;
        }
        return found;
    }

    /** A melodic key's measuring key: one per four semitones, as a bank's samples each span several keys alike. */
    private static int bucket(int key) {
        return Math.min(127, key / KEYS_PER_MEASURE * KEYS_PER_MEASURE + KEYS_PER_MEASURE / 2);
    }

    /**
     * Seconds from note-on to where {@code key} of {@code program} (an address, 128 x bank +
     * program; a kit when {@code drums}) is heard, 0 to {@link #MAX_SECONDS}; 0 for a key that
     * makes no sound.
     */
    public double seconds(int program, boolean drums, int key) {
        long id = ((long) program << 9) | (drums ? 1L << 8 : 0) | key;
        return seconds.computeIfAbsent(id, k -> measure(program, drums, key));
    }

    private double measure(int program, boolean drums, int key) {
        int channel = drums ? DRUM_CHANNEL : 0;
        int frames = WINDOW_MS * FRAMES_PER_MS;
        float[][] block = new float[2][frames];
        var sampled = bank.sampled(program, drums);
        if (sampled.isPresent()) {
            // An instrument the sampler plays is measured as the sampler plays it (its first take).
            Sampler s = new Sampler(POLYPHONY, true, 0);
            s.program(channel, sampled.get());
            s.noteOn(channel, key, VELOCITY, 0);
            s.process(block, 0, frames);
            return heardAt(block, frames);
        }
        SoundBank.Resolved resolved = bank.instrument(program, drums);
        try (SynthDriver synth = SynthDriver.open(POLYPHONY, Renderer.INTERPOLATION, false, frames)) {
            synth.load(resolved.instrument());
            synth.sendNow(ShortMessage.CONTROL_CHANGE, channel, 0, SoundBank.bankOf(resolved.program()));
            synth.sendNow(ShortMessage.CONTROL_CHANGE, channel, 32, 0);
            synth.sendNow(ShortMessage.PROGRAM_CHANGE, channel, SoundBank.programOf(resolved.program()), 0);
            // The renderer queues a note for its frame; the same path here, at frame 0 of the read.
            synth.send(ShortMessage.NOTE_ON, channel, key, VELOCITY, synth.frame());
            synth.read(block, 0, frames);
        }
        return heardAt(block, frames);
    }

    /**
     * Seconds into {@code block} where the note is heard: the first millisecond whose power of the
     * signal's slope (the sample-to-sample difference, which weights each frequency's power by its
     * square, so a bow's or a beater's bite counts and a slow low swell does not), smoothed over
     * {@link #SMOOTH_MS}, is within {@link #HEARD_DB} of its peak.
     */
    static double heardAt(float[][] block, int frames) {
        int ms = frames / FRAMES_PER_MS;
        double[] power = new double[ms];
        float previous = 0;
        for (int m = 0; m < ms; m++) {
            double sum = 0;
            for (int i = m * FRAMES_PER_MS; i < (m + 1) * FRAMES_PER_MS; i++) {
                float mono = block[0][i] + block[1][i];
                float slope = mono - previous;
                previous = mono;
                sum += slope * slope;
            }
            power[m] = sum;
        }
        double[] smooth = new double[ms];
        double peak = 0;
        int half = SMOOTH_MS / 2;
        for (int m = 0; m < ms; m++) {
            double sum = 0;
            for (int k = Math.max(0, m - half); k <= Math.min(ms - 1, m + half); k++) {
                sum += power[k];
            }
            smooth[m] = sum;
            peak = Math.max(peak, sum);
        }
        if (peak <= 0) {
            return 0;
        }
        double heard = peak * Math.pow(10, -HEARD_DB / 10);
        for (int m = 0; m < ms; m++) {
            if (smooth[m] >= heard) {
                return Math.min(MAX_SECONDS, m / 1000.0);
            }
        }
        return 0;
    }
}
