package dev.scorecast.engine.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the video into scenes at its transitions and gives each the mean of the per-hop curves
 * over its time. Pure function.
 */
final class SceneBuilder {

    private SceneBuilder() {}

    /**
     * @param transitions  in time order
     * @param hopSeconds   the curves' time step
     * @param curves       motion, brightness, colourfulness and warmth per hop, all of one length
     */
    static List<Scene> build(List<Cut> transitions, double durationSeconds, double hopSeconds, Curves curves) {
        List<Double> bounds = new ArrayList<>();
        bounds.add(0.0);
        for (Cut cut : transitions) {
            // A scene shorter than one hop has no curve values of its own; it joins the one before.
            if (cut.time() - bounds.getLast() >= hopSeconds && durationSeconds - cut.time() >= hopSeconds) {
                bounds.add(cut.time());
            }
        }
        bounds.add(durationSeconds);
        List<Scene> scenes = new ArrayList<>();
        for (int i = 0; i + 1 < bounds.size(); i++) {
            double start = bounds.get(i);
            double end = bounds.get(i + 1);
            int from = (int) Math.ceil(start / hopSeconds - 0.5 - 1e-9); // first hop whose middle is inside
            int to = (int) Math.ceil(end / hopSeconds - 0.5 - 1e-9); // first hop whose middle is past the end
            from = Math.max(0, Math.min(from, curves.hops() - 1));
            to = Math.max(from + 1, Math.min(to, curves.hops()));
            scenes.add(new Scene(
                    i,
                    round(start),
                    round(end),
                    round(mean(curves.motion(), from, to)),
                    round(mean(curves.brightness(), from, to)),
                    round(mean(curves.colorfulness(), from, to)),
                    round(mean(curves.warmth(), from, to)),
                    round(mean(curves.camera(), from, to)),
                    round(mean(curves.subject(), from, to)),
                    round(mean(curves.flicker(), from, to))));
        }
        return List.copyOf(scenes);
    }

    /** The per-hop curves scenes are measured on. */
    record Curves(
            double[] motion,
            double[] brightness,
            double[] colorfulness,
            double[] warmth,
            double[] camera,
            double[] subject,
            double[] flicker) {

        /** Curves without motion told apart: camera and flicker still, the subject the whole motion. */
        Curves(double[] motion, double[] brightness, double[] colorfulness, double[] warmth) {
            this(
                    motion,
                    brightness,
                    colorfulness,
                    warmth,
                    new double[motion.length],
                    motion,
                    new double[motion.length]);
        }

        int hops() {
            return motion.length;
        }
    }

    private static double mean(double[] values, int from, int to) {
        double sum = 0;
        for (int k = from; k < to; k++) {
            sum += values[k];
        }
        return sum / (to - from);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
