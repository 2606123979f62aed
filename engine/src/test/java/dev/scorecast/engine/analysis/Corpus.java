package dev.scorecast.engine.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ground-truth clips: small videos made with ffmpeg's own generators and filters, each with
 * the transitions it holds (hard cuts by frame, gradual transitions by time) and, for flashes and
 * pans, the windows in which nothing may be reported. 320 x 180 at 30 fps unless a clip says
 * otherwise, a few seconds each.
 */
final class Corpus {
    static final double FPS = 30;

    /** What a clip tests; the accuracy table has one row per category. */
    enum Category {
        CUT("hard cuts, different shots"),
        SIMILAR("hard cuts, similar-looking shots"),
        VFR("hard cuts, variable frame rate"),
        FADE("fades to/from black or white"),
        DISSOLVE("dissolves"),
        FLASH("camera flashes (no cut)"),
        PAN("fast pans and zooms (no cut)"),
        MIXED("mixed edit");

        final String label;

        Category(String label) {
            this.label = label;
        }
    }

    /**
     * One expected transition. Hard cuts carry the frame of the new shot's first picture (or, in a
     * variable-rate clip, the time from which it is looked up); gradual ones the span in seconds.
     */
    record Truth(CutKind kind, long frame, double timeSeconds, double startSeconds, double endSeconds) {}

    /** A clip: how to make it and what it holds. {@code quiet} are [from, to] windows where nothing may be found. */
    record Clip(
            String name,
            Category category,
            String description,
            List<String> ffmpegArgs,
            boolean variableRate,
            List<Truth> truth,
            List<double[]> quiet) {

        Path file(Path dir) {
            return dir.resolve(name + (variableRate ? ".mkv" : ".mp4"));
        }
    }

    // Generators, all 320 x 180 at 30 fps.
    private static final String TESTSRC = "testsrc2=s=320x180:r=30";
    private static final String MANDEL = "mandelbrot=s=320x180:r=30:maxiter=256";
    private static final String BARS = "smptebars=s=320x180:r=30";
    private static final String HD_BARS = "smptehdbars=s=320x180:r=30";
    private static final String PAL_BARS = "pal75bars=s=320x180:r=30";
    private static final String SIERPINSKI = "sierpinski=s=320x180:r=30:seed=2";
    private static final String CELLAUTO = "cellauto=s=320x180:r=30:rule=110:seed=7:random_fill_ratio=0.5";

    private Corpus() {}

    private static String life(int seed) {
        return "life=s=320x180:r=30:seed=" + seed
                + ":ratio=0.25:mold=8:life_color=#f0d080:death_color=#102030:mold_color=#406080";
    }

    /**
     * Smooth colour gradients drifting slowly, from a formula: FFmpeg's own {@code gradients}
     * generator ignores its seed and draws different pictures on every run.
     */
    private static String gradients(int seed) {
        double p = seed * 1.7;
        return String.format(
                Locale.ROOT,
                "nullsrc=s=320x180:r=30,geq=r='128+90*sin(X/97+T*0.6+%.2f)'"
                        + ":g='128+90*sin(Y/61-T*0.4+%.2f)':b='128+90*sin((X+Y)/131+T*0.5+%.2f)'",
                p,
                2 * p,
                3 * p);
    }

    private static String color(String rgb) {
        return "color=c=" + rgb + ":s=320x180:r=30";
    }

    static List<Clip> all() {
        List<Clip> clips = new ArrayList<>();
        // Hard cuts between different shots.
        clips.add(clip("cut-testsrc-mandel-bars", Category.CUT, "testsrc2 | mandelbrot | smptebars, 2 s each")
                .input(2, TESTSRC)
                .input(2, MANDEL)
                .input(2, BARS)
                .cuts(60, 120)
                .build());
        clips.add(clip("cut-life-gradients-testsrc", Category.CUT, "life | gradients | testsrc2, 2 s each")
                .input(2, life(1))
                .input(2, gradients(1))
                .input(2, TESTSRC)
                .cuts(60, 120)
                .build());
        clips.add(clip("cut-bars-sierpinski-cellauto", Category.CUT, "smptebars | sierpinski | cellauto")
                .input(1.5, BARS)
                .input(1.5, SIERPINSKI)
                .input(2, CELLAUTO)
                .cuts(45, 90)
                .build());
        clips.add(clip("cut-rapid", Category.CUT, "six generators, 1 s each")
                .input(1, TESTSRC)
                .input(1, MANDEL)
                .input(1, life(2))
                .input(1, HD_BARS)
                .input(1, gradients(2))
                .input(1, SIERPINSKI)
                .cuts(30, 60, 90, 120, 150)
                .build());
        clips.add(clip("cut-flat-colors", Category.CUT, "flat red | navy | olive")
                .input(1.5, color("0xc02020"))
                .input(1.5, color("0x202060"))
                .input(1.5, color("0x808020"))
                .cuts(45, 90)
                .build());
        clips.add(clip("cut-during-pan", Category.CUT, "a fast pan over testsrc2 cut to mandelbrot")
                .input(2, "testsrc2=s=1280x720:r=30,crop=320:180:x='t*350':y=270")
                .input(2, MANDEL)
                .cuts(60)
                .build());

        // Hard cuts between shots that look alike.
        clips.add(clip("similar-testsrc-hue", Category.SIMILAR, "testsrc2 | the same with hue turned 60 degrees")
                .input(2, TESTSRC)
                .input(2, TESTSRC + ",hue=h=60")
                .cuts(60)
                .build());
        clips.add(clip("similar-life-seeds", Category.SIMILAR, "life with seeds 1 | 2 | 3")
                .input(2, life(1))
                .input(2, life(2))
                .input(2, life(3))
                .cuts(60, 120)
                .build());
        clips.add(clip("similar-gradient-seeds", Category.SIMILAR, "gradients with seeds 1 | 3")
                .input(2, gradients(1))
                .input(2, gradients(3))
                .cuts(60)
                .build());
        clips.add(clip("similar-bars", Category.SIMILAR, "smptebars | smptehdbars | pal75bars")
                .input(2, BARS)
                .input(2, HD_BARS)
                .input(2, PAL_BARS)
                .cuts(60, 120)
                .build());
        clips.add(clip("similar-grays", Category.SIMILAR, "flat greys 0x505050 | 0x686868 | bluish 0x585068")
                .input(1.5, color("0x505050"))
                .input(1.5, color("0x686868"))
                .input(1.5, color("0x585068"))
                .cuts(45, 90)
                .build());
        clips.add(clip("similar-mandel-views", Category.SIMILAR, "mandelbrot | mandelbrot zooming on another point")
                .input(2, MANDEL)
                .input(2, MANDEL + ":start_x=-0.7453:start_y=0.1127:start_scale=2")
                .cuts(60)
                .build());
        clips.add(clip("similar-testsrc-mirror", Category.SIMILAR, "testsrc2 | testsrc2 mirrored")
                .input(2, TESTSRC)
                .input(2, TESTSRC + ",hflip")
                .cuts(60)
                .build());

        // Hard cuts in variable-frame-rate files (Matroska, timestamps passed through).
        clips.add(clip("vfr-mixed-rates", Category.VFR, "testsrc2 at 30 fps | mandelbrot at 15 fps | life at 24 fps")
                .input(2, TESTSRC)
                .input(2, "mandelbrot=s=320x180:r=15:maxiter=256")
                .input(2, "life=s=320x180:r=24:seed=4:ratio=0.25")
                .filter("[0:v][1:v][2:v]concat=n=3:v=1:a=0,settb=1/1000,format=yuv420p[v]")
                .variableRate()
                .cutsAt(2.0, 4.0)
                .build());
        clips.add(clip(
                        "vfr-dropped-frames",
                        Category.VFR,
                        "testsrc2 | mandelbrot | smptebars with every 4th frame dropped")
                .input(2, TESTSRC)
                .input(2, MANDEL)
                .input(2, BARS)
                .filter("[0:v][1:v][2:v]concat=n=3:v=1:a=0,select='not(eq(mod(n,4),1))',format=yuv420p[v]")
                .variableRate()
                .cutsAt(2.0, 4.0)
                .build());
        clips.add(clip("vfr-irregular-drops", Category.VFR, "life | testsrc2, every 3rd then every 7th frame dropped")
                .input(3, life(5))
                .input(3, TESTSRC)
                .filter(
                        "[0:v][1:v]concat=n=2:v=1:a=0,select='if(lt(n,90),not(eq(mod(n,3),1)),not(eq(mod(n,7),5)))',format=yuv420p[v]")
                .variableRate()
                .cutsAt(3.0)
                .build());

        // Fades.
        clips.add(clip(
                        "fade-black-between",
                        Category.FADE,
                        "testsrc2 fades to black over 1 s, 0.5 s black, mandelbrot fades in")
                .input(2.5, TESTSRC + ",fade=t=out:st=1:d=1")
                .input(2.5, MANDEL + ",fade=t=in:st=0:d=1")
                .fadeOut(1.0, 2.0)
                .fadeIn(2.5 + 1 / FPS, 3.5)
                .build());
        clips.add(clip("fade-white-between", Category.FADE, "smptebars fades to white, testsrc2 fades in from white")
                .input(2.5, BARS + ",fade=t=out:st=1:d=1:c=white")
                .input(2.5, TESTSRC + ",fade=t=in:st=0:d=1:c=white")
                .fadeOut(1.0, 2.0)
                .fadeIn(2.5 + 1 / FPS, 3.5)
                .build());
        clips.add(clip("fade-in-at-start", Category.FADE, "testsrc2 fades in from black over 1.5 s, then a cut")
                .input(3, TESTSRC + ",fade=t=in:st=0:d=1.5")
                .input(2, MANDEL)
                .fadeIn(1 / FPS, 1.5)
                .cuts(90)
                .build());
        clips.add(clip("fade-out-at-end", Category.FADE, "mandelbrot, cut to life that fades to black at the end")
                .input(2, MANDEL)
                .input(3, life(6) + ",fade=t=out:st=1:d=1.5")
                .cuts(60)
                .fadeOut(3.0, 4.5)
                .build());
        clips.add(clip("fade-short-dip", Category.FADE, "0.5 s fade out, 0.2 s black, 0.5 s fade in")
                .input(2.2, TESTSRC + ",fade=t=out:st=1.5:d=0.5")
                .input(2, life(7) + ",fade=t=in:st=0:d=0.5")
                .fadeOut(1.5, 2.0)
                .fadeIn(2.2 + 1 / FPS, 2.7)
                .build());
        clips.add(clip("fade-slow", Category.FADE, "gradients fade out over 3 s, testsrc2 fades in over 0.5 s")
                .input(4, gradients(4) + ",fade=t=out:st=0.5:d=3")
                .input(2, TESTSRC + ",fade=t=in:st=0:d=0.5")
                .fadeOut(0.5, 3.5)
                .fadeIn(4 + 1 / FPS, 4.5)
                .build());

        // Dissolves (xfade "fade" is a cross-dissolve; "dissolve" swaps random pixels).
        clips.add(clip("dissolve-1s", Category.DISSOLVE, "testsrc2 to mandelbrot, 1 s")
                .input(3, TESTSRC)
                .input(3, MANDEL)
                .filter("[0:v][1:v]xfade=transition=fade:duration=1:offset=2,format=yuv420p[v]")
                .dissolve(2, 3)
                .build());
        clips.add(clip("dissolve-pixels", Category.DISSOLVE, "smptebars to life, random-pixel dissolve, 1 s")
                .input(2.5, BARS)
                .input(3, life(8))
                .filter("[0:v][1:v]xfade=transition=dissolve:duration=1:offset=1.5,format=yuv420p[v]")
                .dissolve(1.5, 2.5)
                .build());
        clips.add(clip("dissolve-short", Category.DISSOLVE, "gradients to testsrc2, 0.5 s")
                .input(3, gradients(5))
                .input(3, TESTSRC)
                .filter("[0:v][1:v]xfade=transition=fade:duration=0.5:offset=2,format=yuv420p[v]")
                .dissolve(2, 2.5)
                .build());
        clips.add(clip("dissolve-long", Category.DISSOLVE, "mandelbrot to sierpinski, 2 s")
                .input(3.5, MANDEL)
                .input(3, SIERPINSKI)
                .filter("[0:v][1:v]xfade=transition=fade:duration=2:offset=1.5,format=yuv420p[v]")
                .dissolve(1.5, 3.5)
                .build());
        clips.add(clip("dissolve-testsrc-bars", Category.DISSOLVE, "testsrc2 to smptehdbars, 1.5 s")
                .input(3, TESTSRC)
                .input(3, HD_BARS)
                .filter("[0:v][1:v]xfade=transition=fade:duration=1.5:offset=1.5,format=yuv420p[v]")
                .dissolve(1.5, 3)
                .build());

        // Flashes: brief brightening that returns to the same shot.
        clips.add(clip(
                        "flash-single-frames",
                        Category.FLASH,
                        "testsrc2 brightened on frames 30 and 75, white on frame 100")
                .input(
                        4,
                        TESTSRC + ",eq=brightness=0.6:enable='eq(n,30)+eq(n,75)'"
                                + ",drawbox=x=0:y=0:w=iw:h=ih:c=white:t=fill:enable='eq(n,100)'")
                .quiet(0, 4)
                .build());
        clips.add(clip("flash-two-frames", Category.FLASH, "mandelbrot brightened on frames 40-41 and 90-91")
                .input(
                        4,
                        MANDEL
                                + ",eq=brightness=0.5:enable='between(n,40,41)',eq=brightness=0.7:enable='between(n,90,91)'")
                .quiet(0, 4)
                .build());
        clips.add(clip("flash-decaying", Category.FLASH, "life with flashes decaying over 3 and 4 frames")
                .input(
                        4,
                        life(9) + ",eq=brightness=0.8:enable='eq(n,30)',eq=brightness=0.5:enable='eq(n,31)'"
                                + ",eq=brightness=0.25:enable='eq(n,32)',eq=brightness=1:enable='eq(n,80)',eq=brightness=0.7:enable='eq(n,81)'"
                                + ",eq=brightness=0.4:enable='eq(n,82)',eq=brightness=0.15:enable='eq(n,83)'")
                .quiet(0, 4)
                .build());
        clips.add(clip(
                        "flash-then-cut",
                        Category.FLASH,
                        "testsrc2 with a flash at frame 30, cut to mandelbrot with a flash at frame 95")
                .input(2.5, TESTSRC + ",eq=brightness=0.6:enable='eq(n,30)'")
                .input(2, MANDEL + ",eq=brightness=0.6:enable='eq(n,20)'")
                .cuts(75)
                .quiet(0.8, 1.3)
                .quiet(3.0, 3.5)
                .build());
        clips.add(clip("flash-strobe", Category.FLASH, "gradients with a flash every half second")
                .input(4, gradients(6) + ",eq=brightness=0.6:enable='gte(n,20)*lte(n,95)*eq(mod(n-20,15),0)'")
                .quiet(0, 4)
                .build());

        // Camera moves: fast pans, a whip pan, a scroll, a fast zoom.
        clips.add(clip("pan-horizontal", Category.PAN, "pan over a 1280x720 testsrc2 at 300 px/s")
                .input(3, "testsrc2=s=1280x720:r=30,crop=320:180:x='t*300':y=270")
                .quiet(0, 3)
                .build());
        clips.add(clip(
                        "pan-fast-mandel",
                        Category.PAN,
                        "pan over a wide mandelbrot at 600 px/s (a fifth of the width a frame)")
                .input(2.5, "mandelbrot=s=1920x360:r=30:maxiter=256,crop=320:180:x='t*600':y=90")
                .quiet(0, 2.5)
                .build());
        clips.add(clip("pan-whip", Category.PAN, "accelerating pan up to 1400 px/s")
                .input(2.3, "mandelbrot=s=1920x360:r=30:maxiter=256,crop=320:180:x='300*t*t':y=90")
                .quiet(0, 2.3)
                .build());
        clips.add(clip("pan-scroll-diagonal", Category.PAN, "testsrc2 scrolled diagonally, 13 and 4 px a frame")
                .input(3, TESTSRC + ",scroll=h=0.04:v=0.02")
                .quiet(0, 3)
                .build());
        clips.add(clip("pan-tilt-life", Category.PAN, "tilt over a tall life field at 160 px/s")
                .input(
                        3,
                        "life=s=320x720:r=30:seed=10:ratio=0.3:mold=8:life_color=#f0d080:death_color=#102030,crop=320:180:x=0:y='t*160'")
                .quiet(0, 3)
                .build());
        clips.add(clip("pan-zoom", Category.PAN, "fast zoom into testsrc2")
                .input(3, "testsrc2=s=640x360:r=30,zoompan=z='min(zoom+0.03,3)':d=1:s=320x180:fps=30")
                .quiet(0, 3)
                .build());

        // A small edit: cut, flash, dissolve, fade out.
        clips.add(clip(
                        "mixed-edit",
                        Category.MIXED,
                        "testsrc2 | smptebars with a flash, dissolve to mandelbrot, fade to black")
                .input(2, TESTSRC)
                .input(2.5, BARS + ",eq=brightness=0.6:enable='eq(n,30)'")
                .input(4, MANDEL)
                .filter(
                        "[0:v][1:v]concat=n=2:v=1:a=0,settb=1/30[ab];[ab][2:v]xfade=transition=fade:duration=1:offset=3.5,"
                                + "fade=t=out:st=5.5:d=1,format=yuv420p[v]")
                .cuts(60)
                .dissolve(3.5, 4.5)
                .fadeOut(5.5, 6.5)
                .quiet(2.9, 3.2)
                .build());
        return List.copyOf(clips);
    }

    private static Builder clip(String name, Category category, String description) {
        return new Builder(name, category, description);
    }

    /** Collects one clip's inputs, filter graph and truth. */
    static final class Builder {
        private final String name;
        private final Category category;
        private final String description;
        private final List<String> inputs = new ArrayList<>();
        private final List<Truth> truth = new ArrayList<>();
        private final List<double[]> quiet = new ArrayList<>();
        private int inputCount;
        private String filter;
        private boolean variableRate;

        Builder(String name, Category category, String description) {
            this.name = name;
            this.category = category;
            this.description = description;
        }

        Builder input(double seconds, String graph) {
            inputs.addAll(List.of("-f", "lavfi", "-t", number(seconds), "-i", graph));
            inputCount++;
            return this;
        }

        /** A filter graph ending in the label {@code [v]}; without one the inputs are concatenated. */
        Builder filter(String graph) {
            this.filter = graph;
            return this;
        }

        Builder variableRate() {
            this.variableRate = true;
            return this;
        }

        Builder cuts(long... frames) {
            for (long frame : frames) {
                truth.add(new Truth(CutKind.CUT, frame, frame / FPS, frame / FPS, frame / FPS));
            }
            return this;
        }

        /** Hard cuts in a variable-rate clip: the frame is the first one at or after the time (looked up later). */
        Builder cutsAt(double... seconds) {
            for (double s : seconds) {
                truth.add(new Truth(CutKind.CUT, -1, s, s, s));
            }
            return this;
        }

        /** A fade out reported at the first black frame, {@code blackSeconds}, starting at {@code startSeconds}. */
        Builder fadeOut(double startSeconds, double blackSeconds) {
            truth.add(new Truth(CutKind.FADE_OUT, -1, blackSeconds, startSeconds, blackSeconds));
            return this;
        }

        /** A fade in reported at the first picture after black, {@code firstSeconds}, complete at {@code endSeconds}. */
        Builder fadeIn(double firstSeconds, double endSeconds) {
            truth.add(new Truth(CutKind.FADE_IN, -1, firstSeconds, firstSeconds, endSeconds));
            return this;
        }

        Builder dissolve(double startSeconds, double endSeconds) {
            truth.add(new Truth(CutKind.DISSOLVE, -1, (startSeconds + endSeconds) / 2, startSeconds, endSeconds));
            return this;
        }

        Builder quiet(double fromSeconds, double toSeconds) {
            quiet.add(new double[] {fromSeconds, toSeconds});
            return this;
        }

        Clip build() {
            List<String> args = new ArrayList<>(inputs);
            String graph = filter;
            if (graph == null) {
                StringBuilder labels = new StringBuilder();
                for (int i = 0; i < inputCount; i++) {
                    labels.append('[').append(i).append(":v]");
                }
                graph = labels + "concat=n=" + inputCount + ":v=1:a=0,format=yuv420p[v]";
            }
            args.addAll(List.of(
                    "-filter_complex", graph, "-map", "[v]", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18"));
            if (variableRate) {
                args.addAll(List.of("-fps_mode", "vfr"));
            }
            return new Clip(
                    name,
                    category,
                    description,
                    List.copyOf(args),
                    variableRate,
                    List.copyOf(truth),
                    List.copyOf(quiet));
        }

        private static String number(double value) {
            return String.format(Locale.ROOT, "%.3f", value);
        }
    }
}
