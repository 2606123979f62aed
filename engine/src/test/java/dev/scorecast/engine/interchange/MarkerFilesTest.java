package dev.scorecast.engine.interchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.scorecast.engine.error.Unprocessable;
import dev.scorecast.engine.plan.EditorMarker;
import dev.scorecast.engine.plan.EditorMarker.Kind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three marker formats as editing programs export them, written here as they look, and what is wrong with broken ones. */
class MarkerFilesTest {
    static final FrameRate NTSC = new FrameRate(30000, 1001);
    static final FrameRate PAL = new FrameRate(25, 1);

    /** DaVinci Resolve 18, Timeline > Export > Timeline Markers to EDL: an event per marker, the marker under it. */
    static final String RESOLVE_EDL = """
            TITLE: Harbour cut 3
            FCM: NON-DROP FRAME

            001  001      V     C        01:00:04:00 01:00:04:01 01:00:04:00 01:00:04:01 \s
             |C:ResolveColorBlue |M:hit |D:1

            002  001      V     C        01:00:08:00 01:00:08:01 01:00:08:00 01:00:08:01 \s
             |C:ResolveColorRed |M:Drop into chorus |D:1

            003  001      V     C        01:00:12:12 01:00:12:13 01:00:12:12 01:00:12:13 \s
             |C:ResolveColorGreen |M:Mute until the door |D:1

            004  001      V     C        01:00:14:00 01:00:14:01 01:00:14:00 01:00:14:01 \s
             |C:ResolveColorGreen |M:resume |D:1
            """;

    /** An Avid-style EDL of the cut with locators, drop-frame at 29.97. */
    static final String LOCATOR_EDL = """
            TITLE: PROMO_V2
            FCM: DROP FRAME
            001  A001C003 V     C        14:02:11;00 14:02:15;00 01:00:00;00 01:00:04;00
            * FROM CLIP NAME: A001C003_harbour.mov
            * LOC: 01:00:02;00 RED     SWELL
            002  A002C010 V     C        09:12:00;10 09:12:08;10 01:00:04;00 01:00:12;00
            * FROM CLIP NAME: A002C010_boats.mov
            * LOC: 01:00:06;15 YELLOW  stop
            * LOC: 01:00:09;00 YELLOW  start
            """;

    /** Final Cut Pro 10.6 export: markers on clips of the primary storyline and one on an anchored clip, sequence at 01:00:00:00. */
    static final String FCPXML = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE fcpxml>
            <fcpxml version="1.10">
                <resources>
                    <format id="r1" name="FFVideoFormat1080p2997" frameDuration="1001/30000s" width="1920" height="1080" colorSpace="1-1-1 (Rec. 709)"/>
                    <asset id="r2" name="A001C003" uid="8F1E" start="0s" duration="240240/30000s" hasVideo="1" format="r1"/>
                </resources>
                <library location="file:///Users/ed/Movies/Harbour.fcpbundle/">
                    <event name="Harbour" uid="AB12">
                        <project name="Harbour cut 3" uid="CD34" modDate="2026-11-20 10:12:00 +0000">
                            <sequence format="r1" duration="360360/30000s" tcStart="3600s" tcFormat="NDF" audioLayout="stereo" audioRate="48k">
                                <spine>
                                    <asset-clip ref="r2" offset="3600s" name="A001C003" start="30030/30000s" duration="120120/30000s" tcFormat="NDF">
                                        <marker start="90090/30000s" duration="1001/30000s" value="Hit" note="the splash"/>
                                        <chapter-marker start="120120/30000s" duration="1001/30000s" value="swell" posterOffset="11/30s"/>
                                    </asset-clip>
                                    <gap name="Gap" offset="108120120/30000s" start="3600s" duration="120120/30000s">
                                        <asset-clip ref="r2" lane="1" offset="108030030/30000s" name="A001C003" start="0s" duration="60060/30000s">
                                            <marker start="30030/30000s" duration="1001/30000s" value="drop"/>
                                        </asset-clip>
                                    </gap>
                                </spine>
                            </sequence>
                        </project>
                    </event>
                </library>
            </fcpxml>
            """;

    /** Premiere Pro 2024, File > Export > Markers (CSV): tab separated, UTF-16 with a byte order mark. */
    static final String PREMIERE = "Marker Name\tDescription\tIn\tOut\tDuration\tMarker Type\r\n"
            + "\tlogo on screen\t00;00;03;15\t00;00;03;15\t00;00;00;00\tComment\r\n"
            + "Stop\t\t00;00;07;00\t00;00;07;00\t00;00;00;00\tComment\r\n"
            + "Start\tbig reveal, music back\t00;00;10;00\t00;00;10;00\t00;00;00;00\tComment\r\n";

    @Test
    void resolveMarkersToEdl() {
        List<EditorMarker> m = MarkerFiles.read(RESOLVE_EDL.getBytes(StandardCharsets.UTF_8), PAL, 20, "markers_file");
        assertEquals(
                List.of(
                        new EditorMarker(4.0, Kind.HIT),
                        new EditorMarker(8.0, Kind.DROP),
                        new EditorMarker(12.48, Kind.MUTE_UNTIL),
                        new EditorMarker(14.0, Kind.RESUME)),
                m,
                "counted from 01:00:00:00; kinds from the names");
    }

    @Test
    void locatorsInADropFrameEdl() {
        List<EditorMarker> m = MarkerFiles.read(LOCATOR_EDL.getBytes(StandardCharsets.UTF_8), NTSC, 12, "markers_file");
        assertEquals(3, m.size());
        // 01:00:02;00 drop-frame is frame 60 of the timeline: 2.002 s.
        assertEquals(60 * 1001 / 30000.0, m.get(0).time(), 1e-9);
        assertEquals(Kind.SWELL, m.get(0).kind());
        assertEquals(195 * 1001 / 30000.0, m.get(1).time(), 1e-9);
        assertEquals(Kind.STOP, m.get(1).kind());
        assertEquals(Kind.START, m.get(2).kind());
    }

    @Test
    void finalCutProMarkersArePlacedThroughTheirClips() {
        List<EditorMarker> m = MarkerFiles.read(FCPXML.getBytes(StandardCharsets.UTF_8), NTSC, 12.012, "markers_file");
        // On the storyline clip: offset 3600 s (the sequence start) + (3.003 - 1.001) = 2.002 s into the video.
        assertEquals(2.002, m.get(0).time(), 1e-9);
        assertEquals(Kind.HIT, m.get(0).kind());
        assertEquals(3.003, m.get(1).time(), 1e-9);
        assertEquals(Kind.SWELL, m.get(1).kind(), "a chapter marker named swell");
        // Anchored in a gap: 1.001 s into the clip, which sits 1.001 s into the gap's own time (from 3600 s), which
        // sits
        // at 3604.004 s of the sequence: 6.006 s into the video.
        assertEquals(6.006, m.get(2).time(), 1e-9);
        assertEquals(Kind.DROP, m.get(2).kind());
    }

    @Test
    void premiereMarkerListInUtf16Tabs() {
        byte[] text = PREMIERE.getBytes(StandardCharsets.UTF_16LE);
        byte[] file = new byte[text.length + 2];
        file[0] = (byte) 0xff;
        file[1] = (byte) 0xfe;
        System.arraycopy(text, 0, file, 2, text.length);
        List<EditorMarker> m = MarkerFiles.read(file, NTSC, 12.012, "markers_file");
        assertEquals(
                List.of(Kind.HIT, Kind.STOP, Kind.START),
                m.stream().map(EditorMarker::kind).toList(),
                "an unnamed marker is a hit");
        assertEquals(105 * 1001 / 30000.0, m.get(0).time(), 1e-9);
        // Comma separated and UTF-8 reads the same.
        String csv = PREMIERE.replace('\t', ',').replace("big reveal, music back", "\"big reveal, music back\"");
        assertEquals(m, MarkerFiles.read(csv.getBytes(StandardCharsets.UTF_8), NTSC, 12.012, "markers_file"));
    }

    @Test
    void brokenFilesAreRefusedNamingTheLineAndField() {
        assertRefused(
                RESOLVE_EDL.replace("01:00:08:00 01:00:08:01 01:00:08:00", "01:00:08:00 01:00:08:01 01:00:08:99"),
                PAL,
                20,
                "line 7, record in");
        assertRefused(RESOLVE_EDL.replace("002  001      V     C", "002  001      V"), PAL, 20, "line 7, event");
        assertRefused(LOCATOR_EDL.replace("FCM: DROP FRAME", "FCM: SOMETIMES"), NTSC, 12, "line 2, FCM");
        assertRefused(LOCATOR_EDL.replace("01:00:06;15", "01:00:60;15"), NTSC, 12, "line 8, LOC timecode");
        assertRefused(FCPXML.replace("start=\"90090/30000s\"", "start=\"ninety\""), NTSC, 12.012, "line 14, start");
        assertRefused(FCPXML.replace("</spine>", ""), NTSC, 12.012, "line 23: not well-formed XML");
        assertRefused(
                PREMIERE.replace("00;00;07;00\t00;00;07;00", "7 seconds\t00;00;07;00"), NTSC, 12.012, "line 3, In");
        assertRefused(PREMIERE.replace("\tIn\t", "\tStart\t"), NTSC, 12.012, "line 1, In");
        assertRefused("Marker Name,In\n\"hit,00;00;01;00\n", NTSC, 12.012, "line 2, field 1");
        assertRefused("just some text\n", NTSC, 12, "line 1");
        assertRefused(RESOLVE_EDL, PAL, 10, "line 10, record in: the marker at 12.480 s is outside the video");
        assertRefused("TITLE: empty\nFCM: NON-DROP FRAME\n", PAL, 10, "holds no markers");
    }

    private static void assertRefused(String file, FrameRate rate, double duration, String says) {
        Unprocessable e = assertThrows(
                Unprocessable.class,
                () -> MarkerFiles.read(file.getBytes(StandardCharsets.UTF_8), rate, duration, "markers_file"));
        assertEquals("markers_file", e.field());
        assertTrue(e.getMessage().contains(says), e.getMessage());
    }
}
