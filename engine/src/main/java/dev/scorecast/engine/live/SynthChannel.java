package dev.scorecast.engine.live;

import dev.scorecast.engine.render.SoundBank;
import dev.scorecast.engine.render.SynthDriver;
import dev.scorecast.engine.sampler.Sampler;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import javax.sound.midi.ShortMessage;

/**
 * A performance's one Gervill synthesizer and one {@link Sampler} (the instruments the sampler plays,
 * instruments/sampler.json), summed: (a {@link SynthDriver}, as the offline renderer's): every instrument group on its own MIDI channel,
 * instruments shared through the {@link SoundBank} and loaded on first use. It plays {@link Cue}s at
 * a frame of its own stream, remembers what each channel is set to and which notes sound (so a
 * note-off of a note struck again is skipped, and a copy can strike the held notes again), and is
 * opened only while the music (or its tail) sounds.
 *
 * <p>Render loop only; {@link #copy()} for a fork.
 */
final class SynthChannel {
    static final int CONTROL_BLOCK = SynthDriver.CONTROL_BLOCK;
    static final int LATENCY = SynthDriver.LATENCY;
    /** The sampler's voices per stream: a piano with its release samples and a kit, beside Gervill's 32. */
    static final int SAMPLER_VOICES = 48;

    private final LiveContext context;
    private SynthDriver synth;
    private Sampler sampler;
    /** Per channel: whether its sound is the sampler's (else Gervill's). */
    private final boolean[] sampled = new boolean[16];

    private final Set<Integer> loaded = new HashSet<>();
    private final long[] sounding = new long[16 * 128];
    private final int[] soundingVelocity = new int[16 * 128];
    /** Per channel: the sound it is set to (null: none yet). */
    private final Cue.ChannelSound[] sounds = new Cue.ChannelSound[16];

    SynthChannel(LiveContext context) {
        this.context = context;
    }

    /**
     * A channel that sounds as this one does: open when this one is, its channels set alike, and the
     * notes sounding now struck again so that held chords carry on.
     */
    SynthChannel copy() {
        SynthChannel c = new SynthChannel(context);
        if (synth == null) {
            return c;
        }
        c.open();
        for (int ch = 0; ch < 16; ch++) {
            if (sounds[ch] != null) {
                c.sounds[ch] = sounds[ch];
                c.applySound(sounds[ch]);
            }
        }
        for (int k = 0; k < sounding.length; k++) {
            if (sounding[k] != 0) {
                c.sounding[k] = sounding[k];
                c.soundingVelocity[k] = soundingVelocity[k];
                c.note(true, k / 128, k % 128, soundingVelocity[k], c.synth.frame());
            }
        }
        return c;
    }

    boolean isOpen() {
        return synth != null;
    }

    /** The synthesizer's frame now: a cue {@code d} frames into the next block goes at {@code frame() + d}. */
    long frame() {
        return synth.frame();
    }

    /** Tells the synthesizer {@code cue} at frame {@code at} of its stream. */
    void play(Cue cue, long at) {
        switch (cue) {
            case Cue.ChannelSound v -> {
                Cue.ChannelSound was = sounds[v.channel()];
                if (was == null || !sameSound(was, v)) {
                    sounds[v.channel()] = v;
                    applySound(v);
                }
            }
            case Cue.Program p -> {
                Cue.ChannelSound was = sounds[p.channel()];
                sounds[p.channel()] = new Cue.ChannelSound(
                        p.beat(),
                        p.channel(),
                        p.program(),
                        p.drums(),
                        was == null ? 100 : was.volume(),
                        was == null ? 64 : was.pan());
                var sampledSound = context.bank().sampled(p.program(), p.drums());
                if (sampledSound.isPresent() != sampled[p.channel()]) {
                    // The channel moves between Gervill and the sampler: the old one lets its notes go.
                    silence(p.channel(), at);
                    sampled[p.channel()] = sampledSound.isPresent();
                    if (sampledSound.isPresent()) {
                        sampler.control(p.channel(), 7, sounds[p.channel()].volume(), at);
                        sampler.control(p.channel(), 10, sounds[p.channel()].pan(), at);
                    }
                }
                if (sampledSound.isPresent()) {
                    sampler.program(p.channel(), sampledSound.get(), at);
                    return;
                }
                // A program is an address in the SoundBank, 128 x bank + program: bank select, then program change.
                int address = program(p.program(), p.drums());
                send(ShortMessage.CONTROL_CHANGE, p.channel(), 0, SoundBank.bankOf(address), at);
                send(ShortMessage.PROGRAM_CHANGE, p.channel(), SoundBank.programOf(address), 0, at);
            }
            case Cue.NoteOff off -> {
                int key = off.channel() * 128 + (off.pitch() & 127);
                if (sounding[key] == off.note()) {
                    sounding[key] = 0;
                    note(false, off.channel(), off.pitch(), 0, at);
                }
            }
            case Cue.NoteOn on -> {
                int key = on.channel() * 128 + (on.pitch() & 127);
                if (sounding[key] != 0) {
                    note(false, on.channel(), on.pitch(), 0, at);
                }
                sounding[key] = on.note();
                soundingVelocity[key] = on.velocity();
                note(true, on.channel(), on.pitch(), on.velocity(), at);
            }
        }
    }

    private static boolean sameSound(Cue.ChannelSound a, Cue.ChannelSound b) {
        return a.program() == b.program() && a.drums() == b.drums() && a.volume() == b.volume() && a.pan() == b.pan();
    }

    /** A note on or off, to the synthesizer or the sampler that plays its channel. */
    private void note(boolean on, int channel, int key, int velocity, long at) {
        if (sampled[channel]) {
            if (on) {
                sampler.noteOn(channel, key, velocity, at);
            } else {
                sampler.noteOff(channel, key, at);
            }
        } else {
            send(on ? ShortMessage.NOTE_ON : ShortMessage.NOTE_OFF, channel, key, on ? velocity : 0, at);
        }
    }

    /** Lets every note of {@code channel} go, on whichever plays it now. */
    private void silence(int channel, long at) {
        if (sampled[channel]) {
            sampler.control(channel, 123, 0, at);
        } else {
            send(ShortMessage.CONTROL_CHANGE, channel, 123, 0, at);
        }
    }

    /** Silences every note at once (the end of a stop's fade). */
    void allNotesOff() {
        for (int ch = 0; ch < 16; ch++) {
            sendNow(ShortMessage.CONTROL_CHANGE, ch, 123, 0);
        }
        sampler.allSoundOff();
        Arrays.fill(sounding, 0);
    }

    /** Reads the next {@code n} frames into {@code block} (planar stereo): Gervill's, with the sampler's added. */
    void read(float[][] block, int n) {
        synth.read(block, 0, n);
        sampler.process(block, 0, n);
    }

    private void applySound(Cue.ChannelSound v) {
        var sampledSound = context.bank().sampled(v.program(), v.drums());
        if (sampledSound.isPresent() != sampled[v.channel()]) {
            silence(v.channel(), synth.frame());
            sampled[v.channel()] = sampledSound.isPresent();
        }
        if (sampledSound.isPresent()) {
            long now = synth.frame();
            sampler.program(v.channel(), sampledSound.get(), now);
            sampler.control(v.channel(), 7, v.volume(), now);
            sampler.control(v.channel(), 10, v.pan(), now);
            return;
        }
        int address = program(v.program(), v.drums());
        sendNow(ShortMessage.CONTROL_CHANGE, v.channel(), 0, SoundBank.bankOf(address));
        sendNow(ShortMessage.CONTROL_CHANGE, v.channel(), 32, 0);
        sendNow(ShortMessage.PROGRAM_CHANGE, v.channel(), SoundBank.programOf(address), 0);
        sendNow(ShortMessage.CONTROL_CHANGE, v.channel(), 7, v.volume());
        sendNow(ShortMessage.CONTROL_CHANGE, v.channel(), 10, v.pan());
    }

    /** The program the bank answers to, its instrument loaded into this synthesizer once. */
    private int program(int program, boolean drums) {
        SoundBank.Live resolved = context.bank().live(program, drums);
        if (loaded.add(resolved.key())) {
            synth.load(context.bank(), resolved);
        }
        return resolved.program();
    }

    private void sendNow(int command, int channel, int d1, int d2) {
        synth.sendNow(command, channel, d1, d2);
    }

    private void send(int command, int channel, int d1, int d2, long atFrame) {
        synth.send(command, channel, d1, d2, atFrame);
    }

    /** Opens the synthesizer (no-op when open); it counts as sounding until {@link #close()}. */
    void open() {
        if (synth != null) {
            return;
        }
        synth = SynthDriver.open(
                context.polyphony(), context.interpolation(), SynthDriver.LIVE_CHORUS, context.blockFrames());
        // The sampler's clock is the synthesizer's: both start at frame 0 here and read the same blocks.
        sampler = new Sampler(SAMPLER_VOICES, !"linear".equals(context.interpolation()), 0);
        context.sounding().incrementAndGet();
    }

    /** Frees the synthesizer (a stopped stream costs none until it starts again). */
    void close() {
        if (synth == null) {
            return;
        }
        synth.close();
        context.sounding().decrementAndGet();
        synth = null;
        sampler = null;
        Arrays.fill(sampled, false);
        loaded.clear();
        Arrays.fill(sounds, null);
        Arrays.fill(sounding, 0);
    }
}
