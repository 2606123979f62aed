package dev.scorecast.engine.live;

import com.sun.media.sound.SoftAudioBuffer;
import com.sun.media.sound.SoftReverb;
import javax.sound.sampled.AudioFormat;

/**
 * The synthesizer's own reverb (Gervill's {@link SoftReverb}, in its light mode as the synthesizer
 * runs it) for the sung line, so the voice sits in the same room as the band. It is fed at half
 * the send every instrument channel has by default (controller 91 at 40): at the full send the
 * hall holds each note into the next and blurs the words (the pitch of the line, measured as the
 * sync pipeline measures its stem, fell from 84 to 79 % of frames within 50 cents on a test line;
 * at half it is 82 %, dry 84 %). It is skipped once its input has been silent longer than its tail.
 */
final class VocalReverb {
    /** Half GM's default reverb send (40 of 127, which Gervill gives every channel). */
    static final float SEND = 20 / 127f;
    /** The tail of Gervill's default hall has died well below hearing after this long. */
    private static final int TAIL_FRAMES = 4 * Performance.RATE;

    private final SoftReverb reverb = new SoftReverb();
    private final SoftAudioBuffer input;
    private final SoftAudioBuffer left;
    private final SoftAudioBuffer right;
    private int quietFrames = TAIL_FRAMES;

    VocalReverb(int blockFrames) {
        AudioFormat format = new AudioFormat(Performance.RATE, 16, 1, true, false);
        input = new SoftAudioBuffer(blockFrames, format);
        left = new SoftAudioBuffer(blockFrames, format);
        right = new SoftAudioBuffer(blockFrames, format);
        reverb.init(Performance.RATE, 150f);
        reverb.setLightMode(true);
        reverb.setMixMode(false);
        reverb.setInput(0, input);
        reverb.setOutput(0, left);
        reverb.setOutput(1, right);
        reverb.processControlLogic(); // takes the default room
    }

    /**
     * Adds the reverb of {@code mono} (the first {@code n} frames, {@code silent} when it holds no
     * sound) to the planar stereo {@code block}. {@code n} must be the block size given at
     * construction: the reverb processes whole buffers.
     */
    void addTo(float[][] block, float[] mono, int n, boolean silent) {
        if (silent) {
            if (quietFrames >= TAIL_FRAMES) {
                return;
            }
            quietFrames += n;
            input.clear();
        } else {
            quietFrames = 0;
            float[] in = input.array();
            for (int i = 0; i < n; i++) {
                in[i] = mono[i] * SEND;
            }
        }
        reverb.processAudio();
        float[] l = left.array();
        float[] r = right.array();
        float[] bl = block[0];
        float[] br = block[1];
        for (int i = 0; i < n; i++) {
            bl[i] += l[i];
            br[i] += r[i];
        }
    }
}
