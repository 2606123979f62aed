package dev.scorecast.engine.sampler;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * One SFZ region as the sampler plays it: which notes start it, what it plays and how it sounds.
 * The subset Scorecast's banks use: key and velocity ranges ({@code lokey hikey key lovel hivel}),
 * velocity crossfades ({@code xfin_lovel xfin_hivel xfout_lovel xfout_hivel}, power curve), round
 * robins ({@code seq_length seq_position}, or {@code lorand hirand}), release triggers
 * ({@code trigger=release}, {@code rt_decay}), loops ({@code loop_mode loop_start loop_end}),
 * one-shots, the amplitude envelope ({@code ampeg_delay attack hold decay sustain release}),
 * choke groups ({@code group off_by off_mode off_time}), level and placement ({@code volume global_volume master_volume group_volume pan width
 * amp_veltrack}), pitch ({@code pitch_keycenter pitch_keytrack tune transpose}) and the start
 * ({@code offset}), and how many notes of one key ring at once ({@code note_polyphony}), and a fixed low-pass ({@code fil_type=lpf_2p cutoff}).
 */
final class Zone {
    enum Trigger {
        ATTACK,
        RELEASE
    }

    enum Loop {
        NO_LOOP,
        ONE_SHOT,
        CONTINUOUS,
        SUSTAIN
    }

    final Path samplePath;
    Sample sample;
    final int loKey, hiKey, loVel, hiVel;
    final int xfinLo, xfinHi, xfoutLo, xfoutHi;
    final int seqLength, seqPosition;
    final double loRand, hiRand;
    final Trigger trigger;
    final double rtDecayDb;
    final Loop loop;
    final int loopStart, loopEnd;
    final double delay, attack, hold, decay, sustain, release;
    final int group, offBy;
    final boolean offFast;
    final double offTime;
    final float gain;
    final float pan;
    final double ampVeltrack;
    final int keyCenter;
    final double keytrack;
    final double tuneCents;
    final int offset;
    final int notePolyphony;
    /** A two-pole low-pass at this frequency (fil_type=lpf_2p, cutoff), 0 for none: a soft hit made darker. */
    final double cutoff;
    /** A stereo sample's width, SFZ's {@code width} in percent: 100 as recorded, 0 mono. */
    final float width;

    Zone(Map<String, String> o, Path base) {
        String path = o.getOrDefault("default_path", "") + req(o, "sample");
        this.samplePath = base.resolve(path.replace('\\', '/')).normalize();
        int key = note(o.get("key"), -1);
        this.loKey = note(o.get("lokey"), key >= 0 ? key : 0);
        this.hiKey = note(o.get("hikey"), key >= 0 ? key : 127);
        this.loVel = integer(o, "lovel", 1);
        this.hiVel = integer(o, "hivel", 127);
        this.xfinLo = integer(o, "xfin_lovel", 0);
        this.xfinHi = integer(o, "xfin_hivel", 0);
        this.xfoutLo = integer(o, "xfout_lovel", 127);
        this.xfoutHi = integer(o, "xfout_hivel", 127);
        this.seqLength = Math.max(1, integer(o, "seq_length", 1));
        this.seqPosition = Math.max(1, integer(o, "seq_position", 1));
        this.loRand = real(o, "lorand", 0);
        this.hiRand = real(o, "hirand", 1);
        this.trigger = "release".equals(o.get("trigger")) ? Trigger.RELEASE : Trigger.ATTACK;
        this.rtDecayDb = real(o, "rt_decay", 0);
        this.loop = switch (o.getOrDefault("loop_mode", "no_loop")) {
            case "one_shot" -> Loop.ONE_SHOT;
            case "loop_continuous" -> Loop.CONTINUOUS;
            case "loop_sustain" -> Loop.SUSTAIN;
            case "no_loop" -> Loop.NO_LOOP;
            default ->
                throw new IllegalArgumentException("loop_mode " + o.get("loop_mode")
                        + " is not one of no_loop, one_shot, loop_continuous, loop_sustain");
        };
        this.loopStart = integer(o, "loop_start", 0);
        this.loopEnd = integer(o, "loop_end", 0);
        this.delay = real(o, "ampeg_delay", 0);
        this.attack = real(o, "ampeg_attack", 0);
        this.hold = real(o, "ampeg_hold", 0);
        this.decay = real(o, "ampeg_decay", 0);
        this.sustain = Math.max(0, Math.min(100, real(o, "ampeg_sustain", 100))) / 100;
        this.release = real(o, "ampeg_release", 0.001);
        this.group = integer(o, "group", 0);
        this.offBy = integer(o, "off_by", 0);
        this.offFast = !"normal".equals(o.get("off_mode"));
        this.offTime = real(o, "off_time", 0.006);
        // volume is the region's own (a lower header's overrides a higher one's); global_volume, master_volume and
        // group_volume add to it, so a whole instrument can be levelled without touching every region.
        double db = real(o, "volume", 0)
                + real(o, "global_volume", 0)
                + real(o, "master_volume", 0)
                + real(o, "group_volume", 0);
        this.gain = (float) Math.pow(10, db / 20);
        this.pan = (float) Math.max(-1, Math.min(1, real(o, "pan", 0) / 100));
        this.ampVeltrack = real(o, "amp_veltrack", 100) / 100;
        this.keyCenter = note(o.get("pitch_keycenter"), 60);
        this.keytrack = real(o, "pitch_keytrack", 100) / 100;
        this.tuneCents = real(o, "tune", 0) + 100 * real(o, "transpose", 0);
        this.offset = integer(o, "offset", 0);
        this.notePolyphony = integer(o, "note_polyphony", 0);
        String fil = o.getOrDefault("fil_type", "lpf_2p");
        if (o.containsKey("cutoff") && !fil.equals("lpf_2p")) {
            throw new IllegalArgumentException("fil_type " + fil + " is not supported (lpf_2p only)");
        }
        this.cutoff = real(o, "cutoff", 0);
        this.width = (float) Math.max(-100, Math.min(100, real(o, "width", 100))) / 100;
    }

    boolean matches(int key, int velocity) {
        return key >= loKey && key <= hiKey && velocity >= loVel && velocity <= hiVel;
    }

    /** The velocity crossfade's gain at {@code velocity} (equal power). */
    float crossfade(int velocity) {
        double g = 1;
        if (xfinHi > xfinLo && velocity < xfinHi) {
            g *= velocity <= xfinLo ? 0 : Math.sqrt((velocity - xfinLo) / (double) (xfinHi - xfinLo));
        }
        if (xfoutHi > xfoutLo && velocity > xfoutLo) {
            g *= velocity >= xfoutHi ? 0 : Math.sqrt((xfoutHi - velocity) / (double) (xfoutHi - xfoutLo));
        }
        return (float) g;
    }

    /** The velocity's gain: {@code amp_veltrack} of the way from 1 to (velocity / 127)^2, SFZ's default curve. */
    float velocityGain(int velocity) {
        double v = velocity / 127.0;
        return (float) (1 - ampVeltrack + ampVeltrack * v * v);
    }

    /** Playback speed (source frames per output frame) for {@code key}. */
    double speed(int key) {
        double cents = (key - keyCenter) * 100 * keytrack + tuneCents;
        return Math.pow(2, cents / 1200) * sample.rate / Sampler.RATE;
    }

    boolean looped() {
        return (loop == Loop.CONTINUOUS || loop == Loop.SUSTAIN) && loopEnd > loopStart;
    }

    private static String req(Map<String, String> o, String k) {
        String v = o.get(k);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("a region without " + k);
        }
        return v;
    }

    private static int integer(Map<String, String> o, String k, int dflt) {
        String v = o.get(k);
        return v == null ? dflt : (int) Math.round(Double.parseDouble(v));
    }

    private static double real(Map<String, String> o, String k, double dflt) {
        String v = o.get(k);
        return v == null ? dflt : Double.parseDouble(v);
    }

    /** A key as a MIDI number or a name (c4 = 60, c#4, eb4). */
    static int note(String v, int dflt) {
        if (v == null) {
            return dflt;
        }
        v = v.strip().toLowerCase(Locale.ROOT);
        if (!v.isEmpty() && (Character.isDigit(v.charAt(0)) || v.charAt(0) == '-')) {
            return Integer.parseInt(v);
        }
        int pc = switch (v.charAt(0)) {
            case 'c' -> 0;
            case 'd' -> 2;
            case 'e' -> 4;
            case 'f' -> 5;
            case 'g' -> 7;
            case 'a' -> 9;
            case 'b' -> 11;
            default -> throw new IllegalArgumentException("not a note: " + v);
        };
        int i = 1;
        if (i < v.length() && v.charAt(i) == '#') {
            pc++;
            i++;
        } else if (i < v.length() && v.charAt(i) == 'b' && i + 1 < v.length()) {
            pc--;
            i++;
        }
        return (Integer.parseInt(v.substring(i)) + 1) * 12 + pc;
    }
}
