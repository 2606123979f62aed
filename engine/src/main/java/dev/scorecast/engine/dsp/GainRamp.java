package dev.scorecast.engine.dsp;

/**
 * A stereo gain that never jumps: a new target is reached by a straight ramp, over
 * {@link #RAMP_FRAMES} samples unless told otherwise, so even a hard change (mute, a 20 dB cut) adds
 * no click. Optional stereo balance on top. The one gain stage of the offline mix and master and of
 * the live output stage (its master gain and its stop fade).
 */
public final class GainRamp implements BlockProcessor {

    /** 10 ms at 48 kHz: short enough to follow a cut, long enough that no step is audible. */
    public static final int RAMP_FRAMES = 480;

    private double current;
    private double target;
    private double step;
    private int left; // frames of the ramp still to go
    private final float balanceLeft;
    private final float balanceRight;

    /** Starts at {@code linearGain} with no ramp; {@code pan} in [-1, 1] attenuates the other side (balance law). */
    public GainRamp(double linearGain, double pan) {
        this.current = linearGain;
        this.target = linearGain;
        // Balance, not re-panning: turning towards one side lowers the other by cos(|pan| pi/2), the
        // near side stays at unity, so a centred mix is untouched and nothing is boosted.
        this.balanceLeft = (float) (pan > 0 ? Math.cos(pan * Math.PI / 2) : 1);
        this.balanceRight = (float) (pan < 0 ? Math.cos(-pan * Math.PI / 2) : 1);
    }

    /** A ramp in the same state: same gain, same target, same frames of ramp to go. */
    public GainRamp copy() {
        GainRamp c = new GainRamp(balanceLeft, balanceRight);
        c.current = current;
        c.target = target;
        c.step = step;
        c.left = left;
        return c;
    }

    private GainRamp(float balanceLeft, float balanceRight) {
        this.balanceLeft = balanceLeft;
        this.balanceRight = balanceRight;
    }

    /** Heads for {@code linearGain} over {@link #RAMP_FRAMES}. */
    public void setTarget(double linearGain) {
        if (linearGain != target) {
            setTarget(linearGain, RAMP_FRAMES);
        }
    }

    /** Heads for {@code linearGain} in a straight line over {@code frames} from where the gain is now (a fade). */
    public void setTarget(double linearGain, int frames) {
        target = linearGain;
        left = Math.max(1, frames);
        step = (target - current) / left;
    }

    /** Jumps to {@code linearGain} at once, ending any ramp (music starting from silence: there is nothing to click). */
    public void jumpTo(double linearGain) {
        current = linearGain;
        target = linearGain;
        step = 0;
        left = 0;
    }

    public double current() {
        return current;
    }

    /** The gain being headed for. */
    public double target() {
        return target;
    }

    /** Whether the gain has reached its target (no ramp under way). */
    public boolean settled() {
        return left == 0;
    }

    /** {@code out += in * gain}, frame by frame over {@code n} frames. */
    public void addTo(float[][] in, float[][] out, int n) {
        float[] il = in[0];
        float[] ir = in[1];
        float[] ol = out[0];
        float[] or = out[1];
        int i = 0;
        while (left > 0 && i < n) {
            current += step;
            left--;
            if (left == 0) {
                current = target;
            }
            ol[i] += (float) (il[i] * current * balanceLeft);
            or[i] += (float) (ir[i] * current * balanceRight);
            i++;
        }
        float gl = (float) (current * balanceLeft);
        float gr = (float) (current * balanceRight);
        for (; i < n; i++) {
            ol[i] += il[i] * gl;
            or[i] += ir[i] * gr;
        }
    }

    /** In place: {@code buf *= gain} over the first {@code n} frames. */
    public void apply(float[][] buf, int n) {
        process(buf, 0, n);
    }

    /** In place: {@code channels *= gain} (stereo), frames {@code offset .. offset + frames - 1}. */
    @Override
    public void process(float[][] channels, int offset, int frames) {
        float[] l = channels[0];
        float[] r = channels[1];
        int i = offset;
        int end = offset + frames;
        while (left > 0 && i < end) {
            current += step;
            left--;
            if (left == 0) {
                current = target;
            }
            l[i] = (float) (l[i] * current * balanceLeft);
            r[i] = (float) (r[i] * current * balanceRight);
            i++;
        }
        float gl = (float) (current * balanceLeft);
        float gr = (float) (current * balanceRight);
        for (; i < end; i++) {
            l[i] *= gl;
            r[i] *= gr;
        }
    }
}
