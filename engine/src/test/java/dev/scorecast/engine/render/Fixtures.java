package dev.scorecast.engine.render;

import dev.scorecast.engine.Commands;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.music.Note;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Hand-built scores (no composer needed) and the ffmpeg CLI as an independent judge. */
final class Fixtures {

    static final Path TIM = Path.of("/usr/share/sounds/sf2/TimGM6mb.sf2");
    static final int KICK = 36;
    static final int SNARE = 38;
    static final int HAT = 42;

    private Fixtures() {}

    /**
     * {@code seconds} of 4/4 at 120 bpm (a beat every 0.5 s): drums, bass, chords, melody and a pad.
     * The drums leave the half second before t = 2 s empty, so the kick at exactly 2.000 s has a
     * clean onset. {@code parts} 4 or 5.
     */
    static Score score(double seconds, int parts) {
        List<Note> drums = new ArrayList<>();
        List<Note> bass = new ArrayList<>();
        List<Note> chords = new ArrayList<>();
        List<Note> melody = new ArrayList<>();
        List<Note> pad = new ArrayList<>();
        int[][] progression = {{57, 60, 64}, {53, 57, 60}, {48, 52, 55}, {55, 59, 62}}; // Am F C G
        int[] roots = {45, 41, 36, 43};
        int[] tune = {69, 72, 76, 74, 72, 71, 69, 67};
        for (int beat = 0; beat * 0.5 < seconds; beat++) {
            double t = beat * 0.5;
            boolean gap = t >= 1.5 && t < 2.0;
            if (!gap) {
                drums.add(new Note(t, 0.2, beat % 2 == 0 ? KICK : SNARE, beat % 4 == 0 ? 120 : 100));
                if (t + 0.25 < seconds && !(t + 0.25 >= 1.5 && t + 0.25 < 2.0)) {
                    drums.add(new Note(t + 0.25, 0.1, HAT, 70));
                }
            }
            int bar = beat / 4;
            bass.add(new Note(t, 0.45, roots[bar % 4], 100));
            if (beat % 4 == 0) {
                for (int p : progression[bar % 4]) {
                    chords.add(new Note(t, 1.9, p, 80));
                    pad.add(new Note(t, 2.0, p + 12, 60));
                }
            }
            if (beat % 2 == 1) {
                melody.add(new Note(t, 0.9, tune[(beat / 2) % tune.length], 95));
            }
        }
        List<Part> list = new ArrayList<>();
        list.add(new Part(InstrumentGroup.BEATS, 0, true, 0, 0, drums, List.of()));
        list.add(new Part(InstrumentGroup.BASS, 33, false, 0, 0, bass, List.of()));
        list.add(new Part(InstrumentGroup.HARMONY, 0, false, -3, -0.3, chords, List.of()));
        list.add(new Part(
                InstrumentGroup.MELODY, 73, false, -2, 0.3, melody, List.of(new Part.ProgramChange(seconds / 2, 56))));
        if (parts >= 5) {
            list.add(new Part(InstrumentGroup.PADS, 48, false, -8, 0, pad, List.of()));
        }
        return new Score(
                seconds,
                List.of(new Score.TempoChange(0, 120, "4/4")),
                list,
                List.of(new Score.Accent(2.0, "impact", 1)));
    }

    /** The ebur128 filter's summary: integrated loudness and true peak as FFmpeg measures them. */
    record Ebur128(double integratedLufs, double truePeakDbtp) {}

    static Ebur128 ebur128(Path audio) {
        String log = run(List.of(
                "ffmpeg",
                "-nostdin",
                "-hide_banner",
                "-nostats",
                "-i",
                audio.toString(),
                "-af",
                "ebur128=peak=true",
                "-f",
                "null",
                "-"));
        int summary = log.lastIndexOf("Summary:");
        String tail = summary < 0 ? log : log.substring(summary);
        return new Ebur128(number(tail, "I:\\s+(-?[0-9.]+|-inf) LUFS"), number(tail, "Peak:\\s+(-?[0-9.]+|-inf) dBFS"));
    }

    static String ffprobe(Path file, String... args) {
        List<String> cmd = new ArrayList<>(List.of("ffprobe", "-v", "error"));
        cmd.addAll(List.of(args));
        cmd.add(file.toString());
        return run(cmd).trim();
    }

    static String ffmpeg(String... args) {
        List<String> cmd = new ArrayList<>(List.of("ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static double number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + regex + " in:\n" + text);
        }
        return m.group(1).equals("-inf") ? Double.NEGATIVE_INFINITY : Double.parseDouble(m.group(1));
    }

    static String run(List<String> cmd) {
        return Commands.run(cmd, 300);
    }
}
