package dev.scorecast.engine.live;

/**
 * Where a performance is in sample time and in musical time: frames emitted, beats played and the
 * tempo now, which glides over one beat when the intensity changes. The beat stands still while the
 * music is stopped, so a start carries on from the beat where the last stop left it.
 *
 * <p>Render loop only; {@link #copy()} for a fork.
 */
final class MusicalClock {
    private final int rate;
    private long frame;
    private double beat;
    private boolean playing;
    private double tempo;
    private double glideFrom;
    private double glideTo;
    /** 0 to 1 through the one-beat glide; 1 when not gliding. */
    private double glideDone = 1;

    MusicalClock(int rate) {
        this.rate = rate;
    }

    MusicalClock copy() {
        MusicalClock c = new MusicalClock(rate);
        c.frame = frame;
        c.beat = beat;
        c.playing = playing;
        c.tempo = tempo;
        c.glideFrom = glideFrom;
        c.glideTo = glideTo;
        c.glideDone = glideDone;
        return c;
    }

    long frame() {
        return frame;
    }

    double beat() {
        return beat;
    }

    boolean playing() {
        return playing;
    }

    /** Beats per minute now (while stopped, the tempo the music stopped at). */
    double tempo() {
        return tempo;
    }

    /** Beats per frame through the next block: the tempo now while playing, 0 while stopped. */
    double beatsPerFrame() {
        return playing ? tempo / 60.0 / rate : 0;
    }

    /** The beat {@code frames} frames from now at the tempo now (played or not). */
    double beatAfter(long frames) {
        return beat + frames * tempo / 60.0 / rate;
    }

    /** The frame at which beat {@code at} will be emitted, at the tempo now. */
    long frameOf(double at) {
        return frame + Math.round((at - beat) / (tempo / 60.0) * rate);
    }

    void play() {
        playing = true;
    }

    void stop() {
        playing = false;
    }

    /** Jumps to {@code bpm} at once, ending any glide. */
    void setTempo(double bpm) {
        tempo = bpm;
        glideDone = 1;
    }

    /** Glides from the tempo now to {@code bpm} over the next beat. */
    void glideTo(double bpm) {
        glideFrom = tempo;
        glideTo = bpm;
        glideDone = 0;
    }

    /**
     * Moves on by one block of {@code frames} played at {@code beatsPerFrame}, the rate taken when the
     * block began (a section starting inside the block sets a new tempo from the next block on).
     */
    void advance(int frames, double beatsPerFrame) {
        if (playing) {
            double beats = frames * beatsPerFrame;
            beat += beats;
            if (glideDone < 1) {
                glideDone = Math.min(1, glideDone + beats);
                tempo = glideFrom + (glideTo - glideFrom) * glideDone;
            }
        }
        frame += frames;
    }

    double seconds() {
        return frame / (double) rate;
    }
}
