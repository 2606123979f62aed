package dev.scorecast.engine.interchange;

import java.util.Locale;

/**
 * A video's frame rate as an exact fraction, frames per second = {@code num / den} (30000/1001 for
 * NTSC's 29.97), so that every time an editing program reads is a whole number of frames: FCPXML
 * writes times as rational seconds ({@code 1001/30000s} is one frame at 29.97) and OpenTimelineIO
 * counts frames at the rate. The probe reports a decimal rate; {@link #of(double)} recovers the
 * fraction it came from.
 */
public record FrameRate(long num, long den) {
    /** The rates editing programs make sequences in; a probed rate this close to one of them is that one. */
    private static final FrameRate[] STANDARD = {
        new FrameRate(24000, 1001), new FrameRate(24, 1), new FrameRate(25, 1), new FrameRate(30000, 1001),
                new FrameRate(30, 1),
        new FrameRate(48, 1), new FrameRate(50, 1), new FrameRate(60000, 1001), new FrameRate(60, 1),
                new FrameRate(100, 1),
        new FrameRate(120000, 1001), new FrameRate(120, 1)
    };
    /** Relative distance within which a probed rate is taken as a standard one (a phone's 29.98 is 29.97). */
    private static final double SNAP = 0.001;
    /** The largest denominator of a rate that is no standard one. */
    private static final long MAX_DEN = 10_000;

    public FrameRate {
        if (num <= 0 || den <= 0) {
            throw new IllegalArgumentException("a frame rate is a positive fraction, not " + num + "/" + den);
        }
        long g = gcd(num, den);
        num /= g;
        den /= g;
    }

    /**
     * The fraction of a decimal rate: the standard rate within 0.1 % (29.97002997 is 30000/1001, a
     * variable-rate phone video's 29.98 too), else the nearest fraction with a denominator up to
     * 10,000 (continued fractions).
     */
    public static FrameRate of(double fps) {
        if (!(fps > 0) || !Double.isFinite(fps)) {
            throw new IllegalArgumentException("a frame rate must be a positive number, not " + fps);
        }
        for (FrameRate standard : STANDARD) {
            if (Math.abs(fps / standard.fps() - 1) <= SNAP) {
                return standard;
            }
        }
        // Continued fractions: the convergents are the best approximations for their denominators.
        long h0 = 1, h1 = 0, k0 = 0, k1 = 1;
        double x = fps;
        for (int i = 0; i < 32; i++) {
            long a = (long) Math.floor(x);
            long h = a * h0 + h1;
            long k = a * k0 + k1;
            if (k > MAX_DEN) {
                break;
            }
            h1 = h0;
            h0 = h;
            k1 = k0;
            k0 = k;
            double rest = x - a;
            if (rest < 1e-9 || Math.abs((double) h0 / k0 - fps) < 1e-9) {
                break;
            }
            x = 1 / rest;
        }
        return new FrameRate(Math.max(1, h0), k0);
    }

    public double fps() {
        return (double) num / den;
    }

    /** The frame nearest {@code seconds}. */
    public long frameAt(double seconds) {
        return Math.round(seconds * num / den);
    }

    /** The whole frames per second a timecode counts (30 at 29.97, counted non-drop). */
    public int timecodeBase() {
        return (int) Math.round(fps());
    }

    /** Exact seconds of {@code frames} frames, as FCPXML writes a time: {@code 1001/30000s}, {@code 4s}, {@code 0s}. */
    public String fcpxmlTime(long frames) {
        return rational(frames * den, num);
    }

    /** One frame's duration as FCPXML writes it, e.g. {@code 1001/30000s}. */
    public String frameDuration() {
        return den + "/" + num + "s";
    }

    /** Seconds as a rational FCPXML time, reduced: {@code n/d s}, or {@code Ns} when whole. */
    public static String rational(long numerator, long denominator) {
        if (numerator == 0) {
            return "0s";
        }
        long g = gcd(Math.abs(numerator), denominator);
        long n = numerator / g;
        long d = denominator / g;
        return d == 1 ? n + "s" : n + "/" + d + "s";
    }

    /** Non-drop-frame timecode HH:MM:SS:FF of a frame (counted at {@link #timecodeBase()}). */
    public String timecode(long frame) {
        int base = timecodeBase();
        long f = frame % base;
        long totalSeconds = frame / base;
        return String.format(
                Locale.ROOT, "%02d:%02d:%02d:%02d", totalSeconds / 3600, totalSeconds / 60 % 60, totalSeconds % 60, f);
    }

    @Override
    public String toString() {
        return num + "/" + den;
    }

    static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
