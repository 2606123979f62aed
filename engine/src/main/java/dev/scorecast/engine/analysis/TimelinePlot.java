package dev.scorecast.engine.analysis;

import dev.scorecast.engine.core.Span;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * Draws an analysis on a time axis: speech spans as bands, the energy curve, hard cuts as lines,
 * fades and dissolves as shaded spans. For people checking what the detectors saw.
 */
public final class TimelinePlot {
    private static final int WIDTH = 1600;
    private static final int HEIGHT = 360;
    private static final int MARGIN_LEFT = 50;
    private static final int MARGIN_RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 300;

    private TimelinePlot() {}

    public static void write(Analysis analysis, Path png) {
        var image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            double duration = Math.max(analysis.video().duration(), 1e-3);
            drawSpeech(g, analysis, duration);
            drawTransitions(g, analysis, duration);
            drawEnergy(g, analysis, duration);
            drawAxis(g, analysis, duration);
        } finally {
            g.dispose();
        }
        try {
            ImageIO.write(image, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    private static int x(double seconds, double duration) {
        return MARGIN_LEFT + (int) Math.round(seconds / duration * (WIDTH - MARGIN_LEFT - MARGIN_RIGHT));
    }

    private static int y(double value) {
        return BOTTOM - (int) Math.round(value * (BOTTOM - TOP));
    }

    private static void drawSpeech(Graphics2D g, Analysis analysis, double duration) {
        g.setColor(new Color(255, 225, 150));
        for (Span span : analysis.audio().speech()) {
            g.fillRect(
                    x(span.start(), duration),
                    BOTTOM + 8,
                    Math.max(1, x(span.end(), duration) - x(span.start(), duration)),
                    14);
        }
    }

    private static void drawTransitions(Graphics2D g, Analysis analysis, double duration) {
        for (Cut cut : analysis.cuts()) {
            switch (cut.kind()) {
                case CUT -> {
                    g.setColor(new Color(200, 30, 30));
                    g.setStroke(new BasicStroke(1 + (float) (2 * cut.strength())));
                    g.drawLine(x(cut.time(), duration), TOP, x(cut.time(), duration), BOTTOM);
                }
                case FADE_IN, FADE_OUT, DISSOLVE -> {
                    g.setColor(
                            switch (cut.kind()) {
                                case FADE_IN -> new Color(150, 150, 150, 90);
                                case FADE_OUT -> new Color(40, 40, 40, 90);
                                case DISSOLVE, CUT -> new Color(120, 60, 200, 90);
                            });
                    int from = x(cut.start(), duration);
                    g.fillRect(from, TOP, Math.max(2, x(cut.end(), duration) - from), BOTTOM - TOP);
                }
            }
        }
    }

    private static void drawEnergy(Graphics2D g, Analysis analysis, double duration) {
        double[] values = analysis.energy().values();
        if (values.length == 0) {
            return;
        }
        var curve = new Path2D.Double();
        for (int i = 0; i < values.length; i++) {
            double px = x(i * analysis.energy().hop(), duration);
            if (i == 0) {
                curve.moveTo(px, y(values[i]));
            } else {
                curve.lineTo(px, y(values[i]));
            }
        }
        g.setColor(new Color(20, 90, 200));
        g.setStroke(new BasicStroke(2f));
        g.draw(curve);
    }

    private static void drawAxis(Graphics2D g, Analysis analysis, double duration) {
        g.setColor(Color.DARK_GRAY);
        g.setStroke(new BasicStroke(1f));
        g.drawLine(MARGIN_LEFT, BOTTOM, WIDTH - MARGIN_RIGHT, BOTTOM);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        double step = niceStep(duration);
        for (double t = 0; t <= duration + 1e-9; t += step) {
            int px = x(t, duration);
            g.drawLine(px, BOTTOM, px, BOTTOM + 4);
            g.drawString(String.format("%.0fs", t), px - 8, BOTTOM + 40);
        }
        g.drawString("energy", 5, y(1) + 4);
        g.drawString(
                String.format(
                        "%.1f s  %d transitions  mood v%.2f a%.2f  suggests %s at %.0f bpm   (red: cut, shaded: fade/dissolve, yellow: speech)",
                        duration,
                        analysis.cuts().size(),
                        analysis.mood().valence(),
                        analysis.mood().arousal(),
                        analysis.suggestions().genre(),
                        analysis.suggestions().tempo()),
                MARGIN_LEFT,
                18);
    }

    private static double niceStep(double duration) {
        for (double step : new double[] {1, 2, 5, 10, 15, 30, 60, 120, 300, 600}) {
            if (duration / step <= 20) {
                return step;
            }
        }
        return 1200;
    }
}
