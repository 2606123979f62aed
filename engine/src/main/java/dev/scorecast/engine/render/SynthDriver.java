package dev.scorecast.engine.render;

import com.sun.media.sound.AudioSynthesizer;
import com.sun.media.sound.SoftSynthesizer;
import dev.scorecast.engine.core.AudioRate;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Map;
import javax.sound.midi.Instrument;
import javax.sound.midi.InvalidMidiDataException;
import javax.sound.midi.MidiUnavailableException;
import javax.sound.midi.Receiver;
import javax.sound.midi.ShortMessage;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;

/**
 * One Gervill synthesizer run without a sound card, the one way both the offline {@link Renderer}
 * and the live player run it: the same settings, MIDI events placed at a sample of its stream, and
 * its output read block by block as planar float channels.
 *
 * <p>Time is the stream's own frame counter. An event for frame {@code f} is handed over before the
 * block that holds {@code f} is read, with the timestamp {@code round(f * 1e6 / 48000)} µs: Gervill
 * starts a note on its exact sample inside its 320-frame control block (note-offs and controllers
 * apply at the start of the control block that holds them). Gervill takes events up to one control
 * block ahead, so a caller hands over everything before the end of the next block plus
 * {@link #CONTROL_BLOCK}.
 *
 * <p>Not thread-safe: one owner (a render thread, a live render loop) at a time.
 */
public final class SynthDriver implements AutoCloseable {
    public static final int RATE = AudioRate.HZ;
    // 48000 / 150 = 320 frames per control block, a whole number, so Gervill's block clock and its
    // microsecond event clock stay in step. (100 Hz blocks would save a twentieth of the synthesizer's
    // time, but a note that has to take over a voice starts at the next block boundary, and 10 ms late
    // is audible on a hi-hat.)
    private static final float CONTROL_RATE = 150f;
    /** Frames per Gervill control block. */
    public static final int CONTROL_BLOCK = (int) (RATE / CONTROL_RATE);
    /**
     * Gervill's voices sound one control block after their note-on: the amplitude envelope is
     * evaluated per control block and a new voice's first block is silent. The driver reads (and
     * throws away) that much when it opens, so frame 0 of what it gives is frame 0 of the score.
     */
    public static final int LATENCY = CONTROL_BLOCK;
    /** The offline renderer's chorus: on (see {@link #open}). */
    public static final boolean OFFLINE_CHORUS = true;
    /** The live player's chorus: off (see {@link #open}). */
    public static final boolean LIVE_CHORUS = false;

    private final AudioSynthesizer synth;
    private final AudioInputStream stream;
    private final Receiver receiver;
    private final byte[] bytes;
    private final FloatBuffer floats;
    /** The stream's interleaved samples of one block, taken from the bytes in one bulk copy. */
    private final float[] interleaved;

    private long frame;

    private SynthDriver(int polyphony, String interpolation, boolean chorus, int maxBlockFrames)
            throws MidiUnavailableException {
        this.synth = new SoftSynthesizer();
        AudioFormat format = new AudioFormat(AudioFormat.Encoding.PCM_FLOAT, RATE, 32, 2, 8, RATE, false);
        this.stream = synth.openStream(
                format,
                Map.of(
                        "load default soundbank", false,
                        // Gervill's automatic gain control costs a sixth of the synthesizer and pumps; levels
                        // are set downstream (the master's limiter offline, the output stage's gain live), so
                        // every stem and stream stays linear.
                        "auto gain control", false,
                        "chorus", chorus,
                        "control rate", CONTROL_RATE,
                        "max polyphony", polyphony,
                        "interpolation", interpolation));
        this.receiver = synth.getReceiver();
        this.bytes = new byte[Math.max(maxBlockFrames, LATENCY) * 8];
        this.floats = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
        this.interleaved = new float[bytes.length / 4];
    }

    /**
     * Opens a synthesizer with {@code polyphony} voices and {@code interpolation} ("linear",
     * "cubic", ...), its chorus running or not, to be read in blocks of at most {@code maxBlockFrames}.
     *
     * <p>The chorus is the one setting the two paths choose differently, on purpose. No part asks for
     * chorus (none sends controller 93), but SoundFont presets carry their own chorus sends, and with
     * FluidR3 they are much of some sounds: without it ambient's harmony stem is 4.8 dB quieter and
     * loses most of its width, pads and keys in pop 1.5 to 2.4 dB; most stems are the same to the
     * bit. Offline the chorus stays on ({@link #OFFLINE_CHORUS}): the rendered score keeps the
     * instruments' designed sound, at no cost to the render's speed target. Live it is off
     * ({@link #LIVE_CHORUS}): Gervill runs its chorus whenever any voice sends to it, which cost the
     * render loop 10 % per stream (1.159 -> 1.272 % of a core, FluidR3, the 14 experiences,
     * one run each, 3 rounds, in one session), and a loop's time is what the live player's capacity (48
     * private streams on two cores) is made of. So a live experience's pads are drier than the same
     * pads in a video's score; the experiences' gain_db is calibrated without chorus.
     */
    public static SynthDriver open(int polyphony, String interpolation, boolean chorus, int maxBlockFrames) {
        SynthDriver d;
        try {
            d = new SynthDriver(polyphony, interpolation, chorus, maxBlockFrames);
        } catch (MidiUnavailableException e) {
            throw new IllegalStateException("cannot open a Gervill synthesizer", e);
        }
        try {
            d.readBytes(LATENCY);
        } catch (IOException | RuntimeException e) {
            d.close();
            throw new IllegalStateException("the synthesizer failed to start", e);
        }
        return d;
    }

    /** Loads an instrument of the sound bank into this synthesizer. */
    public void load(Instrument instrument) {
        synth.loadInstrument(instrument);
    }

    /** Loads a live instrument of {@code bank} (prepared once, shared by every synthesizer). */
    public void load(SoundBank bank, SoundBank.Live instrument) {
        bank.loadInto((SoftSynthesizer) synth, instrument);
    }

    /** Frames read so far (after the latency): an event for this frame lands on the first sample of the next read. */
    public long frame() {
        return frame;
    }

    /** A channel message at frame {@code atFrame} of the stream. */
    public void send(int command, int channel, int data1, int data2, long atFrame) {
        receiver.send(message(command, channel, data1, data2), Math.round(atFrame * 1_000_000.0 / RATE));
    }

    /** A channel message applied at once (before the next read): channel setup, all notes off. */
    public void sendNow(int command, int channel, int data1, int data2) {
        receiver.send(message(command, channel, data1, data2), -1);
    }

    private static ShortMessage message(int command, int channel, int data1, int data2) {
        try {
            return new ShortMessage(command, channel, data1, data2);
        } catch (InvalidMidiDataException e) {
            throw new IllegalArgumentException(
                    "bad MIDI message " + command + " " + channel + " " + data1 + " " + data2, e);
        }
    }

    /** Reads the next {@code frames} frames into {@code channels[0..1]} from {@code offset} (planar stereo). */
    public void read(float[][] channels, int offset, int frames) {
        try {
            readBytes(frames);
        } catch (IOException e) {
            throw new IllegalStateException("the synthesizer failed", e);
        }
        frame += frames;
        // One bulk copy out of the byte view, then a plain loop: a FloatBuffer read sample by sample
        // costs several times more.
        float[] x = interleaved;
        floats.get(0, x, 0, 2 * frames);
        float[] l = channels[0];
        float[] r = channels[1];
        for (int i = 0; i < frames; i++) {
            l[offset + i] = x[2 * i];
            r[offset + i] = x[2 * i + 1];
        }
    }

    private void readBytes(int frames) throws IOException {
        int len = frames * 8;
        int off = 0;
        while (off < len) {
            int r = stream.read(bytes, off, len - off);
            if (r < 0) {
                throw new IOException("the synthesizer stream ended");
            }
            off += r;
        }
    }

    @Override
    public void close() {
        synth.close();
    }
}
