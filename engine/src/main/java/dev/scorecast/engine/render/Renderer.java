package dev.scorecast.engine.render;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.error.InvalidParameter;
import dev.scorecast.engine.io.WavEncoding;
import dev.scorecast.engine.io.WavWriter;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.sampler.SampledBanks;
import dev.scorecast.engine.sampler.SampledInstrument;
import dev.scorecast.engine.sampler.Sampler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleConsumer;
import javax.sound.midi.ShortMessage;

/**
 * Renders a {@link Score} to one stem per instrument group, each group on its own Gervill
 * synthesizer (a {@link SynthDriver}, as the live player's) so that stems are truly separate (their
 * own voices, their own reverb). Groups render in parallel, one per core.
 *
 * <p>Time is the sample counter: every note and control change is placed at
 * {@code round(seconds * 48000)} and handed to the synthesizer with that sample's timestamp just
 * before the block that contains it is rendered; Gervill starts a note at its exact sample inside
 * its 320-sample control block (note-offs and controllers apply at the start of the control block
 * that holds them, at most 6.7 ms early). Stems hold exactly {@code round(duration * 48000)} frames.
 * A note is started as much early as its instrument takes to speak ({@link OnsetLatency}), as a
 * player would, so that a string chord written on a cut is heard on the cut; the score and its
 * MIDI file keep the written times.
 */
public final class Renderer {

    /** Sample rate of every stem and of the master. */
    public static final int RATE = AudioRate.HZ;

    private static final int BLOCK = 4096;
    /** Voices per group's synthesizer: a stem must never lose a note to voice stealing. */
    private static final int POLYPHONY = 96;
    /** The sampler's voices per group: a sustained piano with release samples and crossfaded layers needs more than Gervill's 96. */
    private static final int SAMPLER_POLYPHONY = 160;

    private static final int DRUM_CHANNEL = 9;
    static final String INTERPOLATION = System.getProperty("scorecast.render.interpolation", "cubic");
    private static final double PROGRESS_SECONDS = 0.1;

    private final SoundBank bank;

    public Renderer(SoundBank bank) {
        this.bank = Objects.requireNonNull(bank, "bank");
    }

    /**
     * Renders every group of {@code score} into {@code stemsDir/<group>.wav} (created if missing).
     *
     * @param progress told the fraction done, 0 to 1, from the calling thread
     * @return the stems in {@link InstrumentGroup} order
     */
    public List<Stem> render(Score score, Path stemsDir, DoubleConsumer progress) {
        Objects.requireNonNull(score, "score");
        Objects.requireNonNull(stemsDir, "stemsDir");
        if (!(score.duration() >= 0) || score.duration() > 24 * 3600) {
            throw new InvalidParameter("duration", "must be 0 to 86400 seconds, was " + score.duration());
        }
        long frames = Math.round(score.duration() * RATE);
        Map<InstrumentGroup, List<Part>> groups = new EnumMap<>(InstrumentGroup.class);
        for (Part part : score.parts()) {
            groups.computeIfAbsent(part.group(), g -> new ArrayList<>()).add(part);
        }
        try {
            Files.createDirectories(stemsDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + stemsDir, e);
        }
        if (groups.isEmpty()) {
            if (progress != null) {
                progress.accept(1);
            }
            return List.of();
        }
        // Resolve instruments (and read their samples) up front, on this thread, once for all groups.
        List<GroupJob> jobs = new ArrayList<>();
        groups.forEach((group, parts) ->
                jobs.add(new GroupJob(group, parts, frames, stemsDir.resolve(group.wire() + ".wav"))));
        AtomicLong done = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        int threads = Math.max(1, Math.min(jobs.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "scorecast-render");
            t.setDaemon(true);
            return t;
        });
        try {
            // The costliest groups first: a long group started last would leave one core idle at the end
            // (house's sampled harmony took 1.3 CPU-s of the seven groups' 3.2 and came sixth of seven).
            Map<GroupJob, Future<Stem>> submitted = new HashMap<>();
            jobs.stream()
                    .sorted(Comparator.comparingDouble(GroupJob::cost).reversed())
                    .forEach(job -> submitted.put(job, pool.submit(() -> job.render(done, stop))));
            List<Future<Stem>> futures = jobs.stream().map(submitted::get).toList();
            double total = (double) frames * jobs.size();
            List<Stem> stems = new ArrayList<>();
            for (Future<Stem> f : futures) {
                while (true) {
                    try {
                        stems.add(f.get((long) (PROGRESS_SECONDS * 1000), TimeUnit.MILLISECONDS));
                        break;
                    } catch (TimeoutException e) {
                        if (progress != null && total > 0) {
                            progress.accept(Math.min(1, done.get() / total));
                        }
                    }
                }
            }
            if (progress != null) {
                progress.accept(1);
            }
            return List.copyOf(stems);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while rendering", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("rendering failed", e.getCause());
        } finally {
            // On a failure or an interrupt the other groups stop at their next block; their
            // unfinished stems are deleted by WavWriter.
            stop.set(true);
            pool.shutdownNow();
        }
    }

    /**
     * A MIDI message at a sample; at one sample, controllers and programs go first, then note-offs, then note-ons.
     * {@code sampled}: for the group's {@link Sampler} (a program change then carries the address), else for Gervill.
     */
    private record Event(
            long sample, int order, int command, int channel, int data1, int data2, boolean sampled, int take) {
        Event(long sample, int order, int command, int channel, int data1, int data2, boolean sampled) {
            this(sample, order, command, channel, data1, data2, sampled, -1);
        }

        Event(long sample, int order, int command, int channel, int data1, int data2) {
            this(sample, order, command, channel, data1, data2, false);
        }
    }

    private static final Comparator<Event> ORDER =
            Comparator.comparingLong(Event::sample).thenComparingInt(Event::order);

    /** A note's attack in {@link GroupJob#cost()}, in seconds of sounding voice. */
    private static final double NOTE_COST_SECONDS = 0.25;

    private final class GroupJob {
        private final InstrumentGroup group;
        private final long frames;
        private final Path wav;
        private final List<Event> setup = new ArrayList<>();
        private final List<Event> events = new ArrayList<>();
        private final List<SoundBank.Resolved> instruments = new ArrayList<>();
        private final Map<Integer, SampledInstrument> sampledInstruments = new HashMap<>();
        private boolean gervill;
        private boolean sampler;
        private final float gain;
        /** {@link #cost()}: the group's notes' seconds, and a quarter second for each note. */
        private final double cost;

        GroupJob(InstrumentGroup group, List<Part> parts, long frames, Path wav) {
            this.group = group;
            this.frames = frames;
            this.wav = wav;
            // One part (the usual case): its gain is applied exactly, in float. Several parts in one
            // group: the loudest part's gain in float, the others lowered by channel volume.
            double top = parts.stream().mapToDouble(Part::gainDb).max().orElse(0);
            this.gain = (float) Math.pow(10, top / 20);
            int nextChannel = 0;
            for (Part part : parts) {
                int channel;
                if (part.drums()) {
                    channel = DRUM_CHANNEL;
                } else {
                    if (nextChannel == DRUM_CHANNEL) {
                        nextChannel++;
                    }
                    if (nextChannel > 15) {
                        throw new InvalidParameter(
                                "parts", "group " + group.wire() + " has more than 15 melodic parts");
                    }
                    channel = nextChannel++;
                }
                // Notes start as much early as their instruments take to speak, so they sound on time.
                Part aligned = bank.onsets().aligned(part);
                if (sampled(part)) {
                    scheduleSampled(aligned, channel, part.gainDb() - top);
                } else {
                    schedule(aligned, channel, part.gainDb() - top);
                }
            }
            events.sort(ORDER);
            this.cost = parts.stream()
                    .flatMap(p -> p.notes().stream())
                    .mapToDouble(n -> n.duration() + NOTE_COST_SECONDS)
                    .sum();
        }

        /**
         * A rough measure of the render's work, to start the costliest groups first: voices sounding
         * (seconds of notes) plus a fixed share per note for its attack. It ranks the usual costliest
         * group, the harmony's chords, first or second in house, ambient, hip-hop and orchestral.
         */
        double cost() {
            return cost;
        }

        private void schedule(Part part, int channel, double relativeDb) {
            int volume = volume(relativeDb);
            int pan = pan(part);
            // A program is an address in the SoundBank, 128 x bank + program: bank select, then program change.
            int address = program(part.program(), part.drums());
            setup.add(new Event(
                    0, 0, ShortMessage.CONTROL_CHANGE, channel, 0, SoundBank.bankOf(address))); // bank select MSB
            setup.add(new Event(0, 0, ShortMessage.CONTROL_CHANGE, channel, 32, 0)); // bank select LSB
            setup.add(new Event(0, 0, ShortMessage.PROGRAM_CHANGE, channel, SoundBank.programOf(address), 0));
            setup.add(new Event(0, 0, ShortMessage.CONTROL_CHANGE, channel, 7, volume));
            setup.add(new Event(0, 0, ShortMessage.CONTROL_CHANGE, channel, 10, pan));
            for (Part.ProgramChange pc : part.programChanges()) {
                long at = Math.round(pc.time() * RATE);
                if (at < frames) {
                    int changed = program(pc.program(), part.drums());
                    events.add(new Event(
                            Math.max(0, at), 0, ShortMessage.CONTROL_CHANGE, channel, 0, SoundBank.bankOf(changed)));
                    events.add(new Event(
                            Math.max(0, at), 0, ShortMessage.PROGRAM_CHANGE, channel, SoundBank.programOf(changed), 0));
                }
            }
            scheduleControlsAndNotes(part, channel, false);
        }

        /** Whether every program {@code part} plays is one the sampler plays (else Gervill plays the whole part). */
        private boolean sampled(Part part) {
            if (!bank.sampler() || !SampledBanks.plays(part.program(), part.drums())) {
                return false;
            }
            return part.programChanges().stream().allMatch(pc -> SampledBanks.plays(pc.program(), part.drums()));
        }

        /** {@code part} for the group's sampler: the same events as {@link #schedule}, with notes never cut by a restrike. */
        private void scheduleSampled(Part part, int channel, double relativeDb) {
            sampler = true;
            int volume = volume(relativeDb);
            int pan = pan(part);
            setup.add(new Event(
                    0, 0, ShortMessage.PROGRAM_CHANGE, channel, sampledProgram(part.program(), part.drums()), 0, true));
            setup.add(new Event(0, 0, ShortMessage.CONTROL_CHANGE, channel, 7, volume, true));
            setup.add(new Event(0, 0, ShortMessage.CONTROL_CHANGE, channel, 10, pan, true));
            for (Part.ProgramChange pc : part.programChanges()) {
                long at = Math.round(pc.time() * RATE);
                if (at < frames) {
                    events.add(new Event(
                            Math.max(0, at),
                            0,
                            ShortMessage.PROGRAM_CHANGE,
                            channel,
                            sampledProgram(pc.program(), part.drums()),
                            0,
                            true));
                }
            }
            scheduleControlsAndNotes(part, channel, true);
        }

        /**
         * A part's controls and notes for its synthesizer (Gervill, or the group's sampler when {@code sampled}). A note that
         * overlaps the next one of the same pitch ends where the next begins: on Gervill two voices of one key would let the
         * first note-off silence the second note (the sampler lets the first ring on under the second, as a struck string does).
         */
        private void scheduleControlsAndNotes(Part part, int channel, boolean sampled) {
            for (Part.Control c : part.controls()) {
                long at = Math.round(c.time() * RATE);
                if (at < frames) {
                    events.add(new Event(
                            Math.max(0, at),
                            0,
                            ShortMessage.CONTROL_CHANGE,
                            channel,
                            c.controller(),
                            c.value(),
                            sampled));
                }
            }
            List<Note> notes = new ArrayList<>(part.notes());
            notes.sort(Comparator.comparingInt(Note::pitch).thenComparingDouble(Note::start));
            for (int i = 0; i < notes.size(); i++) {
                Note n = notes.get(i);
                long on = Math.round(n.start() * RATE);
                long off = Math.max(on + 1, Math.round(n.end() * RATE));
                if (i + 1 < notes.size() && notes.get(i + 1).pitch() == n.pitch()) {
                    long next = Math.round(notes.get(i + 1).start() * RATE);
                    if (next <= on) {
                        continue; // the same key struck twice at once: keep one
                    }
                    off = Math.min(off, next);
                }
                if (on >= frames) {
                    continue;
                }
                events.add(new Event(on, 2, ShortMessage.NOTE_ON, channel, n.pitch(), n.velocity(), sampled, n.take()));
                if (off < frames) {
                    events.add(new Event(off, 1, ShortMessage.NOTE_OFF, channel, n.pitch(), 0, sampled));
                }
            }
        }

        /** GM channel volume is 40 log10(cc7 / 127) dB; Gervill's default is 100. */
        private static int volume(double relativeDb) {
            return (int) Math.round(Math.max(0, Math.min(127, 100 * Math.pow(10, relativeDb / 40))));
        }

        private static int pan(Part part) {
            return (int) Math.round(Math.max(0, Math.min(127, 64 + part.pan() * 63.5)));
        }

        private int sampledProgram(int address, boolean drums) {
            sampledInstruments.computeIfAbsent(
                    address, a -> bank.sampled(a, drums).orElseThrow());
            return address;
        }

        private int program(int program, boolean drums) {
            if (program < 0 || program >= 128 * 128) {
                throw new InvalidParameter("program", "must be 0-16383 (128 x bank + program), was " + program);
            }
            SoundBank.Resolved r = bank.instrument(program, drums);
            instruments.add(r);
            gervill = true;
            return r.program();
        }

        private void sendSampled(Sampler s, Event e) {
            switch (e.command()) {
                case ShortMessage.NOTE_ON -> s.noteOn(e.channel(), e.data1(), e.data2(), e.take(), e.sample());
                case ShortMessage.NOTE_OFF -> s.noteOff(e.channel(), e.data1(), e.sample());
                case ShortMessage.CONTROL_CHANGE -> s.control(e.channel(), e.data1(), e.data2(), e.sample());
                case ShortMessage.PROGRAM_CHANGE ->
                    s.program(e.channel(), sampledInstruments.get(e.data1()), e.sample());
                default -> throw new IllegalStateException("event " + e);
            }
        }

        Stem render(AtomicLong done, AtomicBoolean stop) throws IOException {
            float peak = 0;
            // Gervill only when a part of the group needs it; the sampler only when one is sampled.
            try (SynthDriver synth = gervill
                            ? SynthDriver.open(POLYPHONY, INTERPOLATION, SynthDriver.OFFLINE_CHORUS, BLOCK)
                            : null;
                    WavWriter out = WavWriter.scratch(wav, WavEncoding.FLOAT32, RATE, 2)) {
                Sampler sampled = sampler
                        ? new Sampler(SAMPLER_POLYPHONY, !"linear".equals(INTERPOLATION), group.ordinal())
                        : null;
                for (SoundBank.Resolved r : instruments) {
                    synth.load(r.instrument());
                }
                for (Event e : setup) {
                    if (e.sampled()) {
                        sendSampled(
                                sampled, new Event(0, e.order(), e.command(), e.channel(), e.data1(), e.data2(), true));
                    } else {
                        synth.sendNow(e.command(), e.channel(), e.data1(), e.data2());
                    }
                }
                float[][] block = new float[2][BLOCK];
                int next = 0;
                for (long pos = 0; pos < frames; ) {
                    if (stop.get()) {
                        throw new CancellationException("rendering stopped");
                    }
                    int n = (int) Math.min(BLOCK, frames - pos);
                    // Everything that starts before the end of this block (plus a control block, since
                    // Gervill takes events up to one control block ahead) is queued before rendering it.
                    long horizon = pos + n + SynthDriver.LATENCY + SynthDriver.CONTROL_BLOCK;
                    while (next < events.size() && events.get(next).sample() < horizon) {
                        Event e = events.get(next++);
                        if (e.sampled()) {
                            sendSampled(sampled, e);
                        } else {
                            synth.send(e.command(), e.channel(), e.data1(), e.data2(), e.sample());
                        }
                    }
                    if (synth != null) {
                        synth.read(block, 0, n);
                    } else {
                        Arrays.fill(block[0], 0, n, 0f);
                        Arrays.fill(block[1], 0, n, 0f);
                    }
                    if (sampled != null) {
                        sampled.process(block, 0, n);
                    }
                    float[] l = block[0];
                    float[] r = block[1];
                    for (int i = 0; i < n; i++) {
                        l[i] *= gain;
                        r[i] *= gain;
                        peak = Math.max(peak, Math.max(Math.abs(l[i]), Math.abs(r[i])));
                    }
                    out.write(block, n);
                    pos += n;
                    done.addAndGet(n);
                }
                out.commit();
            }
            return new Stem(group, wav, 20 * Math.log10(peak));
        }
    }
}
