package dev.scorecast.engine.analysis;

/** Brightness, colourfulness and warmth per hop of time, from which scenes take their means. */
final class LookDetector implements FrameDetector {
    private final HopSeries brightness;
    private final HopSeries colorfulness;
    private final HopSeries warmth;

    LookDetector(double hopSeconds) {
        brightness = new HopSeries(hopSeconds);
        colorfulness = new HopSeries(hopSeconds);
        warmth = new HopSeries(hopSeconds);
    }

    @Override
    public void accept(Frame frame) {
        brightness.add(frame.timeSeconds(), frame.meanLuma());
        colorfulness.add(frame.timeSeconds(), frame.colorfulness());
        warmth.add(frame.timeSeconds(), frame.warmth());
    }

    double[] brightness(int hops) {
        return brightness.means(hops);
    }

    double[] colorfulness(int hops) {
        return colorfulness.means(hops);
    }

    double[] warmth(int hops) {
        return warmth.means(hops);
    }
}
