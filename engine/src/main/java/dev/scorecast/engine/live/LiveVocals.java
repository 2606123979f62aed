package dev.scorecast.engine.live;

import dev.scorecast.engine.voice.singing.SungNote;
import dev.scorecast.engine.voice.singing.Vocal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The sung layer of one performance: the vocal stage of its render loop. The composer's lines
 * ({@link VocalPhrase}s, in beats) are asked of the engine's {@link PhraseSinger} a few seconds
 * before they are due, at the tempo they will be played; when the block holding a line's first
 * beat is rendered, its sung audio starts at that beat's exact frame, or, when it is not ready, the
 * line is skipped: the loop never waits for the singer. Sounding lines are mixed with the vocals
 * part's gain, panned, and sent to the synthesizer's reverb, before the performance's master gain
 * and stop fade.
 *
 * <p>Runs on the render loop only. Musical time comes from the loop with each block (the beat at
 * its first frame and the beats per frame), so tempo changes move every line still to come; real
 * time from the performance's {@link Pacing}, so a line is due as early as the loop will render it.
 */
final class LiveVocals {
    /** Lines are asked for this far ahead: enough for a cold singer, little to hold in memory or re-sing after a tempo change. */
    static final double HORIZON_SECONDS = 6;
    /**
     * A line that would have to be asked for later than this before it starts is skipped at once:
     * singing a new line takes longer, and whether a cached copy happens to exist must not decide
     * what plays (two performances started alike play the same samples). So the line at the very
     * start of a performance, or at a bar line a control reached just before, stays silent.
     */
    static final double MIN_LEAD_SECONDS = 0.3;
    /** A sounding line leaving at a bar line fades over this long. */
    static final int FADE_FRAMES = Performance.RATE / 200;

    private final String performance;
    private final PhraseSinger singer;
    /** The performance's own (not a copy): when the block holding a line's start will be rendered, after a burst or a catch-up too. */
    private final Pacing pacing;
    /** Lines to come, in order of their start. */
    private final List<Line> lines = new ArrayList<>();

    private final List<SoundingLine> sounding = new ArrayList<>();
    /** Vocals on or off from a beat on (bar lines), in order. */
    private final List<Switch> switches = new ArrayList<>();

    private boolean on;
    private double relativeTempo = 1;
    /** The look-ahead section's phrases last taken in, so that each is taken once. */
    private List<VocalPhrase> offered;

    private final float[] mono;
    private final VocalReverb reverb;

    /** A line waiting for its first beat: the sung audio asked for, at which tempo (NaN: not asked). */
    private static final class Line {
        final VocalPhrase phrase;
        List<SungNote> asked;
        double askedBpm = Double.NaN;
        CompletableFuture<Vocal> sung;
        /** Needed too soon to be asked for; skipped when it comes. */
        boolean tooSoon;

        Line(VocalPhrase phrase) {
            this.phrase = phrase;
        }

        Line copy() {
            Line c = new Line(phrase);
            c.asked = asked;
            c.askedBpm = askedBpm;
            c.sung = sung;
            c.tooSoon = tooSoon;
            return c;
        }
    }

    /** A sounding line: its samples from {@code position}, its gain and channel gains, and its fade when told to leave. */
    private static final class SoundingLine {
        final float[] samples;
        final float gain;
        final float left;
        final float right;
        int position;
        /** Frames of the first block to wait before the first sample. */
        int delay;
        /** -1: not fading; else frames into the fade. */
        int fading = -1;

        int fadeDelay;

        SoundingLine(float[] samples, float gain, float left, float right, int delay) {
            this.samples = samples;
            this.gain = gain;
            this.left = left;
            this.right = right;
            this.delay = delay;
        }

        SoundingLine copy() {
            SoundingLine c = new SoundingLine(samples, gain, left, right, delay);
            c.position = position;
            c.fading = fading;
            c.fadeDelay = fadeDelay;
            return c;
        }
    }

    private record Switch(double beat, boolean on) {}

    LiveVocals(String performance, PhraseSinger singer, Pacing pacing, int blockFrames) {
        this.performance = performance;
        this.singer = singer;
        this.pacing = pacing;
        this.mono = new float[blockFrames];
        this.reverb = new VocalReverb(blockFrames);
    }

    // ------------------------------------------------------------------ what the performance tells it

    /** A fresh start: no lines, none sounding, vocals {@code on} or off from now. */
    void reset(boolean on) {
        dropLines(Double.NEGATIVE_INFINITY);
        sounding.clear();
        switches.clear();
        this.on = on;
        offered = null;
    }

    /** Vocals enter or leave at {@code beat} (a bar line): lines from there on sound or not, a line sounding there fades out. */
    void switchAt(double beat, boolean on) {
        switches.removeIf(s -> s.beat() >= beat - 1e-9);
        switches.add(new Switch(beat, on));
    }

    /** The relative tempo (intensity) from now: lines not yet started are asked for again at it. */
    void relativeTempo(double relative) {
        relativeTempo = relative;
    }

    /** The lines between beats {@code from} and {@code to} are now {@code phrases} (those from {@code from} on); lines unchanged keep what was sung. */
    void replace(double from, double to, List<VocalPhrase> phrases) {
        List<Line> kept = new ArrayList<>();
        for (Iterator<Line> it = lines.iterator(); it.hasNext(); ) {
            Line line = it.next();
            double start = line.phrase.startBeat();
            if (start >= from - 1e-9 && start < to - 1e-9) {
                it.remove();
                if (phrases.contains(line.phrase)) {
                    kept.add(line);
                } else {
                    release(line);
                }
            }
        }
        for (VocalPhrase p : phrases) {
            if (p.startBeat() < from - 1e-9 || p.startBeat() >= to - 1e-9) {
                continue;
            }
            Line line =
                    kept.stream().filter(l -> l.phrase.equals(p)).findFirst().orElseGet(() -> new Line(p));
            kept.remove(line);
            lines.add(line);
        }
        kept.forEach(this::release);
        lines.sort((a, b) -> Double.compare(a.phrase.startBeat(), b.phrase.startBeat()));
    }

    /** The section composed ahead for {@code at}: its lines are known a section early, so the first can be sung in time. */
    void lookAhead(double at, double beats, List<VocalPhrase> phrases) {
        if (phrases != offered) {
            offered = phrases;
            replace(at, at + beats, phrases);
        }
    }

    /** Stop: no more lines; what sounds carries on under the performance's fade. */
    void stop() {
        dropLines(Double.NEGATIVE_INFINITY);
        switches.clear();
        offered = null;
    }

    /** The fade of a stop has ended: nothing sounds any more. */
    void silence() {
        sounding.clear();
    }

    /**
     * This stage for a copy of the performance (a fork), paced by the copy's {@code copyPacing}: same lines, the same ones
     * sounding at the same sample, same switches. The reverb starts empty (the tail of what it held stays with the original).
     */
    LiveVocals copyFor(String copyId, Pacing copyPacing) {
        LiveVocals c = new LiveVocals(copyId, singer, copyPacing, mono.length);
        for (Line line : lines) {
            Line l = line.copy();
            if (l.asked != null) {
                singer.share(l.asked);
            }
            c.lines.add(l);
        }
        sounding.forEach(v -> c.sounding.add(v.copy()));
        c.switches.addAll(switches);
        c.on = on;
        c.relativeTempo = relativeTempo;
        c.offered = offered;
        return c;
    }

    // ------------------------------------------------------------------ per block, on the render loop

    /**
     * Mixes this block's vocals into {@code block} (planar stereo, {@code n} frames, the
     * first at performance frame {@code frame} and beat {@code beat}). When the music is stopped
     * ({@code beatsPerFrame} 0) only what already sounds goes on.
     */
    void mixInto(float[][] block, int n, long frame, double beat, double beatsPerFrame) {
        if (beatsPerFrame > 0) {
            ask(frame, beat, beatsPerFrame);
            startAndSwitch(n, beat, beatsPerFrame);
        }
        if (sounding.isEmpty()) {
            reverb.addTo(block, mono, n, true);
            return;
        }
        Arrays.fill(mono, 0, n, 0f);
        for (Iterator<SoundingLine> it = sounding.iterator(); it.hasNext(); ) {
            SoundingLine v = it.next();
            if (render(v, block, n)) {
                it.remove();
            }
        }
        reverb.addTo(block, mono, n, false);
    }

    /** Asks for every line due within the horizon that will be heard, at the tempo it will be played; lets go of the others. */
    private void ask(long frame, double beat, double beatsPerFrame) {
        double bpmNow = beatsPerFrame * Performance.RATE * 60;
        double horizon = beat + HORIZON_SECONDS * bpmNow / 60;
        for (Line line : lines) {
            double start = line.phrase.startBeat();
            if (start > horizon) {
                break;
            }
            double bpm = line.phrase.bpm() * relativeTempo;
            boolean heard = onAt(start);
            if (line.asked != null && (!heard || line.askedBpm != bpm)) {
                release(line); // vocals off by then, or the tempo changed: that singing is of no use
            }
            if (!heard || line.asked != null || line.tooSoon) {
                continue;
            }
            double framesToStart = (start - beat) / beatsPerFrame;
            if (framesToStart < MIN_LEAD_SECONDS * Performance.RATE) {
                line.tooSoon = true;
                continue;
            }
            long deadline = pacing.renderedFrom(frame + framesToStart);
            line.asked = line.phrase.at(bpm);
            line.askedBpm = bpm;
            line.sung = singer.ask(line.asked, deadline);
        }
    }

    /** Applies the switches and starts the lines whose first beat falls in this block, in musical order. */
    private void startAndSwitch(int n, double beat, double beatsPerFrame) {
        double end = beat + n * beatsPerFrame;
        while (true) {
            Switch s = switches.isEmpty() ? null : switches.getFirst();
            Line line = lines.isEmpty() ? null : lines.getFirst();
            boolean switchFirst =
                    s != null && s.beat() < end && (line == null || s.beat() <= line.phrase.startBeat() + 1e-9);
            if (switchFirst) {
                switches.removeFirst();
                on = s.on();
                if (!on) {
                    int at = offset(s.beat(), beat, beatsPerFrame, n);
                    sounding.forEach(v -> fadeFrom(v, at));
                }
                continue;
            }
            if (line == null || line.phrase.startBeat() >= end) {
                return;
            }
            lines.removeFirst();
            if (line.phrase.startBeat() < beat - beatsPerFrame) {
                // Handed over after its beat had passed (cannot happen while sections begin at bar lines ahead of the
                // loop).
                if (on) {
                    singer.skipped(performance, line.phrase.startBeat(), "its beat had passed");
                }
                release(line);
                continue;
            }
            start(line, offset(line.phrase.startBeat(), beat, beatsPerFrame, n));
        }
    }

    private void start(Line line, int at) {
        if (!on) {
            release(line);
            return;
        }
        CompletableFuture<Vocal> sung = line.sung;
        if (sung == null || !sung.isDone() || sung.isCompletedExceptionally()) {
            String why = line.tooSoon
                    ? "needed sooner than it could be sung"
                    : sung == null
                            ? "never asked for"
                            : sung.isCancelled()
                                    ? "its deadline passed before the singer reached it"
                                    : sung.isCompletedExceptionally() ? "the singer failed on it" : "still being sung";
            singer.skipped(performance, line.phrase.startBeat(), why);
            release(line);
            return;
        }
        VocalPhrase p = line.phrase;
        // The vocals part's gain, panned at constant power as the offline mixer pans a stem.
        double gain = Math.pow(10, (p.gainDb() + LIVE_LEVEL_DB) / 20);
        double angle = (Math.clamp(p.pan(), -1, 1) + 1) * Math.PI / 4;
        sounding.add(new SoundingLine(
                sung.join().samples(),
                (float) gain,
                (float) (gain * Math.cos(angle) * Math.sqrt(2)),
                (float) (gain * Math.sin(angle) * Math.sqrt(2)),
                at));
        singer.started();
        release(line);
    }

    /**
     * The synthesizer plays each part at channel volume {@code 127 x 10^(gain/40)} (full volume for
     * 0 dB), where the offline renderer plays it at volume 100 and applies the gain itself: the live
     * band sits 40 log10(127/100) = 4.15 dB higher, and the voice follows so it keeps the offline balance.
     */
    static final double LIVE_LEVEL_DB = 40 * Math.log10(127 / 100.0);

    private void fadeFrom(SoundingLine v, int at) {
        if (v.fading < 0) {
            v.fading = 0;
            v.fadeDelay = Math.max(0, at - v.delay); // counted from the voice's first sample in this block
        }
    }

    /** Mixes one voice into the block; true when it has ended. */
    private boolean render(SoundingLine v, float[][] block, int n) {
        float[] l = block[0];
        float[] r = block[1];
        int i = v.delay;
        v.delay = 0;
        for (; i < n && v.position < v.samples.length; i++) {
            float x = v.samples[v.position++];
            if (v.fading >= 0) {
                if (v.fadeDelay > 0) {
                    v.fadeDelay--;
                } else {
                    if (v.fading >= FADE_FRAMES) {
                        return true;
                    }
                    x *= 1 - v.fading / (float) FADE_FRAMES;
                    v.fading++;
                }
            }
            mono[i] += x * v.gain;
            l[i] += x * v.left;
            r[i] += x * v.right;
        }
        return v.position >= v.samples.length;
    }

    private boolean onAt(double beat) {
        boolean state = on;
        for (Switch s : switches) {
            if (s.beat() > beat + 1e-9) {
                break;
            }
            state = s.on();
        }
        return state;
    }

    private static int offset(double at, double beat, double beatsPerFrame, int n) {
        return (int) Math.clamp(Math.round((at - beat) / beatsPerFrame), 0, n - 1);
    }

    private void dropLines(double from) {
        for (Iterator<Line> it = lines.iterator(); it.hasNext(); ) {
            Line line = it.next();
            if (line.phrase.startBeat() >= from - 1e-9) {
                release(line);
                it.remove();
            }
        }
    }

    private void release(Line line) {
        if (line.asked != null) {
            singer.drop(line.asked);
        }
        line.asked = null;
        line.askedBpm = Double.NaN;
        line.sung = null;
    }
}
