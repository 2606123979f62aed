package dev.scorecast.engine.sampler;

import dev.scorecast.engine.core.AudioRate;
import dev.scorecast.engine.dsp.BlockProcessor;
import java.util.Arrays;

/**
 * Scorecast's own sampler: plays {@link SampledInstrument}s on sixteen MIDI-like channels, the way
 * the offline renderer and the live player both need it. Events (notes, controllers, programs) are
 * queued for a frame of the sampler's own stream and take effect on that exact sample; {@link
 * #process} then adds the voices of the next frames to what the block holds (an instrument is a
 * source, so "in place" means summed into the bus it plays on).
 *
 * <p>What a player does that a plain sample player does not: a key struck again plays another take
 * (SFZ round robins, {@code seq_length}/{@code seq_position}, or {@code lorand}/{@code hirand}),
 * velocity chooses and crossfades layers, letting a key go plays its release
 * sample ({@code trigger=release}), the sustain pedal (CC64) holds notes and releases them, with
 * their release samples, when it lifts, a hi-hat closes the open one (choke groups), and a
 * channel set to legato turns an overlap of two notes into a glide and crossfade instead of a new
 * attack.
 *
 * <p>{@link BlockProcessor}: sample time, any block size with the same result, no allocation while
 * processing (voices and event queues are sized when built), one thread at a time.
 */
public final class Sampler implements BlockProcessor {
    public static final int RATE = AudioRate.HZ;
    private static final int CHANNELS = 16;
    private static final int NOTE_ON = 1, NOTE_OFF = 2, CONTROL = 3, PROGRAM = 4;
    /** Below this envelope level (-90 dB) a releasing voice is silent and freed. */
    private static final float SILENT = 3.2e-5f;

    private static final float GLIDE = (float) (1 - Math.exp(-1.0 / (0.005 * RATE)));
    /** Bits of an event's second value that hold a note's velocity; its take (plus one) is above them. */
    private static final int VELOCITY_BITS = 7;

    private final Voice[] voices;
    private final boolean cubic;
    private final Channel[] channels = new Channel[CHANNELS];
    private final long seed;
    private SampledInstrument[] programs = new SampledInstrument[8];
    private int programCount;
    private long frame;
    private long order;

    // The event queue, ordered by frame then arrival.
    private long[] evFrame = new long[256];
    private int[] evKind = new int[256];
    private int[] evA = new int[256];
    private int[] evB = new int[256];
    private int[] evCh = new int[256];
    private int head;
    private int tail;

    /**
     * A sampler of {@code polyphony} voices, {@code cubic} (4-point Hermite) or linear interpolation
     * (the offline renderer's and the live player's choices, as for Gervill), its round robins chosen
     * from each note's take and {@code seed} (see {@link #setTake}) so that a render is repeatable.
     */
    public Sampler(int polyphony, boolean cubic, long seed) {
        this.voices = new Voice[polyphony];
        for (int i = 0; i < polyphony; i++) {
            voices[i] = new Voice();
        }
        this.cubic = cubic;
        this.seed = seed;
        for (int c = 0; c < CHANNELS; c++) {
            channels[c] = new Channel();
        }
    }

    /** Frames processed so far: an event for this frame lands on the first sample of the next block. */
    public long frame() {
        return frame;
    }

    /** Sets {@code channel}'s instrument now. */
    public void program(int channel, SampledInstrument instrument) {
        channels[channel].instrument = instrument;
    }

    /** Sets {@code channel}'s instrument at frame {@code at}. */
    public void program(int channel, SampledInstrument instrument, long at) {
        int index = -1;
        for (int i = 0; i < programCount; i++) {
            if (programs[i] == instrument) {
                index = i;
            }
        }
        if (index < 0) {
            if (programCount == programs.length) {
                programs = Arrays.copyOf(programs, programCount * 2);
            }
            programs[programCount] = instrument;
            index = programCount++;
        }
        queue(at, PROGRAM, channel, index, 0);
    }

    /**
     * Makes {@code channel} legato (a monophonic part): a note struck while another is held glides
     * from it over {@code seconds} and crossfades into it, with no new attack; 0 turns it off.
     */
    public void legato(int channel, double seconds) {
        channels[channel].legatoFrames = (int) Math.round(Math.max(0, seconds) * RATE);
    }

    /** A note without a take of its own: it plays its key's next round robin on this channel. */
    public void noteOn(int channel, int key, int velocity, long at) {
        noteOn(channel, key, velocity, -1, at);
    }

    /**
     * A note that plays round robin {@code take} (its strike number in the score, music.Takes;
     * modulo the takes its zones have), or the key's next when -1.
     */
    public void noteOn(int channel, int key, int velocity, int take, long at) {
        if (velocity <= 0) {
            noteOff(channel, key, at);
            return;
        }
        int t = Math.clamp(take, -1, (1 << 23) - 1) + 1;
        queue(at, NOTE_ON, channel, key & 127, Math.min(127, velocity) | t << VELOCITY_BITS);
    }

    public void noteOff(int channel, int key, long at) {
        queue(at, NOTE_OFF, channel, key & 127, 0);
    }

    /** A controller: 7 volume, 10 pan, 11 expression, 64 sustain pedal, 120/123 all sound/notes off. */
    public void control(int channel, int controller, int value, long at) {
        queue(at, CONTROL, channel, controller, value);
    }

    /** Silences every voice at once. */
    public void allSoundOff() {
        for (Voice v : voices) {
            v.zone = null;
        }
        for (Channel c : channels) {
            c.reset();
        }
    }

    /** Voices sounding now. */
    public int active() {
        int n = 0;
        for (Voice v : voices) {
            if (v.zone != null) {
                n++;
            }
        }
        return n;
    }

    private void queue(long at, int kind, int channel, int a, int b) {
        if (tail == evFrame.length) {
            if (head > 0) {
                int n = tail - head;
                System.arraycopy(evFrame, head, evFrame, 0, n);
                System.arraycopy(evKind, head, evKind, 0, n);
                System.arraycopy(evA, head, evA, 0, n);
                System.arraycopy(evB, head, evB, 0, n);
                System.arraycopy(evCh, head, evCh, 0, n);
                head = 0;
                tail = n;
            }
            if (tail == evFrame.length) {
                int cap = evFrame.length * 2;
                evFrame = Arrays.copyOf(evFrame, cap);
                evKind = Arrays.copyOf(evKind, cap);
                evA = Arrays.copyOf(evA, cap);
                evB = Arrays.copyOf(evB, cap);
                evCh = Arrays.copyOf(evCh, cap);
            }
        }
        // Events mostly come in order: walk back from the end past any later ones.
        int i = tail;
        while (i > head && evFrame[i - 1] > at) {
            i--;
        }
        if (i < tail) {
            System.arraycopy(evFrame, i, evFrame, i + 1, tail - i);
            System.arraycopy(evKind, i, evKind, i + 1, tail - i);
            System.arraycopy(evA, i, evA, i + 1, tail - i);
            System.arraycopy(evB, i, evB, i + 1, tail - i);
            System.arraycopy(evCh, i, evCh, i + 1, tail - i);
        }
        evFrame[i] = at;
        evKind[i] = kind;
        evA[i] = a;
        evB[i] = b;
        evCh[i] = channel & 15;
        tail++;
    }

    @Override
    public void process(float[][] out, int offset, int frames) {
        int done = 0;
        while (done < frames) {
            while (head < tail && evFrame[head] <= frame) {
                apply(evKind[head], evCh[head], evA[head], evB[head]);
                head++;
            }
            int n = frames - done;
            if (head < tail) {
                n = (int) Math.min(n, evFrame[head] - frame);
            }
            for (Voice v : voices) {
                if (v.zone != null) {
                    render(v, out[0], out[1], offset + done, n);
                }
            }
            done += n;
            frame += n;
        }
        if (head == tail) {
            head = tail = 0;
        }
    }

    private void apply(int kind, int ch, int a, int b) {
        Channel c = channels[ch];
        switch (kind) {
            case NOTE_ON -> noteOnNow(ch, c, a, b & ((1 << VELOCITY_BITS) - 1), (b >>> VELOCITY_BITS) - 1);
            case NOTE_OFF -> noteOffNow(ch, c, a);
            case PROGRAM -> c.instrument = programs[a];
            case CONTROL -> {
                switch (a) {
                    case 7 -> c.volume = b;
                    case 10 -> c.pan = b;
                    case 11 -> c.expression = b;
                    case 64 -> pedal(ch, c, b >= 64);
                    case 120, 123 -> {
                        for (Voice v : voices) {
                            if (v.zone != null && v.channel == ch) {
                                if (a == 120) {
                                    v.zone = null;
                                } else {
                                    v.release(0.006);
                                }
                            }
                        }
                        c.reset();
                    }
                    default -> {}
                }
            }
            default -> throw new IllegalStateException("event " + kind);
        }
    }

    private void noteOnNow(int ch, Channel c, int key, int velocity, int take) {
        SampledInstrument ins = c.instrument;
        if (ins == null) {
            return;
        }
        setTake(c, key, take);
        int count = c.take[key];
        double r = c.draw[key];
        int legatoFrom =
                c.legatoFrames > 0 && c.lastHeld >= 0 && c.lastHeld != key && c.down[c.lastHeld] ? c.lastHeld : -1;
        double legatoPos = -1;
        if (legatoFrom >= 0) {
            // The held note glides towards the new one and fades out while the new one fades in.
            double ratio = Math.pow(2, (key - legatoFrom) / 12.0);
            for (Voice v : voices) {
                if (v.zone != null && v.channel == ch && v.key == legatoFrom && !v.releasing) {
                    legatoPos = Math.max(legatoPos, v.pos);
                    v.glide(v.speed * ratio, c.legatoFrames);
                    v.fadeOut(c.legatoFrames);
                }
            }
            c.handedOver[legatoFrom] = true;
        }
        c.down[key] = true;
        c.sustained[key] = false;
        c.handedOver[key] = false;
        c.onFrame[key] = frame;
        c.onVelocity[key] = velocity;
        c.lastHeld = key;
        // Chokes and the key's polyphony act before any of this note's zones start, so that two
        // crossfaded layers of one note do not stop each other.
        Zone[] zones = ins.attackByKey[key];
        int starting = 0;
        for (Zone z : zones) {
            if (z.matches(key, velocity) && selected(z, count, r) && z.crossfade(velocity) > 0) {
                if (z.group != 0) {
                    choke(ch, z.group);
                }
                if (z.notePolyphony > 0) {
                    limitKey(ch, key, z.notePolyphony - 1);
                }
                starting++;
            }
        }
        if (starting == 0) {
            return;
        }
        for (Zone z : zones) {
            if (!z.matches(key, velocity) || !selected(z, count, r)) {
                continue;
            }
            float xf = z.crossfade(velocity);
            if (xf <= 0) {
                continue;
            }
            Voice v = allocate();
            v.start(z, ch, key, velocity, z.velocityGain(velocity) * xf, c, order++);
            if (legatoFrom >= 0) {
                double target = v.speed;
                v.speed = target * Math.pow(2, (legatoFrom - key) / 12.0);
                v.glide(target, c.legatoFrames);
                v.fadeIn(c.legatoFrames);
                v.skipAttack();
                if (legatoPos >= 0 && legatoPos < z.sample.frames - 1) {
                    v.pos = legatoPos;
                }
            }
        }
    }

    /**
     * Sets the take the strike of {@code key} plays: the note's own ({@code take} >= 0, numbered in the
     * score: music.Takes says why), or, for a note without one (-1), the key's next strike on this
     * channel as SFZ counts them. Its lorand draw is a hash of the seed, the key and the take, so a note
     * plays the same zones wherever it is played.
     */
    private void setTake(Channel c, int key, int take) {
        int t = take >= 0 ? take : c.strikes[key]++;
        c.take[key] = t;
        c.draw[key] = (mix(seed ^ mix(key * 0x9E3779B97F4A7C15L ^ t)) >>> 11) * 0x1.0p-53;
    }

    /** SplitMix64's finaliser: every bit of the input moves about half of the output's. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static boolean selected(Zone z, int count, double r) {
        if (z.seqLength > 1 && (count % z.seqLength) + 1 != z.seqPosition) {
            return false;
        }
        return r >= z.loRand && (r < z.hiRand || z.hiRand >= 1);
    }

    private void noteOffNow(int ch, Channel c, int key) {
        if (!c.down[key]) {
            return;
        }
        c.down[key] = false;
        if (c.lastHeld == key) {
            c.lastHeld = -1;
        }
        if (c.handedOver[key]) {
            c.handedOver[key] = false;
            return;
        }
        if (c.pedal) {
            c.sustained[key] = true;
            return;
        }
        releaseKey(ch, c, key);
    }

    private void pedal(int ch, Channel c, boolean down) {
        c.pedal = down;
        if (!down) {
            for (int k = 0; k < 128; k++) {
                if (c.sustained[k]) {
                    c.sustained[k] = false;
                    releaseKey(ch, c, k);
                }
            }
        }
    }

    /** The key is let go (and not held by the pedal): its voices release and its release samples play. */
    private void releaseKey(int ch, Channel c, int key) {
        for (Voice v : voices) {
            if (v.zone != null
                    && v.channel == ch
                    && v.key == key
                    && !v.releasing
                    && v.zone.trigger == Zone.Trigger.ATTACK
                    && v.zone.loop != Zone.Loop.ONE_SHOT) {
                v.release(v.zone.release);
            }
        }
        SampledInstrument ins = c.instrument;
        if (ins == null || ins.releaseByKey[key].length == 0) {
            return;
        }
        int velocity = c.onVelocity[key];
        double held = (frame - c.onFrame[key]) / (double) RATE;
        // The release sample of the take that was struck, so a take's attack and release belong together.
        double r = c.draw[key];
        int count = c.take[key];
        for (Zone z : ins.releaseByKey[key]) {
            if (!z.matches(key, velocity) || !selected(z, count, r)) {
                continue;
            }
            float g = z.velocityGain(velocity) * z.crossfade(velocity) * (float) Math.pow(10, -z.rtDecayDb * held / 20);
            if (g > SILENT) {
                allocate().start(z, ch, key, velocity, g, c, order++);
            }
        }
    }

    /** Voices of choke group members: a zone whose {@code off_by} is {@code group} stops. */
    private void choke(int ch, int group) {
        for (Voice v : voices) {
            if (v.zone != null && v.channel == ch && v.zone.offBy == group && !v.choked) {
                v.choked = true;
                v.release(v.zone.offFast ? v.zone.offTime : v.zone.release);
            }
        }
    }

    /** Lets at most {@code keep} earlier attack voices of one key ring on (a string struck again). */
    private void limitKey(int ch, int key, int keep) {
        int ringing = 0;
        for (Voice v : voices) {
            if (v.zone != null
                    && v.channel == ch
                    && v.key == key
                    && !v.releasing
                    && v.zone.trigger == Zone.Trigger.ATTACK) {
                ringing++;
            }
        }
        while (ringing > keep) {
            Voice oldest = null;
            for (Voice v : voices) {
                if (v.zone != null
                        && v.channel == ch
                        && v.key == key
                        && !v.releasing
                        && v.zone.trigger == Zone.Trigger.ATTACK
                        && (oldest == null || v.order < oldest.order)) {
                    oldest = v;
                }
            }
            oldest.release(0.1);
            ringing--;
        }
    }

    /** A free voice, else the quietest releasing one, else the oldest. */
    private Voice allocate() {
        Voice best = null;
        for (Voice v : voices) {
            if (v.zone == null) {
                return v;
            }
            if (v.releasing && (best == null || !best.releasing || v.level < best.level)) {
                best = v;
            } else if (best == null || (!best.releasing && v.order < best.order)) {
                best = v;
            }
        }
        return best;
    }

    private void render(Voice v, float[] left, float[] right, int at, int n) {
        Zone z = v.zone;
        Sample s = z.sample;
        Channel c = channels[v.channel];
        float target = c.gain();
        float cg = v.channelGain;
        boolean stereo = s.channels == 2;
        boolean looping = z.looped() && (z.loop == Zone.Loop.CONTINUOUS || !v.releasing);
        int loopLen = z.loopEnd - z.loopStart + 1;
        int end = s.frames - 1;
        for (int i = 0; i < n; i++) {
            double pos = v.pos;
            if (looping && pos >= z.loopEnd + 1) {
                pos -= loopLen;
            }
            int idx = (int) pos;
            if (idx >= end && !looping) {
                v.zone = null;
                v.channelGain = cg;
                return;
            }
            float frac = (float) (pos - idx);
            float l;
            float r;
            if (looping && idx + 2 > z.loopEnd) {
                // At the loop's end the next samples are the loop's start.
                float a = s.at(idx, 0);
                float a1 = s.at(wrap(idx + 1, z), 0);
                l = a + frac * (a1 - a);
                if (stereo) {
                    float b = s.at(idx, 1);
                    r = b + frac * (s.at(wrap(idx + 1, z), 1) - b);
                } else {
                    r = l;
                }
            } else if (cubic && idx >= 1 && idx + 2 <= end) {
                l = hermite(s.inside(idx - 1, 0), s.inside(idx, 0), s.inside(idx + 1, 0), s.inside(idx + 2, 0), frac);
                r = stereo
                        ? hermite(
                                s.inside(idx - 1, 1),
                                s.inside(idx, 1),
                                s.inside(idx + 1, 1),
                                s.inside(idx + 2, 1),
                                frac)
                        : l;
            } else {
                float a = s.at(idx, 0);
                l = a + frac * (s.at(idx + 1, 0) - a);
                if (stereo) {
                    float b = s.at(idx, 1);
                    r = b + frac * (s.at(idx + 1, 1) - b);
                } else {
                    r = l;
                }
            }
            if (stereo && z.width != 1f) {
                float mid = 0.5f * (l + r);
                float side = 0.5f * (l - r) * z.width;
                l = mid + side;
                r = mid - side;
            }
            if (v.filtered) {
                float yl = v.b0 * l + v.b1 * v.xl1 + v.b0 * v.xl2 - v.a1 * v.yl1 - v.a2 * v.yl2;
                v.xl2 = v.xl1;
                v.xl1 = l;
                v.yl2 = v.yl1;
                v.yl1 = yl;
                l = yl;
                float yr = v.b0 * r + v.b1 * v.xr1 + v.b0 * v.xr2 - v.a1 * v.yr1 - v.a2 * v.yr2;
                v.xr2 = v.xr1;
                v.xr1 = r;
                v.yr2 = v.yr1;
                v.yr1 = yr;
                r = yr;
            }
            float env = v.envelope();
            if (env < 0) {
                v.zone = null;
                return;
            }
            // Channel volume changes glide (5 ms one-pole), the same whatever the block size.
            cg += (target - cg) * GLIDE;
            float g = env * cg;
            left[at + i] += l * v.gainL * g;
            right[at + i] += r * v.gainR * g;
            pos += v.speed;
            if (v.glideLeft > 0) {
                v.speed *= v.glideMul;
                if (--v.glideLeft == 0) {
                    v.speed = v.glideTarget;
                }
            }
            v.pos = pos;
        }
        v.channelGain = cg;
    }

    private static int wrap(int idx, Zone z) {
        return idx > z.loopEnd ? z.loopStart + (idx - z.loopEnd - 1) : idx;
    }

    private static float hermite(float xm1, float x0, float x1, float x2, float t) {
        float c1 = 0.5f * (x1 - xm1);
        float c2 = xm1 - 2.5f * x0 + 2f * x1 - 0.5f * x2;
        float c3 = 0.5f * (x2 - xm1) + 1.5f * (x0 - x1);
        return ((c3 * t + c2) * t + c1) * t + x0;
    }

    /** What a channel is set to and which of its keys are down, held by the pedal, and how often struck. */
    static final class Channel {
        SampledInstrument instrument;
        int volume = 100;
        int expression = 127;
        int pan = 64;
        boolean pedal;
        int legatoFrames;
        int lastHeld = -1;
        final boolean[] down = new boolean[128];
        final boolean[] sustained = new boolean[128];
        final boolean[] handedOver = new boolean[128];
        final long[] onFrame = new long[128];
        final int[] onVelocity = new int[128];
        /** The take each key's last strike played and that strike's lorand draw. */
        final int[] take = new int[128];

        final double[] draw = new double[128];
        /** Strikes of each key so far of notes that came without a take. */
        final int[] strikes = new int[128];

        /** General MIDI's volume and expression curves: 40 log10(value / 127) dB each. */
        float gain() {
            float v = volume / 127f;
            float e = expression / 127f;
            return v * v * e * e;
        }

        void reset() {
            Arrays.fill(down, false);
            Arrays.fill(sustained, false);
            Arrays.fill(handedOver, false);
            pedal = false;
            lastHeld = -1;
        }
    }

    /** One sounding zone: where it is in its sample, how fast it moves, its envelope and gains. */
    static final class Voice {
        private static final int DELAY = 0, ATTACK = 1, HOLD = 2, DECAY = 3, SUSTAIN = 4, RELEASE = 5;
        Zone zone;
        int channel;
        int key;
        long order;
        double pos;
        double speed;
        double glideMul;
        double glideTarget;
        int glideLeft;
        float gainL;
        float gainR;
        float channelGain;
        boolean releasing;
        boolean choked;
        int stage;
        int stageLeft;
        float level;
        float step;
        float coef;
        float sustainLevel;
        float fade;
        float fadeStep;
        boolean filtered;
        float b0, b1, a1, a2;
        float xl1, xl2, yl1, yl2, xr1, xr2, yr1, yr2;

        void start(Zone z, int ch, int key, int velocity, float gain, Channel c, long order) {
            this.zone = z;
            this.channel = ch;
            this.key = key;
            this.order = order;
            this.pos = Math.min(z.offset, Math.max(0, z.sample.frames - 2));
            this.speed = z.speed(key);
            this.glideLeft = 0;
            this.releasing = false;
            this.choked = false;
            this.channelGain = c.gain();
            this.fade = 1;
            this.fadeStep = 0;
            float p = Math.max(-1, Math.min(1, z.pan + (c.pan - 64) / 63.5f));
            float g = gain * z.gain;
            if (z.sample.channels == 2) {
                // A stereo sample is balanced: the far side is lowered, the near side stays as recorded.
                gainL = g * Math.min(1, 1 - p);
                gainR = g * Math.min(1, 1 + p);
            } else {
                // A mono sample is panned at constant power, at unity in the middle.
                double theta = (p + 1) * Math.PI / 4;
                gainL = (float) (g * Math.cos(theta) * Math.sqrt(2));
                gainR = (float) (g * Math.sin(theta) * Math.sqrt(2));
            }
            this.filtered = z.cutoff > 0 && z.cutoff < RATE / 2.0;
            if (filtered) {
                // Butterworth two-pole low-pass (bilinear transform), as the old kit builder baked into its soft
                // layers.
                double w = Math.tan(Math.PI * z.cutoff / RATE);
                double q = Math.sqrt(0.5);
                double norm = 1 / (1 + w / q + w * w);
                b0 = (float) (w * w * norm);
                b1 = 2 * b0;
                a1 = (float) (2 * (w * w - 1) * norm);
                a2 = (float) ((1 - w / q + w * w) * norm);
                xl1 = xl2 = yl1 = yl2 = xr1 = xr2 = yr1 = yr2 = 0;
            }
            this.sustainLevel = (float) z.sustain;
            this.level = 0;
            enter(DELAY);
        }

        void skipAttack() {
            level = 1;
            enter(HOLD);
        }

        void glide(double target, int frames) {
            glideTarget = target;
            glideLeft = Math.max(1, frames);
            glideMul = Math.pow(target / speed, 1.0 / glideLeft);
        }

        void fadeIn(int frames) {
            fade = 0;
            fadeStep = 1f / Math.max(1, frames);
        }

        void fadeOut(int frames) {
            releasing = true;
            fadeStep = -fade / Math.max(1, frames);
        }

        /** Starts the release: the level falls 90 dB over {@code seconds}. */
        void release(double seconds) {
            releasing = true;
            stage = RELEASE;
            coef = (float) Math.pow(SILENT, 1.0 / Math.max(1, seconds * RATE));
        }

        private void enter(int s) {
            stage = s;
            Zone z = zone;
            switch (s) {
                case DELAY -> {
                    stageLeft = (int) (z.delay * RATE);
                    if (stageLeft <= 0) {
                        enter(ATTACK);
                    }
                }
                case ATTACK -> {
                    stageLeft = (int) (z.attack * RATE);
                    if (stageLeft <= 0) {
                        level = 1;
                        enter(HOLD);
                    } else {
                        step = (1 - level) / stageLeft;
                    }
                }
                case HOLD -> {
                    stageLeft = (int) (z.hold * RATE);
                    if (stageLeft <= 0) {
                        enter(DECAY);
                    }
                }
                case DECAY -> {
                    stageLeft = (int) (z.decay * RATE);
                    if (stageLeft <= 0 || sustainLevel >= 1) {
                        level = z.decay > 0 ? level : sustainLevel;
                        stage = SUSTAIN;
                    } else {
                        coef = (float) Math.pow(SILENT, 1.0 / stageLeft);
                    }
                }
                default -> {}
            }
        }

        /** The envelope's level for this sample, then one sample on; negative when the voice has ended. */
        float envelope() {
            float out = level * fade;
            if (fadeStep != 0) {
                fade += fadeStep;
                if (fade >= 1) {
                    fade = 1;
                    fadeStep = 0;
                } else if (fade <= 0) {
                    return -1;
                }
            }
            switch (stage) {
                case DELAY -> {
                    if (--stageLeft <= 0) {
                        enter(ATTACK);
                    }
                }
                case ATTACK -> {
                    level += step;
                    if (--stageLeft <= 0) {
                        level = 1;
                        enter(HOLD);
                    }
                }
                case HOLD -> {
                    if (--stageLeft <= 0) {
                        enter(DECAY);
                    }
                }
                case DECAY -> {
                    // Exponential towards the sustain level.
                    level = sustainLevel + (level - sustainLevel) * coef;
                    if (--stageLeft <= 0) {
                        level = sustainLevel;
                        stage = SUSTAIN;
                    }
                }
                case RELEASE -> {
                    level *= coef;
                    if (level < SILENT) {
                        return -1;
                    }
                }
                default -> {}
            }
            return out;
        }
    }
}
