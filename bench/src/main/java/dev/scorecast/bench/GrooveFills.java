package dev.scorecast.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import javax.sound.midi.InvalidMidiDataException;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;

/**
 * The drum fills of a groove template: one-bar fills human drummers played in the Groove MIDI
 * Dataset (its {@code _fill_4-4} performances), chosen per genre by style and tempo, every hit kept
 * with its sixteenth, its lateness (fraction of a sixteenth, as the beat statistics have it) and its
 * velocity, on the General MIDI drum key of the drum the drummer struck (the kit's rim, edge and
 * bell zones folded onto the head). {@link GrooveTemplates} writes them as the template's
 * {@code fills}; the composer plays one at phrase ends, chosen by the plan's seed among those that
 * suit the bar's level.
 */
final class GrooveFills {
    /** At most this many fills per genre, spread from the sparsest to the busiest candidate. */
    static final int PER_GENRE = 8;

    static final int STEPS = GrooveTemplates.STEPS;

    /** What drums a genre's fills may use: any (a kit's fills are toms and snare), toms required, or none (a drum machine rolls the snare). */
    enum Kit {
        ANY,
        TOMS,
        NO_TOMS
    }

    /** Which fills stand for a genre: the dataset's styles (a regular expression on info.csv's style) near its tempo. */
    record Choice(String styles, int minBpm, int maxBpm, Kit kit) {}

    /**
     * Genres whose idiom a drummer's fill belongs to. Orchestral and ambient are left out (timpani
     * rolls and shakers are not in the dataset); they keep their pattern's written fill.
     */
    static final Map<String, Choice> CHOICES = new TreeMap<>(Map.of(
            "rock", new Choice("rock|rock/indie", 105, 150, Kit.ANY),
            "pop", new Choice("pop|soul|soul/motown", 95, 150, Kit.ANY),
            "corporate", new Choice("soul|soul/motown|pop/soft", 80, 125, Kit.ANY),
            "acoustic", new Choice("country|pop/soft", 75, 115, Kit.ANY),
            "hip-hop", new Choice("hiphop", 75, 100, Kit.ANY),
            "lofi", new Choice("hiphop", 65, 80, Kit.ANY),
            "cinematic", new Choice("rock|rock/halftime", 60, 100, Kit.TOMS),
            "house", new Choice("funk|soul|pop|punk", 110, 150, Kit.NO_TOMS),
            "deep", new Choice("funk|soul|pop|punk", 110, 150, Kit.NO_TOMS),
            "techno", new Choice("funk|soul|pop|punk", 110, 150, Kit.NO_TOMS)));

    /** A fill with fewer hits is a gesture, not a fill. */
    static final int MIN_HITS = 5;
    /**
     * A performance this long is more than a fill and its run-up (a bar of beat, or a two-bar fill,
     * then the bar that lands): longer ones hold several fills. Of a longer one the bar before the
     * landing is taken (1.25 before, which took the first bar and left out every fill played after a
     * bar of beat: rock had 4 fills).
     */
    static final double MAX_BARS = 2.25;
    /**
     * A fill whose hits spread further than this around their sixteenths (standard deviation of their
     * lateness, fractions of a sixteenth) is in another rhythm (triplets, 32nds), which the composer's
     * sixteenth grid would only play as a blur of early and late hits. The spread, not the distance
     * from the click: the composer takes out a drummer's lean over the whole fill (rushing it), so a
     * fill played evenly ahead of the click is on the grid (0.25 RMS before: it let in a rock fill in
     * triplets, 0.24 around its mean, and kept out evenly rushed ones).
     */
    static final double MAX_OFFSET_SPREAD = 0.2;
    /** A fill whose hits sit this often at the pad's ceiling (127) has no dynamics to learn from. */
    static final double MAX_CEILING_SHARE = 0.35;

    private GrooveFills() {}

    /** One hit of a fill: its sixteenth, lateness in fractions of a sixteenth (+ late) and velocity. */
    record Hit(double offset, int velocity) {}

    /** A fill as played: per General MIDI drum key, 16 steps of hits or nulls. */
    record Fill(String file, int bar, Map<Integer, Hit[]> hits) {
        int count() {
            return count(key -> true);
        }

        int count(IntPredicate keys) {
            int n = 0;
            for (Map.Entry<Integer, Hit[]> e : hits.entrySet()) {
                if (keys.test(e.getKey())) {
                    n += (int)
                            Arrays.stream(e.getValue()).filter(Objects::nonNull).count();
                }
            }
            return n;
        }

        double offsetSpread() {
            List<Double> offsets = new ArrayList<>();
            for (Hit[] row : hits.values()) {
                for (Hit h : row) {
                    if (h != null) {
                        offsets.add(h.offset());
                    }
                }
            }
            double mean =
                    offsets.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            return Math.sqrt(offsets.stream()
                    .mapToDouble(o -> (o - mean) * (o - mean))
                    .average()
                    .orElse(0));
        }

        int atCeiling() {
            return hits.values().stream()
                    .mapToInt(row -> (int) Arrays.stream(row)
                            .filter(h -> h != null && h.velocity() >= 127)
                            .count())
                    .sum();
        }
    }

    /**
     * The General MIDI key a dataset note is played on: the Roland TD-11's zones as the dataset
     * records them (snare rim 40, hi-hat edges 22 and 26, tom rims 50, 47 and 58, crash edges and
     * the second crash, ride edge) folded onto the drum's head; -1 for anything else.
     */
    static int key(int note) {
        return switch (note) {
            case 36 -> 36;
            case 38, 40 -> 38;
            case 37 -> 37;
            case 42, 22 -> 42;
            case 44 -> 44;
            case 46, 26 -> 46;
            case 48, 50 -> 48;
            case 45, 47 -> 45;
            case 43, 58 -> 43;
            case 49, 52, 55, 57 -> 49;
            case 51, 59 -> 51;
            case 53 -> 53;
            default -> -1;
        };
    }

    /**
     * The template's name of the drum a key plays ({@link GrooveTemplates#VOICES}: kick, snare, hat,
     * ride, tom, by {@link GrooveTemplates#voice}), or crash.
     */
    static String voice(int key) {
        if (key == 49) {
            return "crash";
        }
        int voice = GrooveTemplates.voice(key);
        if (voice < 0) {
            throw new IllegalArgumentException("no drum voice for key " + key);
        }
        return GrooveTemplates.VOICES[voice];
    }

    static boolean tom(int key) {
        return key == 43 || key == 45 || key == 48;
    }

    static boolean snare(int key) {
        return key == 37 || key == 38;
    }

    /** The fills standing for {@code genre}, sparsest first; empty when the genre keeps its written fill. */
    static List<Fill> forGenre(Path groove, String genre) throws IOException, InvalidMidiDataException {
        Choice choice = CHOICES.get(genre);
        if (choice == null) {
            return List.of();
        }
        List<Fill> candidates = new ArrayList<>();
        List<String> lines = Files.readAllLines(groove.resolve("info.csv"));
        for (String line : lines.subList(1, lines.size())) {
            // drummer,session,id,style,bpm,beat_type,time_signature,midi_filename,audio_filename,duration,split
            String[] f = line.split(",");
            if (!f[5].equals("fill") || !f[6].equals("4-4") || !f[3].matches(choice.styles())) {
                continue;
            }
            int bpm = Integer.parseInt(f[4]);
            double bars = Double.parseDouble(f[9]) * bpm / 60 / 4;
            if (bpm < choice.minBpm() || bpm > choice.maxBpm() || bars > MAX_BARS) {
                continue;
            }
            Fill fill = read(groove, f[7]);
            if (suits(fill, choice.kit())) {
                candidates.add(fill);
            }
        }
        candidates.sort(Comparator.comparingInt((Fill f) -> f.count()).thenComparing(Fill::file));
        List<Fill> chosen = new ArrayList<>();
        int k = Math.min(PER_GENRE, candidates.size());
        for (int i = 0; i < k; i++) {
            int index = k == 1 ? 0 : (int) Math.round(i * (candidates.size() - 1) / (double) (k - 1));
            chosen.add(candidates.get(index));
        }
        return chosen;
    }

    /** A fill worth learning from: enough hits, on sixteenths, mostly snare and toms (a fill, not a beat), dynamics, the kit the genre plays. */
    static boolean suits(Fill fill, Kit kit) {
        int n = fill.count();
        if (n < MIN_HITS || fill.atCeiling() > MAX_CEILING_SHARE * n || fill.offsetSpread() > MAX_OFFSET_SPREAD) {
            return false;
        }
        int toms = fill.count(GrooveFills::tom);
        int snares = fill.count(GrooveFills::snare);
        if (toms + snares < n / 2.0) {
            return false;
        }
        return switch (kit) {
            case ANY -> true;
            case TOMS -> toms >= n / 3.0;
            case NO_TOMS -> toms == 0 && snares >= n / 2.0;
        };
    }

    /**
     * The fill bar of a performance: the bar before the last downbeat the drummer strikes (the
     * landing, left to the composer, whose crash and kick strike the next section), or the first bar
     * when no later downbeat is struck.
     */
    static Fill read(Path groove, String file) throws IOException, InvalidMidiDataException {
        Sequence sequence = MidiSystem.getSequence(groove.resolve(file).toFile());
        if (sequence.getDivisionType() != Sequence.PPQ) {
            throw new IllegalStateException(file + ": not PPQ");
        }
        double sixteenth = sequence.getResolution() / 4.0;
        long landing = 0;
        for (Track track : sequence.getTracks()) {
            for (int i = 0; i < track.size(); i++) {
                if (track.get(i).getMessage() instanceof ShortMessage m
                        && m.getCommand() == ShortMessage.NOTE_ON
                        && m.getData2() > 0
                        && key(m.getData1()) >= 0) {
                    long step = Math.round(track.get(i).getTick() / sixteenth);
                    if (step % STEPS == 0) {
                        landing = Math.max(landing, step / STEPS);
                    }
                }
            }
        }
        long first = STEPS * Math.max(0, landing - 1);
        Map<Integer, Hit[]> hits = new TreeMap<>();
        for (Track track : sequence.getTracks()) {
            for (int i = 0; i < track.size(); i++) {
                MidiEvent e = track.get(i);
                if (!(e.getMessage() instanceof ShortMessage m)
                        || m.getCommand() != ShortMessage.NOTE_ON
                        || m.getData2() == 0) {
                    continue;
                }
                int key = key(m.getData1());
                long global = Math.round(e.getTick() / sixteenth);
                long step = global - first;
                if (key < 0 || step < 0 || step >= STEPS) {
                    continue;
                }
                double offset = (e.getTick() - global * sixteenth) / sixteenth;
                Hit[] row = hits.computeIfAbsent(key, x -> new Hit[STEPS]);
                Hit old = row[(int) step];
                // Two zones of one drum on one sixteenth (a rimshot beside the head, a flam): the louder one counts.
                if (old == null || m.getData2() > old.velocity()) {
                    row[(int) step] = new Hit(offset, m.getData2());
                }
            }
        }
        return new Fill(file, (int) (first / STEPS) + 1, hits);
    }

    /** The template's {@code "fills"} entry: each fill's file and its rows, per key, as {@code [offset, velocity]} or null. */
    static String json(List<Fill> fills) {
        StringBuilder json = new StringBuilder("  \"fills\": [\n");
        for (int f = 0; f < fills.size(); f++) {
            Fill fill = fills.get(f);
            json.append("    {\"from\": \"")
                    .append(fill.file())
                    .append("\", \"bar\": ")
                    .append(fill.bar())
                    .append(", \"hits\": [");
            int n = 0;
            for (int s = 0; s < STEPS; s++) {
                for (Map.Entry<Integer, Hit[]> row : fill.hits().entrySet()) {
                    Hit h = row.getValue()[s];
                    if (h == null) {
                        continue;
                    }
                    json.append(n++ == 0 ? "" : ",")
                            .append(String.format(
                                    Locale.ROOT,
                                    "%n      {\"step\": %d, \"voice\": \"%s\", \"key\": %d, \"offset\": %.3f, \"velocity\": %d}",
                                    s,
                                    voice(row.getKey()),
                                    row.getKey(),
                                    h.offset(),
                                    h.velocity()));
                }
            }
            json.append("]}").append(f == fills.size() - 1 ? "\n" : ",\n");
        }
        return json.append("  ]\n").toString();
    }
}
