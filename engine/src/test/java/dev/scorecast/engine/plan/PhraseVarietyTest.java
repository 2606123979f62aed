package dev.scorecast.engine.plan;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.MidiWriter;
import dev.scorecast.engine.style.GenreCatalog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sound.midi.MetaMessage;
import javax.sound.midi.MidiEvent;
import javax.sound.midi.MidiSystem;
import javax.sound.midi.Sequence;
import javax.sound.midi.ShortMessage;
import javax.sound.midi.Track;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26, phrases that develop: one 2-minute shot scored in each genre and measured on the MIDI
 * file the service writes, as the issue measures it (onsets quantised to sixteenths, pitch
 * ignored, one rhythm per bar and part). No melodic or harmonic part keeps one rhythm for more than
 * 4 bars in a row, no drum part for more than 8, and every part plays at least 3 bar rhythms.
 */
class PhraseVarietyTest {
    private static final Planner PLANNER = new Planner(GenreCatalog.builtIn());
    /** Sixteenths at the writer's 960 ticks per quarter. */
    private static final int TICKS_PER_STEP = 240;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "deep",
                "cinematic",
                "ambient",
                "lofi",
                "house",
                "techno",
                "hip-hop",
                "rock",
                "pop",
                "acoustic",
                "orchestral",
                "corporate"
            })
    void aTwoMinuteShotDevelopsInEveryPart(String genre) throws Exception {
        Analysis shot = Analyses.of(120, 25, List.of(), t -> 0.55, 0.6, 0.5, genre, 0);
        Plan plan =
                PLANNER.plan(shot, GenerationOptions.DEFAULT.withGenre(genre).withSeed(7L));
        Path midi = dir.resolve(genre + ".mid");
        MidiWriter.write(new Composer().compose(plan), midi);
        Map<String, List<String>> rhythms = barRhythms(MidiSystem.getSequence(Files.newInputStream(midi)));
        List<String> failures = new ArrayList<>();
        StringBuilder table = new StringBuilder(genre + " (" + plan.sections().size() + " sections):");
        for (var part : rhythms.entrySet()) {
            List<String> bars = part.getValue();
            // The closing bar (one held chord or a crash) is the ending, not a rhythm of the part's.
            List<String> played = bars.subList(0, Math.max(0, bars.size() - 1));
            int run = longestRun(played);
            Set<String> distinct = new HashSet<>(played);
            distinct.remove("");
            table.append(String.format(" %s run %d distinct %d;", part.getKey(), run, distinct.size()));
            if (System.getProperty("phrases.print") != null) {
                System.out.println(genre + " " + part.getKey() + " " + String.join(" ", played));
            }
            if (distinct.isEmpty()) {
                continue; // a part that rests in this section
            }
            int limit = part.getKey().equals("beats") ? 8 : 4;
            if (run > limit) {
                failures.add(part.getKey() + " keeps one rhythm for " + run + " bars (at most " + limit + ")");
            }
            if (distinct.size() < 3) {
                failures.add(part.getKey() + " plays " + distinct.size() + " bar rhythms (at least 3)");
            }
        }
        System.out.println(table);
        assertTrue(failures.isEmpty(), genre + ": " + failures);
    }

    /** Per track (named after its group): each bar's onsets as a 16-character grid, '' for a silent bar. */
    static Map<String, List<String>> barRhythms(Sequence sequence) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        long end = sequence.getTickLength();
        int totalBars = (int) (end / (TICKS_PER_STEP * 16)) + 1;
        for (Track track : sequence.getTracks()) {
            String name = null;
            TreeMap<Integer, Set<Integer>> onsets = new TreeMap<>();
            for (int i = 0; i < track.size(); i++) {
                MidiEvent event = track.get(i);
                if (event.getMessage() instanceof MetaMessage meta && meta.getType() == 0x03) {
                    name = new String(meta.getData(), StandardCharsets.US_ASCII);
                } else if (event.getMessage() instanceof ShortMessage note
                        && note.getCommand() == ShortMessage.NOTE_ON
                        && note.getData2() > 0) {
                    long step = Math.round(event.getTick() / (double) TICKS_PER_STEP);
                    onsets.computeIfAbsent((int) (step / 16), b -> new TreeSet<>())
                            .add((int) (step % 16));
                }
            }
            if (name == null
                    || name.equals("tempo map")
                    || onsets.isEmpty()
                    || name.equals("fx")
                    || name.equals("vocals")) {
                continue;
            }
            List<String> bars = new ArrayList<>();
            for (int bar = 0; bar < totalBars; bar++) {
                Set<Integer> steps = onsets.getOrDefault(bar, Set.of());
                StringBuilder grid = new StringBuilder();
                for (int s = 0; s < 16 && !steps.isEmpty(); s++) {
                    grid.append(steps.contains(s) ? 'x' : '.');
                }
                bars.add(grid.toString());
            }
            while (!bars.isEmpty() && bars.getLast().isEmpty()) {
                bars.removeLast();
            }
            out.put(name, bars);
        }
        return out;
    }

    /** The most bars in a row with one and the same (sounding) rhythm. */
    static int longestRun(List<String> bars) {
        int best = 0;
        int run = 0;
        for (int i = 0; i < bars.size(); i++) {
            run = i > 0 && !bars.get(i).isEmpty() && bars.get(i).equals(bars.get(i - 1))
                    ? run + 1
                    : bars.get(i).isEmpty() ? 0 : 1;
            best = Math.max(best, run);
        }
        return best;
    }
}
