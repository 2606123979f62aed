package dev.scorecast.engine.analysis;

/**
 * Fits a ramp (0, then a straight rise, then 1) to a sequence of values over time by least
 * squares, trying every pair of sample times as the ramp's ends. Pure function; meant for the
 * few hundred samples of one transition.
 */
final class RampFit {

    /** The fitted ramp: where it starts and ends, and the root-mean-square misfit of the values. */
    record Ramp(double startSeconds, double endSeconds, double misfit) {}

    private RampFit() {}

    /** @return the best ramp, or null for fewer than three samples */
    static Ramp fit(double[] timesSeconds, double[] values) {
        int n = timesSeconds.length;
        if (n < 3) {
            return null;
        }
        Ramp best = null;
        double bestError = Double.MAX_VALUE;
        for (int i = 0; i < n - 1; i++) {
            for (int j = i + 1; j < n; j++) {
                double t0 = timesSeconds[i];
                double length = timesSeconds[j] - t0;
                if (length <= 0) {
                    continue;
                }
                double error = 0;
                for (int k = 0; k < n && error < bestError; k++) {
                    double model = k <= i ? 0 : k >= j ? 1 : (timesSeconds[k] - t0) / length;
                    double diff = values[k] - model;
                    error += diff * diff;
                }
                if (error < bestError) {
                    bestError = error;
                    best = new Ramp(t0, timesSeconds[j], 0);
                }
            }
        }
        return best == null ? null : new Ramp(best.startSeconds(), best.endSeconds(), Math.sqrt(bestError / n));
    }
}
