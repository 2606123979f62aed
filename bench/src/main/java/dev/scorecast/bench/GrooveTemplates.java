package dev.scorecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sound.midi.InvalidMidiDataException;
import javax.sound.midi.MetaMessage;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;

/**
 * Derives the composer's groove templates ({@code engine/src/main/resources/styles/grooves/<genre>.json})
 * from performances of the Groove MIDI Dataset (Magenta, CC BY 4.0): human drummers playing to a
 * click, so every hit's distance from its sixteenth is the drummer's micro-timing. For each genre a
 * few beat performances near its tempo are read; per drum voice and sixteenth the template keeps
 * the mean and spread of timing (in fractions of a sixteenth, so it carries over to other tempi) and
 * velocity over every bar, and eight consecutive bars as played, which the composer replays.
 *
 * <p>Run once, by hand, with only the JDK (the dataset is not a build input):
 * {@code java bench/src/main/java/dev/scorecast/bench/GrooveTemplates.java <groove dir> engine/src/main/resources/styles/grooves}
 * where {@code <groove dir>} holds {@code info.csv} and the {@code drummerN/} folders of
 * groove-v1.0.0-midionly (or the copy {@link #DATASET_COPY} names:
 * {@code git archive bf5ea0a3 groove | tar x}). The fills come from {@link GrooveFills}.
 */
public final class GrooveTemplates {
    /**
     * Where the dataset's MIDI was read from when the fills were taken (the same files as
     * groove-v1.0.0-midionly: this copy regenerates every beat template byte for byte).
     */
    static final String DATASET_COPY =
            "https://github.com/zharry29/drums-with-llm, commit bf5ea0a3344d6c3cc5c4651930ae12ab2d7d1a1b, folder groove/";

    /** Which performances stand for each genre: beats in 4/4 of the matching style, near the genre's tempo. */
    private static final Map<String, List<String>> SOURCES = new LinkedHashMap<>();

    static {
        // Not drummer1's rock takes: their kick sits at the pad's ceiling (127) on most downbeats, no dynamics to
        // learn.
        SOURCES.put(
                "rock",
                List.of(
                        "drummer2/session2/1_rock_130_beat_4-4.mid",
                        "drummer9/session1/20_rock_120_beat_4-4.mid",
                        "drummer1/session2/181_rock_115_beat_4-4.mid"));
        SOURCES.put(
                "pop",
                List.of("drummer2/session1/1_rock_110_beat_4-4.mid", "drummer8/session2/37_rock_112_beat_4-4.mid"));
        SOURCES.put(
                "corporate",
                List.of(
                        "drummer8/session2/39_rock-indie_104_beat_4-4.mid",
                        "drummer2/session1/1_rock_110_beat_4-4.mid"));
        SOURCES.put(
                "acoustic",
                List.of(
                        "drummer1/session3/10_rock-folk_90_beat_4-4.mid",
                        "drummer5/session2/11_soul_96_beat_4-4.mid",
                        "drummer7/session3/11_pop-soft_83_beat_4-4.mid"));
        SOURCES.put(
                "hip-hop",
                List.of(
                        "drummer8/session1/15_hiphop_94_beat_4-4.mid",
                        "drummer8/session1/14_hiphop_94_beat_4-4.mid",
                        "drummer8/session1/5_hiphop_90_beat_4-4.mid"));
        SOURCES.put(
                "lofi",
                List.of(
                        "drummer8/session2/9_hiphop_86_beat_4-4.mid",
                        "drummer7/session2/87_hiphop_75_beat_4-4.mid",
                        "drummer8/session2/10_hiphop_86_beat_4-4.mid"));
        SOURCES.put(
                "house",
                List.of(
                        "drummer1/session3/6_dance-disco_120_beat_4-4.mid",
                        "drummer1/session1/101_dance-disco_120_beat_4-4.mid"));
        SOURCES.put(
                "deep",
                List.of(
                        "drummer1/session1/101_dance-disco_120_beat_4-4.mid",
                        "drummer1/session3/6_dance-disco_120_beat_4-4.mid"));
        SOURCES.put(
                "techno",
                List.of(
                        "drummer8/session2/26_dance-disco_137_beat_4-4.mid",
                        "drummer8/session2/27_dance-disco_137_beat_4-4.mid"));
        SOURCES.put(
                "cinematic",
                List.of(
                        "drummer6/session2/3_rock_88_beat_4-4.mid",
                        "drummer1/session1/202_rock-halftime_140_beat_4-4.mid"));
        SOURCES.put(
                "orchestral",
                List.of("drummer6/session3/6_rock_88_beat_4-4.mid", "drummer6/session2/3_rock_88_beat_4-4.mid"));
        SOURCES.put(
                "ambient",
                List.of(
                        "drummer7/session3/11_pop-soft_83_beat_4-4.mid",
                        "drummer7/session3/39_rock-indie_63_beat_4-4.mid"));
    }

    static final String[] VOICES = {"kick", "snare", "hat", "ride", "tom"};
    static final int STEPS = 16;
    static final int BARS = 8;
    /** A snare this soft is a ghost note. */
    static final int GHOST_VELOCITY = 50;

    private GrooveTemplates() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: GrooveTemplates <groove-v1.0.0-midionly/groove> <out dir>");
            System.exit(2);
        }
        Path in = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Files.createDirectories(out);
        for (Map.Entry<String, List<String>> genre : SOURCES.entrySet()) {
            List<Bar[]> performances = new ArrayList<>();
            for (String file : genre.getValue()) {
                performances.add(read(in.resolve(file)));
            }
            String json =
                    template(genre.getKey(), genre.getValue(), performances, GrooveFills.forGenre(in, genre.getKey()));
            Files.writeString(out.resolve(genre.getKey() + ".json"), json);
            System.out.println("wrote " + out.resolve(genre.getKey() + ".json"));
        }
    }

    /** One bar of one performance: per voice and step the hit nearest that sixteenth, or null. */
    record Hit(double offset, int velocity) {}

    record Bar(Hit[][] hits) {}

    static int voice(int note) {
        return switch (note) {
            case 35, 36 -> 0;
            case 37, 38, 39, 40 -> 1;
            case 22, 26, 42, 44, 46 -> 2;
            case 51, 53, 59 -> 3;
            case 41, 43, 45, 47, 48, 50, 58 -> 4;
            default -> -1;
        };
    }

    static Bar[] read(Path file) throws IOException, InvalidMidiDataException {
        Sequence sequence = MidiSystem.getSequence(file.toFile());
        if (sequence.getDivisionType() != Sequence.PPQ) {
            throw new IllegalStateException(file + ": not PPQ");
        }
        int ppq = sequence.getResolution();
        double sixteenth = ppq / 4.0;
        long length = 0;
        List<long[]> notes = new ArrayList<>(); // tick, note, velocity
        for (Track track : sequence.getTracks()) {
            for (int i = 0; i < track.size(); i++) {
                MidiEvent e = track.get(i);
                length = Math.max(length, e.getTick());
                if (e.getMessage() instanceof ShortMessage m
                        && m.getCommand() == ShortMessage.NOTE_ON
                        && m.getData2() > 0) {
                    notes.add(new long[] {e.getTick(), m.getData1(), m.getData2()});
                } else if (e.getMessage() instanceof MetaMessage meta && meta.getType() == 0x51 && e.getTick() > 0) {
                    throw new IllegalStateException(file + ": tempo changes inside the performance");
                }
            }
        }
        int bars = (int) Math.ceil((length + sixteenth) / (sixteenth * STEPS));
        Bar[] out = new Bar[bars];
        for (int b = 0; b < bars; b++) {
            out[b] = new Bar(new Hit[VOICES.length][STEPS]);
        }
        for (long[] n : notes) {
            int v = voice((int) n[1]);
            if (v < 0) {
                continue;
            }
            long index = Math.round(n[0] / sixteenth);
            int bar = (int) (index / STEPS);
            int step = (int) (index % STEPS);
            if (bar >= bars) {
                continue;
            }
            double offset = (n[0] - index * sixteenth) / sixteenth;
            Hit old = out[bar].hits()[v][step];
            // Two hits of one voice on one sixteenth (a flam, open and closed hat): the louder one counts.
            if (old == null || n[2] > old.velocity()) {
                out[bar].hits()[v][step] = new Hit(offset, (int) n[2]);
            }
        }
        return out;
    }

    static String template(String genre, List<String> files, List<Bar[]> performances, List<GrooveFills.Fill> fills) {
        StringBuilder json = new StringBuilder();
        json.append("{\n");
        json.append("  \"genre\": \"").append(genre).append("\",\n");
        json.append("  \"source\": \"Groove MIDI Dataset v1.0.0 (Magenta: Gillick, Roberts, Engel, Eck, Bamman 2019), "
                + "https://magenta.tensorflow.org/datasets/groove\",\n");
        json.append("  \"license\": \"CC BY 4.0\",\n");
        json.append(
                "  \"derived_by\": \"bench/src/main/java/dev/scorecast/bench/GrooveTemplates.java: per voice and sixteenth, the timing "
                        + "(fraction of a sixteenth, + late) and velocity of the human hits; bars: eight consecutive bars as played\",\n");
        json.append("  \"performances\": [");
        for (int i = 0; i < files.size(); i++) {
            json.append(i == 0 ? "" : ", ").append('"').append(files.get(i)).append('"');
        }
        json.append("],\n");
        json.append("  \"voices\": {\n");
        for (int v = 0; v < VOICES.length; v++) {
            double[] offset = new double[STEPS];
            double[] offsetSd = new double[STEPS];
            double[] velocity = new double[STEPS];
            double[] velocitySd = new double[STEPS];
            double[] hitRate = new double[STEPS];
            double[] ghostRate = new double[STEPS];
            for (int s = 0; s < STEPS; s++) {
                List<Hit> hits = new ArrayList<>();
                int bars = 0;
                int ghosts = 0;
                for (Bar[] p : performances) {
                    for (Bar b : p) {
                        bars++;
                        Hit h = b.hits()[v][s];
                        if (h != null) {
                            hits.add(h);
                            ghosts += h.velocity() < GHOST_VELOCITY ? 1 : 0;
                        }
                    }
                }
                hitRate[s] = bars == 0 ? 0 : hits.size() / (double) bars;
                ghostRate[s] = bars == 0 ? 0 : ghosts / (double) bars;
                if (!hits.isEmpty()) {
                    offset[s] = hits.stream().mapToDouble(Hit::offset).average().orElse(0);
                    velocity[s] =
                            hits.stream().mapToDouble(Hit::velocity).average().orElse(0);
                    double o = offset[s];
                    double vm = velocity[s];
                    offsetSd[s] = Math.sqrt(hits.stream()
                            .mapToDouble(h -> (h.offset() - o) * (h.offset() - o))
                            .average()
                            .orElse(0));
                    velocitySd[s] = Math.sqrt(hits.stream()
                            .mapToDouble(h -> (h.velocity() - vm) * (h.velocity() - vm))
                            .average()
                            .orElse(0));
                }
            }
            json.append("    \"").append(VOICES[v]).append("\": {\n");
            json.append("      \"offset\": ").append(array(offset, 3)).append(",\n");
            json.append("      \"offset_sd\": ").append(array(offsetSd, 3)).append(",\n");
            json.append("      \"velocity\": ").append(array(velocity, 0)).append(",\n");
            json.append("      \"velocity_sd\": ").append(array(velocitySd, 0)).append(",\n");
            json.append("      \"hit_rate\": ").append(array(hitRate, 2)).append(",\n");
            json.append("      \"ghost_rate\": ").append(array(ghostRate, 2)).append("\n");
            json.append("    }").append(v == VOICES.length - 1 ? "\n" : ",\n");
        }
        json.append("  },\n");
        // The eight bars replayed: the window of the first performance where kick, snare and hats are busiest
        // and least often at the pad's ceiling.
        Bar[] first = performances.get(0);
        int bestStart = 0;
        int best = -1;
        for (int start = 1; start + BARS < first.length; start++) {
            int count = 0;
            for (int b = start; b < start + BARS; b++) {
                for (int v = 0; v < 3; v++) {
                    for (Hit h : first[b].hits()[v]) {
                        // A hit at 127 is the pad's ceiling, not the drummer's dynamics: it counts against a window.
                        count += h == null ? 0 : h.velocity() >= 127 ? -2 : 1;
                    }
                }
            }
            if (count > best) {
                best = count;
                bestStart = start;
            }
        }
        json.append("  \"bars_from\": \"")
                .append(files.get(0))
                .append(", bars ")
                .append(bestStart + 1)
                .append(" to ")
                .append(bestStart + BARS)
                .append("\",\n");
        json.append("  \"bars\": [\n");
        for (int b = bestStart; b < bestStart + BARS; b++) {
            json.append("    {");
            for (int v = 0; v < VOICES.length; v++) {
                json.append(v == 0 ? "" : ",\n     ")
                        .append('"')
                        .append(VOICES[v])
                        .append("\": [");
                Hit[] hits = first[b].hits()[v];
                for (int s = 0; s < STEPS; s++) {
                    Hit h = hits[s];
                    json.append(s == 0 ? "" : ", ")
                            .append(
                                    h == null
                                            ? "null"
                                            : String.format(Locale.ROOT, "[%.3f, %d]", h.offset(), h.velocity()));
                }
                json.append(']');
            }
            json.append('}').append(b == bestStart + BARS - 1 ? "\n" : ",\n");
        }
        if (fills.isEmpty()) {
            json.append("  ]\n}\n");
            return json.toString();
        }
        json.append("  ],\n");
        json.append(
                        "  \"fills_derived_by\": \"bench/src/main/java/dev/scorecast/bench/GrooveFills.java: one-bar fill performances of the "
                                + "dataset (styles ")
                .append(GrooveFills.CHOICES.get(genre).styles())
                .append(", ")
                .append(GrooveFills.CHOICES.get(genre).minBpm())
                .append("-")
                .append(GrooveFills.CHOICES.get(genre).maxBpm())
                .append(
                        " bpm), the bar before each one's landing (bar: which, from 1), sparsest first; every hit as played: its "
                                + "sixteenth (step 0-15), the drum (voice, and its General MIDI key), its lateness (offset, fraction of a "
                                + "sixteenth, + late) and velocity\",\n");
        json.append("  \"fills_midi\": \"").append(DATASET_COPY).append("\",\n");
        json.append(GrooveFills.json(fills));
        json.append("}\n");
        return json.toString();
    }

    private static String array(double[] values, int decimals) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%." + decimals + "f", values[i]));
        }
        return sb.append(']').toString();
    }
}
