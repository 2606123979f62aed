package dev.scorecast.server;

/** Test helper: how alike two renders' audio is under a stretch, once aligned by a lag (conform's kept-span measure). */
public final class AlignedCorrelation {
    private AlignedCorrelation() {}

    /**
     * Pearson's correlation of {@code now[from..to)} against {@code old} shifted by {@code lag}
     * samples ({@code old[i - lag]}); samples outside either are left out; 0 when either is silent.
     */
    public static double of(float[] old, float[] now, int from, int to, int lag) {
        double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
        int n = 0;
        for (int i = from; i < to; i++) {
            int j = i - lag;
            if (i < 0 || i >= now.length || j < 0 || j >= old.length) {
                continue;
            }
            double x = now[i];
            double y = old[j];
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
            n++;
        }
        if (n == 0) {
            return 0;
        }
        double cov = sxy - sx * sy / n;
        double vx = sxx - sx * sx / n;
        double vy = syy - sy * sy / n;
        return vx <= 0 || vy <= 0 ? 0 : cov / Math.sqrt(vx * vy);
    }
}
