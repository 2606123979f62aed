package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.dsp.PolyphaseResampler;
import dev.scorecast.engine.voice.PitchFrame;
import dev.scorecast.engine.voice.Yin;
import dev.scorecast.engine.voice.singing.SungNote;
import java.util.List;

/**
 * How well the sung line sits on its notes: YIN over what the singer produced, each voiced 20 ms
 * frame that falls inside a note compared with that note's pitch (also the live player's tests' measure). Tracked at 16 kHz, which keeps
 * every sung fundamental and costs a third of the work at 48 kHz.
 *
 * @param voicedFrames      voiced frames inside notes
 * @param withinFiftyCents  of those, how many are within ±50 cents of the note
 * @param voicedOutsideNotes voiced frames in rests (breaths, consonant tails)
 */
public record VocalPitch(int voicedFrames, int withinFiftyCents, int voicedOutsideNotes) {
    static final VocalPitch NONE = new VocalPitch(0, 0, 0);
    private static final int TRACK_RATE = 16_000;

    /** {@code samples} at {@code rate} start at the first note's start; notes are in the same time. */
    public static VocalPitch measure(float[] samples, int rate, List<SungNote> notes) {
        List<PitchFrame> frames = Yin.track(PolyphaseResampler.resample(samples, rate, TRACK_RATE), TRACK_RATE);
        double offset = notes.getFirst().start();
        int voiced = 0;
        int within = 0;
        int outside = 0;
        int k = 0;
        for (PitchFrame f : frames) {
            if (!f.voiced()) {
                continue;
            }
            double t = f.timeSeconds() + offset;
            while (k < notes.size() && notes.get(k).end() <= t) {
                k++;
            }
            if (k < notes.size() && notes.get(k).start() <= t) {
                voiced++;
                double cents = 1200
                        * Math.log(f.hz() / PitchFrame.midiToHz(notes.get(k).pitch()))
                        / Math.log(2);
                if (Math.abs(cents) <= 50) {
                    within++;
                }
            } else {
                outside++;
            }
        }
        return new VocalPitch(voiced, within, outside);
    }

    VocalPitch plus(VocalPitch other) {
        return new VocalPitch(
                voicedFrames + other.voicedFrames,
                withinFiftyCents + other.withinFiftyCents,
                voicedOutsideNotes + other.voicedOutsideNotes);
    }

    /** The share of voiced frames on pitch; null when nothing voiced was sung. */
    public Double accuracy() {
        return voicedFrames == 0 ? null : Math.round(1000.0 * withinFiftyCents / voicedFrames) / 1000.0;
    }
}
