package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.analysis.Analysis;
import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.interchange.CueSheet;
import dev.scorecast.engine.interchange.Fcpxml;
import dev.scorecast.engine.interchange.FrameRate;
import dev.scorecast.engine.interchange.Otio;
import dev.scorecast.engine.interchange.Timeline;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.Section;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The execution's outputs for the editor (docs/EDITING.md): a timeline that Final Cut Pro and
 * DaVinci Resolve open (FCPXML) and any OpenTimelineIO tool reads (.otio), with the video, the stems
 * on lanes of their own and a marker at every section start and accent; and the cue sheet for the
 * music's rights (CSV and JSON). Everything here is read from what the execution already knows; the
 * writers in {@code engine.interchange} turn it into files.
 */
final class Interchange {
    static final String FCPXML = "timeline.fcpxml";
    static final String OTIO = "timeline.otio";
    static final String CUE_SHEET_CSV = "cue_sheet.csv";
    static final String CUE_SHEET_JSON = "cue_sheet.json";
    /** Where the stems are, relative to the timeline: stems.zip unpacked into a folder of its name, as macOS and most tools do. */
    static final String STEMS_FOLDER = "./stems/";

    private Interchange() {}

    /** What the execution produced that the timeline places: its stems (group names; voiceover last) or the master alone. */
    record Produced(List<String> stems, boolean voiceover, long samples, int sampleRate) {}

    /** Writes the four files into {@code outDir}; answers output name to file name, for the links. */
    static Map<String, String> write(
            Path outDir,
            String title,
            Plan plan,
            Score score,
            Analysis analysis,
            Produced produced,
            List<SyncCheck.Point> sync,
            List<SyncCheck.Point> marks,
            Provenance provenance) {
        Timeline timeline = timeline(title, plan, analysis, produced, sync, marks);
        CueSheet cues = cueSheet(title, plan, score, timeline.video().rate(), provenance);
        try {
            Files.writeString(outDir.resolve(FCPXML), Fcpxml.write(timeline));
            Files.writeString(outDir.resolve(OTIO), Otio.write(timeline));
            Files.writeString(outDir.resolve(CUE_SHEET_CSV), cues.csv());
            Files.writeString(outDir.resolve(CUE_SHEET_JSON), cues.json());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the editor's files in " + outDir, e);
        }
        Map<String, String> files = new LinkedHashMap<>();
        files.put("fcpxml", FCPXML);
        files.put("otio", OTIO);
        files.put("cue_sheet_csv", CUE_SHEET_CSV);
        files.put("cue_sheet_json", CUE_SHEET_JSON);
        return files;
    }

    static Timeline timeline(
            String title,
            Plan plan,
            Analysis analysis,
            Produced produced,
            List<SyncCheck.Point> sync,
            List<SyncCheck.Point> marks) {
        Analysis.VideoFacts facts = analysis.video();
        FrameRate rate = FrameRate.of(facts.fps());
        long frames = Math.max(1, rate.frameAt(facts.duration()));
        boolean upright = facts.rotation() % 180 == 0;
        var video = new Timeline.Video(
                title,
                "./" + Execution.VIDEO,
                rate,
                frames,
                upright ? facts.width() : facts.height(),
                upright ? facts.height() : facts.width());
        List<Timeline.Lane> lanes = new ArrayList<>();
        for (String stem : produced.stems()) {
            lanes.add(new Timeline.Lane(
                    stem,
                    STEMS_FOLDER + stem + ".wav",
                    produced.samples(),
                    produced.sampleRate(),
                    Timeline.Role.MUSIC));
        }
        if (produced.voiceover()) {
            lanes.add(new Timeline.Lane(
                    "voiceover",
                    STEMS_FOLDER + Execution.VOICEOVER_WAV,
                    produced.samples(),
                    produced.sampleRate(),
                    Timeline.Role.DIALOGUE));
        }
        if (lanes.isEmpty()) {
            lanes.add(new Timeline.Lane(
                    "music",
                    "./" + Execution.MASTER_WAV,
                    produced.samples(),
                    produced.sampleRate(),
                    Timeline.Role.MUSIC));
        }
        List<Timeline.Marker> markers = new ArrayList<>();
        for (Section s : plan.sections()) {
            markers.add(new Timeline.Marker(
                    rate.frameAt(s.start()),
                    Timeline.Kind.SECTION,
                    "Section " + (s.index() + 1) + ": " + s.label(),
                    String.format(
                            Locale.ROOT,
                            "%s, %.3f bpm, %s, %d bars, %s %s, intensity %.2f",
                            plan.genre(),
                            s.tempo(),
                            s.meter(),
                            s.bars(),
                            s.key(),
                            s.mode(),
                            s.intensity())));
        }
        for (SyncCheck.Point p : sync) {
            markers.add(new Timeline.Marker(
                    rate.frameAt(p.target()),
                    Timeline.Kind.ACCENT,
                    capitalised(p.kind()),
                    String.format(Locale.ROOT, "%s at %.3f s, %s", p.kind(), p.target(), heard(p))));
        }
        for (SyncCheck.Point p : marks) {
            markers.add(new Timeline.Marker(
                    rate.frameAt(p.target()),
                    Timeline.Kind.EDITOR,
                    "Marker: " + p.kind(),
                    String.format(Locale.ROOT, "your %s at %.3f s, %s", p.kind(), p.target(), heard(p))));
        }
        return new Timeline(title, video, lanes, merged(markers, frames));
    }

    /**
     * One marker a frame: a section's start and the hit on it are one moment (editing programs stack
     * markers at one frame unreadably), named together, the section's kind first. Markers past the
     * last frame (rounding) move onto it.
     */
    static List<Timeline.Marker> merged(List<Timeline.Marker> markers, long frames) {
        Map<Long, Timeline.Marker> byFrame = new TreeMap<>();
        for (Timeline.Marker m : markers) {
            long frame = Math.min(frames - 1, Math.max(0, m.frame()));
            byFrame.merge(
                    frame,
                    new Timeline.Marker(frame, m.kind(), m.name(), m.note()),
                    (a, b) -> new Timeline.Marker(
                            frame,
                            a.kind().ordinal() <= b.kind().ordinal() ? a.kind() : b.kind(),
                            a.name() + " + " + b.name(),
                            a.note() + "; " + b.note()));
        }
        return List.copyOf(byFrame.values());
    }

    static CueSheet cueSheet(String title, Plan plan, Score score, FrameRate rate, Provenance provenance) {
        List<CueSheet.Cue> cues = new ArrayList<>();
        for (Section s : plan.sections()) {
            if (s.instruments().values().stream().allMatch(Objects::isNull)) {
                continue; // a rest (the editor's stop or mute): no music is used there
            }
            List<String> stems = new ArrayList<>();
            boolean sung = false;
            for (var entry : s.instruments().entrySet()) {
                if (entry.getValue() != null) {
                    stems.add(entry.getKey());
                    sung |= entry.getKey().equals(InstrumentGroup.VOCALS.wire())
                            && s.lyrics() != null
                            && !s.lyrics().isBlank();
                }
            }
            List<String> sources = sources(score, s.start(), s.end());
            double in = s.start();
            double out = s.end();
            int number = cues.size() + 1;
            cues.add(new CueSheet.Cue(
                    number,
                    title + " - " + s.label() + " (" + number + ")",
                    sung ? "BV" : "BI",
                    CueSheet.timecode(rate, in),
                    CueSheet.timecode(rate, out),
                    rate.timecode(rate.frameAt(out) - rate.frameAt(in)),
                    millis(in),
                    millis(out),
                    millis(out - in),
                    stems,
                    sources));
        }
        List<CueSheet.Source> sources = provenance.sources().stream()
                .map(s -> new CueSheet.Source(s.id(), s.title(), s.origin(), s.license()))
                .toList();
        return new CueSheet(
                title,
                "./" + Execution.VIDEO,
                rate.toString(),
                rate.timecode(rate.frameAt(plan.duration())),
                millis(plan.duration()),
                "Scorecast (generated music, engine " + provenance.engineVersion() + ", seed " + provenance.seed()
                        + ")",
                provenance.engineVersion(),
                provenance.planSha256(),
                provenance.seed(),
                cues,
                sources);
    }

    /**
     * The sound banks played from {@code start} to {@code end}: each part's program in effect then and
     * the programs it changes to before the end (the effects change program per hit). The sung line
     * is Scorecast's own singer, from no bank.
     */
    static List<String> sources(Score score, double start, double end) {
        List<String> ids = new ArrayList<>();
        for (Part part : score.parts()) {
            if (part.group() == InstrumentGroup.VOCALS
                    || part.notes().stream().noneMatch(n -> n.start() < end && n.end() > start)) {
                continue;
            }
            List<Integer> programs = new ArrayList<>(List.of(part.program()));
            for (Part.ProgramChange change : part.programChanges()) {
                if (change.time() <= start + 1e-9) {
                    programs.set(0, change.program());
                } else if (change.time() < end) {
                    programs.add(change.program());
                }
            }
            for (int program : programs) {
                BankCatalog.bank(program >> 7)
                        .map(BankCatalog.Bank::id)
                        .filter(id -> !ids.contains(id))
                        .ifPresent(ids::add);
            }
        }
        return ids;
    }

    private static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    private static String heard(SyncCheck.Point p) {
        return p.measured() == null
                ? "not heard"
                : String.format(
                        Locale.ROOT,
                        "heard at %.3f s (%+.1f ms%s)",
                        p.measured(),
                        p.errorSeconds() * 1000,
                        p.withinFrame() ? ", within a frame" : "");
    }

    private static String capitalised(String word) {
        return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}
