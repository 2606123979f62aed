package dev.scorecast.engine.interchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** The writers on hand-made timelines: exact rates, frame-exact times, text that cannot break the files. */
class InterchangeWritersTest {

    @Test
    void probedRatesBecomeTheFractionsTheyCameFrom() {
        assertEquals(new FrameRate(30000, 1001), FrameRate.of(30000.0 / 1001));
        assertEquals(new FrameRate(30000, 1001), FrameRate.of(29.98), "a phone's variable rate is NTSC");
        assertEquals(new FrameRate(24000, 1001), FrameRate.of(23.976));
        assertEquals(new FrameRate(60000, 1001), FrameRate.of(59.94));
        assertEquals(new FrameRate(25, 1), FrameRate.of(25));
        assertEquals(new FrameRate(25, 2), FrameRate.of(12.5));
        assertEquals(new FrameRate(15, 1), FrameRate.of(15));
        assertThrows(IllegalArgumentException.class, () -> FrameRate.of(0));
        assertThrows(IllegalArgumentException.class, () -> FrameRate.of(Double.NaN));
    }

    @Test
    void timesAreWholeFramesInRationalSeconds() {
        FrameRate ntsc = new FrameRate(30000, 1001);
        assertEquals("1001/30000s", ntsc.frameDuration());
        assertEquals("1001/30000s", ntsc.fcpxmlTime(1));
        assertEquals("1001/250s", ntsc.fcpxmlTime(120));
        assertEquals("0s", ntsc.fcpxmlTime(0));
        assertEquals("4s", new FrameRate(25, 1).fcpxmlTime(100));
        assertEquals(120, ntsc.frameAt(4.004));
        assertEquals("00:00:04:00", ntsc.timecode(120));
        assertEquals("01:00:00:05", new FrameRate(25, 1).timecode(90_005));
    }

    @Test
    void textCannotBreakTheXmlAndMarkersStayInsideTheVideo() throws Exception {
        FrameRate rate = new FrameRate(25, 1);
        String title = "Tom & \"Jerry\" <cut 3>\u0001";
        var video = new Timeline.Video(title, "./video.mp4", rate, 100, 1920, 1080);
        var lane = new Timeline.Lane("bass", "./stems/bass.wav", 192_000, 48_000, Timeline.Role.MUSIC);
        var timeline = new Timeline(
                title,
                video,
                List.of(lane),
                List.of(
                        new Timeline.Marker(50, Timeline.Kind.EDITOR, "hit", "line 1\nline 2"),
                        new Timeline.Marker(0, Timeline.Kind.SECTION, "Section 1: intro", null)));
        String xml = Fcpxml.write(timeline);
        var doc = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertEquals(
                "Tom & \"Jerry\" <cut 3>",
                ((Element) doc.getElementsByTagName("project").item(0)).getAttribute("name"));
        var markers = doc.getElementsByTagName("marker");
        assertEquals("0s", ((Element) markers.item(0)).getAttribute("start"), "in time order");
        assertEquals("2s", ((Element) markers.item(1)).getAttribute("start"));
        assertEquals("line 1\nline 2", ((Element) markers.item(1)).getAttribute("note"));
        JsonNode otio = new ObjectMapper().readTree(Otio.write(timeline));
        assertEquals(title, otio.get("name").asText());
        assertEquals(
                50.0, otio.at("/tracks/markers/1/marked_range/start_time/value").asDouble());
        assertEquals("BLUE", otio.at("/tracks/markers/1/color").asText());
        assertEquals(
                25.0,
                otio.at("/tracks/children/1/children/0/source_range/duration/rate")
                        .asDouble());
        assertEquals(
                100.0,
                otio.at("/tracks/children/1/children/0/source_range/duration/value")
                        .asDouble());
        assertEquals(
                192000.0,
                otio.at("/tracks/children/1/children/0/media_references/DEFAULT_MEDIA/available_range/duration/value")
                        .asDouble());
        var outside = assertThrows(
                IllegalArgumentException.class,
                () -> new Timeline(
                        title,
                        video,
                        List.of(),
                        List.of(new Timeline.Marker(100, Timeline.Kind.ACCENT, "late", null))));
        assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
    }

    @Test
    void theCueSheetCsvQuotesWhatNeedsQuoting() {
        var cue = new CueSheet.Cue(
                1,
                "Opening, part \"one\"",
                "BI",
                "00:00:00:00",
                "00:00:04:00",
                "00:00:04:00",
                0,
                4,
                4,
                List.of("beats", "bass"),
                List.of("musescore"));
        var sheet = new CueSheet(
                "Film",
                "./video.mp4",
                "25/1",
                "00:00:04:00",
                4,
                "Scorecast",
                "1.0",
                "abc",
                7,
                List.of(cue),
                List.of(new CueSheet.Source("musescore", "MuseScore General", "Debian", "MIT")));
        String[] lines = sheet.csv().split("\r\n");
        assertEquals(2, lines.length);
        assertEquals(
                "Film,1,\"Opening, part \"\"one\"\"\",BI,00:00:00:00,00:00:04:00,00:00:04:00,0.000,4.000,4.000,beats; bass,"
                        + "Scorecast,MuseScore General (Debian),MIT",
                lines[1]);
        assertTrue(sheet.json().contains("\"in_seconds\" : 0.0"), sheet.json());
    }
}
