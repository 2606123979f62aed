package dev.scorecast.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The editor's outputs of one real execution (a 12.012 s cut at 29.97 fps, cuts at frames 120 and
 * 240), downloaded through the links as a client would: the FCPXML validated with xmllint against
 * DTDs, the .otio read by OpenTimelineIO itself, the cue sheet against the plan and the provenance.
 * One execution serves every test.
 */
class EditorOutputsTest {
    /** NTSC: 30000/1001 frames per second. */
    static final long RATE_NUM = 30000;

    static final long RATE_DEN = 1001;
    static final long FRAMES = 360;
    /** The editor's markers: a hit, a drop, and a rest from a stop to a start (frames 60, 180, 270 and 320). */
    static final List<Map<String, Object>> MARKERS = List.of(
            Map.of("time", 2.002, "kind", "hit"),
            Map.of("time", 6.006, "kind", "drop"),
            Map.of("time", 9.009, "kind", "stop"),
            Map.of("time", 10.677, "kind", "start"));

    @TempDir
    static Path data;

    @TempDir
    static Path files;

    static TestServer server;
    static JsonNode status;
    static JsonNode results;
    static JsonNode plan;
    static List<String> stems;

    @BeforeAll
    static void executeOnce() throws Exception {
        server = TestServer.start(data);
        Api api = server.alice();
        Api.Response done = Uploads.uploadA(api, Videos.ntscScenes(), "video/mp4", 1);
        assertEquals(200, done.status(), done::toString);
        Api.Response started = api.postJson(
                "/sync/video_analysis",
                Map.of("video_id", done.body().get("video_id").asText()));
        JsonNode analysed =
                AnalysisFlowTest.awaitJob(api, started.body().get("job_id").asText());
        assertEquals("finished", analysed.get("status").asText(), analysed::toString);
        Api.Response generated = api.postJson(
                "/sync/generate",
                Map.of(
                        "analysis_id",
                        started.body().get("analysis_id").asText(),
                        "genre",
                        "house",
                        "seed",
                        7,
                        "markers",
                        MARKERS));
        assertEquals(200, generated.status(), generated::toString);
        Api.Response executed = api.postJson(
                "/sync/execute",
                Map.of("plan_id", generated.body().get("plan_id").asText()));
        status = ScoringFlowTest.awaitExecution(
                api,
                "/sync/status",
                Map.of("job_id", executed.body().get("job_id").asText()));
        assertEquals("finished", status.get("status").asText(), status::toString);
        results = Api.JSON.readTree(ScoringFlowTest.fetch(status.get("queryurl").asText()));
        plan = Api.JSON.readTree(ScoringFlowTest.fetch(status.at("/links/plan").asText()));
        for (String output : List.of("fcpxml", "otio", "cue_sheet_csv", "cue_sheet_json")) {
            String name = results.at("/files/" + output).asText();
            Files.write(
                    files.resolve(name),
                    ScoringFlowTest.fetch(status.at("/links/" + output).asText()));
        }
        stems = new ArrayList<>();
        try (var zip = new ZipInputStream(new ByteArrayInputStream(
                ScoringFlowTest.fetch(status.at("/links/stems").asText())))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                stems.add(e.getName().replaceFirst("\\.wav$", ""));
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theLinksAndResultsNameTheEditorsFiles() {
        assertEquals("timeline.fcpxml", results.at("/files/fcpxml").asText());
        assertEquals("timeline.otio", results.at("/files/otio").asText());
        assertEquals("cue_sheet.csv", results.at("/files/cue_sheet_csv").asText());
        assertEquals("cue_sheet.json", results.at("/files/cue_sheet_json").asText());
        for (String output : List.of("fcpxml", "otio", "cue_sheet_csv", "cue_sheet_json")) {
            assertTrue(
                    status.at("/links/" + output).asText().contains("/files/"),
                    output + " linked: " + status.get("links"));
        }
    }

    @Test
    void theFcpxmlIsValidAndEveryTimeIsAWholeFrame() throws Exception {
        Path fcpxml = files.resolve("timeline.fcpxml");
        Path ours = Path.of(EditorOutputsTest.class
                .getResource("/interchange/scorecast-fcpxml-1.10.dtd")
                .toURI());
        assertEquals("", xmllint(fcpxml, ours), "valid against Scorecast's FCPXML 1.10 (a subset of Apple's)");
        // The check can fail: a marker before the lanes it follows is out of the DTD's order.
        String text = Files.readString(fcpxml);
        int marker = text.indexOf("<marker");
        int markerEnd = text.indexOf("/>", marker) + 2;
        int firstLane = text.indexOf("<asset-clip", text.indexOf("<asset-clip") + 1);
        Path broken = Files.writeString(
                files.resolve("broken.fcpxml"),
                text.substring(0, firstLane) + text.substring(marker, markerEnd) + "\n"
                        + text.substring(firstLane, marker) + text.substring(markerEnd));
        assertTrue(xmllint(broken, ours).contains("does not follow the DTD"), "a misordered document is refused");
        Optional<Path> apple = appleDtd();
        if (apple.isPresent()) {
            assertEquals("", xmllint(fcpxml, apple.get()), "valid against Apple's FCPXML 1.10 DTD " + apple.get());
        } else {
            missingTool(
                    "Apple's FCPXMLv1_10.dtd not available (set SCORECAST_FCPXML_DTD); validated against Scorecast's subset only");
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(fcpxml.toFile());
        assertEquals("1.10", doc.getDocumentElement().getAttribute("version"));
        Element format = (Element) doc.getElementsByTagName("format").item(0);
        assertEquals("1001/30000s", format.getAttribute("frameDuration"));
        assertEquals("320", format.getAttribute("width"));
        Element sequence = (Element) doc.getElementsByTagName("sequence").item(0);
        assertEquals(FRAMES, frames(sequence.getAttribute("duration")));
        assertEquals(
                "harbour-cut", ((Element) doc.getElementsByTagName("project").item(0)).getAttribute("name"));

        NodeList clips = doc.getElementsByTagName("asset-clip");
        Element picture = (Element) clips.item(0);
        assertEquals("video", picture.getAttribute("srcEnable"), "the picture only: the stems are the music");
        assertEquals(FRAMES, frames(picture.getAttribute("duration")));
        List<String> lanes = new ArrayList<>();
        for (int i = 1; i < clips.getLength(); i++) {
            Element lane = (Element) clips.item(i);
            lanes.add(lane.getAttribute("name"));
            assertEquals(Integer.toString(-i), lane.getAttribute("lane"));
            assertEquals(0, frames(lane.getAttribute("offset")));
            assertEquals(FRAMES, frames(lane.getAttribute("duration")), "a lane under the whole picture");
        }
        assertEquals(stems, lanes, "one lane per stem of stems.zip, in its order");
        NodeList assets = doc.getElementsByTagName("asset");
        for (int i = 1; i < assets.getLength(); i++) {
            Element asset = (Element) assets.item(i);
            String src = ((Element) asset.getElementsByTagName("media-rep").item(0)).getAttribute("src");
            assertEquals("./stems/" + asset.getAttribute("name") + ".wav", src);
            // The audio asset keeps its exact length in samples: the video's 12.012 s at 48 kHz.
            assertEquals("3003/250s", asset.getAttribute("duration"));
        }

        NodeList markers = doc.getElementsByTagName("marker");
        TreeSet<Long> at = new TreeSet<>();
        for (int i = 0; i < markers.getLength(); i++) {
            Element m = (Element) markers.item(i);
            at.add(frames(m.getAttribute("start")));
            assertEquals(1, frames(m.getAttribute("duration")));
            assertFalse(m.getAttribute("value").isBlank());
        }
        assertEquals(markers.getLength(), at.size(), "one marker a frame");
        assertEquals(expectedMarkerFrames(), at, "a marker at every section start and every accent of the sync report");
    }

    @Test
    void theOtioReadsInOpenTimelineIoWithTheSameTracksAndMarkers() throws Exception {
        Path otio = files.resolve("timeline.otio");
        JsonNode read = Api.JSON.readTree(otio.toFile());
        assertEquals("Timeline.1", read.get("OTIO_SCHEMA").asText());
        JsonNode summary = javaSummary(read);
        Optional<Path> python = otioPython();
        if (python.isPresent()) {
            JsonNode theirs =
                    Api.JSON.readTree(run(List.of(python.get().toString(), script().toString(), otio.toString())));
            System.out.println("EditorOutputsTest: OpenTimelineIO "
                    + theirs.get("otio_version").asText() + " read " + otio.getFileName());
            assertTrue(theirs.get("round_trip_equal").asBoolean(), "OpenTimelineIO writes it back the same");
            assertEquals(
                    summary.get("tracks"), theirs.get("tracks"), "tracks and clip ranges as OpenTimelineIO reads them");
            assertEquals(summary.get("markers"), theirs.get("markers"), "markers as OpenTimelineIO reads them");
            assertEquals(FRAMES, theirs.get("duration").asLong());
            assertEquals(30000.0 / 1001, theirs.get("rate").asDouble(), 1e-9);
        } else {
            missingTool(
                    "OpenTimelineIO's Python package not available (SCORECAST_OTIO_PYTHON); the .otio was checked against its schema only");
        }
        JsonNode tracks = summary.get("tracks");
        assertEquals("Video", tracks.get(0).get("kind").asText());
        assertEquals("./video.mp4", tracks.get(0).at("/clips/0/target_url").asText());
        assertEquals(FRAMES, tracks.get(0).at("/clips/0/duration").asLong());
        List<String> audio = new ArrayList<>();
        for (int i = 1; i < tracks.size(); i++) {
            JsonNode track = tracks.get(i);
            assertEquals("Audio", track.get("kind").asText());
            audio.add(track.get("name").asText());
            assertEquals(1, track.get("clips").size());
            assertEquals(0, track.at("/clips/0/start").asLong());
            assertEquals(FRAMES, track.at("/clips/0/duration").asLong());
            assertEquals(
                    "./stems/" + track.get("name").asText() + ".wav",
                    track.at("/clips/0/target_url").asText());
            assertEquals(12.012, track.at("/clips/0/available_seconds").asDouble(), 1e-9);
        }
        assertEquals(stems, audio, "one audio track per stem");
        TreeSet<Long> at = new TreeSet<>();
        summary.get("markers").forEach(m -> at.add(m.get("frame").asLong()));
        assertEquals(expectedMarkerFrames(), at);
    }

    @Test
    void theCueSheetTimesEverySectionAndNamesItsSourcesAndLicenses() throws Exception {
        JsonNode cues = Api.JSON.readTree(files.resolve("cue_sheet.json").toFile());
        assertEquals("harbour-cut", cues.get("title").asText());
        assertEquals("30000/1001", cues.get("frame_rate").asText());
        assertEquals("00:00:12:00", cues.get("duration").asText(), "360 frames counted non-drop at 30");
        assertEquals(
                results.at("/provenance/plan_sha256").asText(),
                cues.get("plan_sha256").asText());
        List<JsonNode> sections = new ArrayList<>();
        plan.get("sections").forEach(section -> {
            if (!section.get("instruments").isEmpty()) {
                sections.add(section); // a rest is no use of music
            }
        });
        assertEquals(sections.size(), cues.get("cues").size(), "one cue per section with music");
        double covered = 0;
        for (int i = 0; i < sections.size(); i++) {
            JsonNode section = sections.get(i);
            JsonNode cue = cues.get("cues").get(i);
            assertEquals(i + 1, cue.get("number").asInt());
            assertEquals(section.get("start").asDouble(), cue.get("in_seconds").asDouble(), 0.0005);
            assertEquals(section.get("end").asDouble(), cue.get("out_seconds").asDouble(), 0.0005);
            assertEquals(
                    timecode(Math.round(section.get("start").asDouble() * RATE_NUM / RATE_DEN)),
                    cue.get("in").asText());
            assertEquals("BI", cue.get("usage").asText(), "instrumental: no vocals asked for");
            List<String> groups = new ArrayList<>();
            section.get("instruments").properties().forEach(e -> groups.add(e.getKey()));
            List<String> listed = new ArrayList<>();
            cue.get("stems").forEach(s -> listed.add(s.asText()));
            assertEquals(groups, listed);
            covered += cue.get("duration_seconds").asDouble();
        }
        assertEquals(12.012 - (320 - 270) * 1001 / 30000.0, covered, 0.002, "the cues cover the video but the rest");
        TreeSet<String> provenance = new TreeSet<>();
        results.at("/provenance/sources")
                .forEach(s -> provenance.add(
                        s.get("id").asText() + " | " + s.get("license").asText()));
        TreeSet<String> listed = new TreeSet<>();
        cues.get("sources")
                .forEach(s -> listed.add(
                        s.get("id").asText() + " | " + s.get("license").asText()));
        assertEquals(provenance, listed, "the sources and licenses of results.json's provenance");
        TreeSet<String> used = new TreeSet<>();
        cues.get("cues").forEach(cue -> cue.get("sources").forEach(id -> used.add(id.asText())));
        TreeSet<String> ids = new TreeSet<>();
        results.at("/provenance/sources").forEach(s -> ids.add(s.get("id").asText()));
        assertEquals(ids, used, "every source of the provenance is used by a cue, and no other");

        List<String> lines = Files.readAllLines(files.resolve("cue_sheet.csv"), StandardCharsets.UTF_8);
        assertEquals(
                "production,cue,title,usage,in,out,duration,in_seconds,out_seconds,duration_seconds,stems,composer,sources,licenses",
                lines.get(0));
        assertEquals(sections.size() + 1, lines.size(), "a header and a row per cue");
        for (int i = 1; i < lines.size(); i++) {
            JsonNode cue = cues.get("cues").get(i - 1);
            assertTrue(
                    lines.get(i)
                            .startsWith(
                                    "harbour-cut," + i + "," + cue.get("title").asText() + ",BI,"
                                            + cue.get("in").asText() + ","
                                            + cue.get("out").asText() + ","),
                    lines.get(i));
        }
    }

    @Test
    void theEditorsMarkersAreWrittenIntoThePlanAndMeasuredOnTheAudio() {
        JsonNode sections = plan.get("sections");
        assertEquals(4, plan.get("markers").size(), plan.toString());
        JsonNode drop = section(6.006);
        assertEquals(6.006, drop.get("start").asDouble(), 1e-9);
        assertEquals("drop", drop.at("/hit/kind").asText());
        assertEquals(1.0, drop.get("intensity").asDouble());
        JsonNode rest = section(10);
        assertEquals(9.009, rest.get("start").asDouble(), 1e-6);
        assertEquals(320 * 1001 / 30000.0, rest.get("end").asDouble(), 1e-6);
        assertEquals(0, rest.get("instruments").size(), "a rest: nothing plays");
        assertEquals("impact", section(11).at("/hit/kind").asText(), "the music starts again, struck");
        assertTrue(
                section(1).get("accents").findValuesAsText("time").contains("2.002"),
                "the hit is an accent: " + sections);
        JsonNode measured = results.get("markers");
        assertEquals(4, measured.size(), results::toString);
        double frame = 1001.0 / 30000;
        for (JsonNode m : measured) {
            System.out.printf(
                    "EditorOutputsTest: marker %s at %.3f s heard at %s (offset %s s, rise %s dB)%n",
                    m.get("kind").asText(),
                    m.get("target").asDouble(),
                    m.get("measured"),
                    m.get("error_seconds"),
                    m.get("rise_db"));
            assertTrue(
                    m.get("within_frame").asBoolean(),
                    "the " + m.get("kind").asText() + " is heard within a frame: " + m);
            assertTrue(Math.abs(m.get("error_seconds").asDouble()) <= frame, m.toString());
        }
    }

    static JsonNode section(double t) {
        for (JsonNode s : plan.get("sections")) {
            if (s.get("start").asDouble() <= t + 1e-9 && t < s.get("end").asDouble() - 1e-9) {
                return s;
            }
        }
        throw new AssertionError("no section at " + t);
    }

    /** Every section start and every accent the sync report measured, as frames (several at one frame are one marker). */
    static TreeSet<Long> expectedMarkerFrames() {
        TreeSet<Long> frames = new TreeSet<>();
        plan.get("sections").forEach(s -> frames.add(Math.round(s.get("start").asDouble() * RATE_NUM / RATE_DEN)));
        results.at("/sync/points")
                .forEach(p -> frames.add(
                        Math.min(FRAMES - 1, Math.round(p.get("target").asDouble() * RATE_NUM / RATE_DEN))));
        results.get("markers")
                .forEach(p -> frames.add(Math.round(p.get("target").asDouble() * RATE_NUM / RATE_DEN)));
        assertTrue(
                frames.contains(120L) && frames.contains(240L), "the cuts at frames 120 and 240 are marked: " + frames);
        return frames;
    }

    /** A rational FCPXML time in frames; fails unless it is a whole number of 1001/30000 s frames. */
    static long frames(String time) {
        assertTrue(time.endsWith("s"), time);
        String[] parts = time.substring(0, time.length() - 1).split("/");
        long num = Long.parseLong(parts[0]);
        long den = parts.length == 2 ? Long.parseLong(parts[1]) : 1;
        // time = num/den s; frames = time * 30000/1001 = num * 30000 / (den * 1001)
        long n = num * RATE_NUM;
        long d = den * RATE_DEN;
        assertEquals(0, n % d, time + " is not a whole number of frames at 30000/1001");
        return n / d;
    }

    static String timecode(long frame) {
        long seconds = frame / 30;
        return String.format("%02d:%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60, frame % 30);
    }

    /** The .otio read by the schema alone (no OpenTimelineIO), in the form otio_summary.py prints. */
    static JsonNode javaSummary(JsonNode timeline) {
        var out = Api.JSON.createObjectNode();
        var tracks = out.putArray("tracks");
        JsonNode stack = timeline.get("tracks");
        assertEquals("Stack.1", stack.get("OTIO_SCHEMA").asText());
        double rate =
                stack.at("/children/0/children/0/source_range/duration/rate").asDouble();
        for (JsonNode track : stack.get("children")) {
            assertEquals("Track.1", track.get("OTIO_SCHEMA").asText());
            var t = tracks.addObject()
                    .put("name", track.get("name").asText())
                    .put("kind", track.get("kind").asText());
            var clips = t.putArray("clips");
            double position = 0;
            for (JsonNode clip : track.get("children")) {
                assertEquals("Clip.2", clip.get("OTIO_SCHEMA").asText());
                JsonNode reference = clip.at("/media_references/"
                        + clip.get("active_media_reference_key").asText());
                assertEquals("ExternalReference.1", reference.get("OTIO_SCHEMA").asText());
                double start = frames(clip.at("/source_range/start_time"), rate);
                double duration = frames(clip.at("/source_range/duration"), rate);
                JsonNode available = reference.at("/available_range/duration");
                clips.addObject()
                        .put("name", clip.get("name").asText())
                        .put("start", start)
                        .put("duration", duration)
                        .set(
                                "range_in_track",
                                Api.JSON.createArrayNode().add(position).add(duration));
                ((ObjectNode) clips.get(clips.size() - 1))
                        .put("target_url", reference.get("target_url").asText())
                        .put(
                                "available_seconds",
                                available.get("value").asDouble()
                                        / available.get("rate").asDouble());
                position += duration;
            }
        }
        var markers = out.putArray("markers");
        for (JsonNode m : stack.get("markers")) {
            assertEquals("Marker.2", m.get("OTIO_SCHEMA").asText());
            markers.addObject()
                    .put("name", m.get("name").asText())
                    .put("color", m.get("color").asText())
                    .put("frame", frames(m.at("/marked_range/start_time"), rate))
                    .put("duration", frames(m.at("/marked_range/duration"), rate))
                    .put("kind", m.at("/metadata/scorecast/kind").asText());
        }
        return out;
    }

    private static double frames(JsonNode rationalTime, double rate) {
        assertEquals("RationalTime.1", rationalTime.get("OTIO_SCHEMA").asText());
        double own = rationalTime.get("rate").asDouble();
        // As OpenTimelineIO rescales: a time already at the rate is kept exactly.
        return own == rate
                ? rationalTime.get("value").asDouble()
                : rationalTime.get("value").asDouble() * rate / own;
    }

    /**
     * A check that could not run for want of its tool: said, or a failure where
     * SCORECAST_REQUIRE_TIMELINE_TOOLS is true (a run that must have checked with the editing
     * pipelines' own tools: CI, by default; bin/lib/common.sh ensure_timeline_tools installs them).
     */
    static void missingTool(String what) {
        if (Boolean.parseBoolean(System.getenv("SCORECAST_REQUIRE_TIMELINE_TOOLS"))) {
            fail("SCORECAST_REQUIRE_TIMELINE_TOOLS is true: " + what
                    + "; docs/EDITING.md, \"How the files are checked\", says how to provide it");
        }
        System.out.println("EditorOutputsTest: " + what);
    }

    /** Apple's DTD where SCORECAST_FCPXML_DTD names a copy (it ships inside Final Cut Pro; it is not ours to redistribute). */
    static Optional<Path> appleDtd() {
        return Optional.ofNullable(System.getenv("SCORECAST_FCPXML_DTD"))
                .filter(s -> !s.isBlank())
                .map(Path::of)
                .map(p -> {
                    assertTrue(Files.isRegularFile(p), "SCORECAST_FCPXML_DTD names " + p + ", which is not a file");
                    return p;
                });
    }

    /** A Python with OpenTimelineIO: SCORECAST_OTIO_PYTHON (bin/test sets it when its set-up installed the package). */
    static Optional<Path> otioPython() {
        return Optional.ofNullable(System.getenv("SCORECAST_OTIO_PYTHON"))
                .filter(s -> !s.isBlank())
                .map(Path::of);
    }

    static Path script() throws Exception {
        return Path.of(EditorOutputsTest.class
                .getResource("/interchange/otio_summary.py")
                .toURI());
    }

    /** xmllint's complaints about {@code xml} against {@code dtd}; empty when valid. */
    static String xmllint(Path xml, Path dtd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("xmllint", "--noout", "--nonet", "--dtdvalid", dtd.toString(), xml.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "xmllint ran too long");
        return p.exitValue() == 0 ? out.strip() : "exit " + p.exitValue() + ": " + out;
    }

    static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " ran too long");
        assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + err);
        return out;
    }
}
