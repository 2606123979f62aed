package dev.scorecast.engine.render;

/**
 * A stereo gain that never jumps: a new target is reached by a straight ramp over
 * {@link #RAMP_FRAMES} samples, so even a hard change (mute, a 20 dB cut) adds no click. Optional
 * stereo balance on top ({@link #balance}).
 */
final class GainRamp {

    /** 10 ms at 48 kHz: short enough to follow a cut, long enough that no step is audible. */
    static final int RAMP_FRAMES = 480;

    private double current;
    private double target;
    private double step;
    private int left; // frames of the ramp still to go
    private final float balanceLeft;
    private final float balanceRight;

    /** Starts at {@code linearGain} with no ramp; {@code pan} in [-1, 1] attenuates the other side (balance law). */
    GainRamp(double linearGain, double pan) {
        this.current = linearGain;
        this.target = linearGain;
        // Balance, not re-panning: turning towards one side lowers the other by cos(|pan| pi/2), the
        // near side stays at unity, so a centred mix is untouched and nothing is boosted.
        this.balanceLeft = (float) (pan > 0 ? Math.cos(pan * Math.PI / 2) : 1);
        this.balanceRight = (float) (pan < 0 ? Math.cos(-pan * Math.PI / 2) : 1);
    }

    void setTarget(double linearGain) {
        if (linearGain != target) {
            target = linearGain;
            left = RAMP_FRAMES;
            step = (target - current) / RAMP_FRAMES;
        }
    }

    double current() {
        return current;
    }

    /** {@code out += in * gain}, frame by frame over {@code n} frames. */
    void addTo(float[][] in, float[][] out, int n) {
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

    /** In place: {@code buf *= gain}. */
    void apply(float[][] buf, int n) {
        float[] l = buf[0];
        float[] r = buf[1];
        int i = 0;
        while (left > 0 && i < n) {
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
        for (; i < n; i++) {
            l[i] *= gl;
            r[i] *= gr;
        }
    }
}
