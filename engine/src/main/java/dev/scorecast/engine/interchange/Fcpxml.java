package dev.scorecast.engine.interchange;

import java.util.List;

/**
 * A {@link Timeline} as FCPXML 1.10, the version Final Cut Pro 10.6 and DaVinci Resolve 18 import:
 * one event holding one project whose sequence has the video on the primary storyline (its picture
 * only: the scored video's own sound is the mix the stems make up), each stem anchored under it on
 * lane -1, -2, ... from its first frame, and a marker at every section start and accent. Every time
 * is a whole number of frames in rational seconds ({@code 1001/30000s}), so nothing lands between
 * frames; audio assets keep their exact length in samples. Media are named by URLs relative to the
 * FCPXML file, which FCPXML allows: keep the files together as downloaded.
 *
 * <p>The element order and attributes follow Apple's DTD for 1.10 (the tests validate against it).
 */
public final class Fcpxml {
    public static final String VERSION = "1.10";

    private Fcpxml() {}

    public static String write(Timeline timeline) {
        Timeline.Video video = timeline.video();
        FrameRate rate = video.rate();
        String duration = rate.fcpxmlTime(video.frames());
        Xml x = new Xml();
        x.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE fcpxml>\n");
        x.open("fcpxml", "version", VERSION);
        x.open("resources");
        x.empty(
                "format",
                "id",
                "r1",
                "frameDuration",
                rate.frameDuration(),
                "width",
                Integer.toString(video.width()),
                "height",
                Integer.toString(video.height()));
        x.open(
                "asset",
                "id",
                "r2",
                "name",
                video.name(),
                "start",
                "0s",
                "duration",
                duration,
                "hasVideo",
                "1",
                "format",
                "r1");
        x.empty("media-rep", "kind", "original-media", "src", video.url());
        x.close("asset");
        List<Timeline.Lane> lanes = timeline.lanes();
        for (int i = 0; i < lanes.size(); i++) {
            Timeline.Lane lane = lanes.get(i);
            x.open(
                    "asset",
                    "id",
                    "r" + (3 + i),
                    "name",
                    lane.name(),
                    "start",
                    "0s",
                    "duration",
                    FrameRate.rational(lane.samples(), lane.sampleRate()),
                    "hasAudio",
                    "1",
                    "audioSources",
                    "1",
                    "audioChannels",
                    "2",
                    "audioRate",
                    Integer.toString(lane.sampleRate()));
            x.empty("media-rep", "kind", "original-media", "src", lane.url());
            x.close("asset");
        }
        x.close("resources");
        x.open("event", "name", "Scorecast");
        x.open("project", "name", timeline.title());
        x.open(
                "sequence",
                "format",
                "r1",
                "duration",
                duration,
                "tcStart",
                "0s",
                "tcFormat",
                "NDF",
                "audioLayout",
                "stereo",
                "audioRate",
                "48k");
        x.open("spine");
        x.open(
                "asset-clip",
                "ref",
                "r2",
                "offset",
                "0s",
                "name",
                video.name(),
                "start",
                "0s",
                "duration",
                duration,
                "srcEnable",
                "video",
                "tcFormat",
                "NDF");
        for (int i = 0; i < lanes.size(); i++) {
            Timeline.Lane lane = lanes.get(i);
            // A lane as long as the picture, on its frames; the asset itself keeps its exact sample count.
            long frames = Math.min(
                    video.frames(), Math.max(1, lane.samples() * rate.num() / (rate.den() * lane.sampleRate())));
            x.empty(
                    "asset-clip",
                    "ref",
                    "r" + (3 + i),
                    "lane",
                    Integer.toString(-(i + 1)),
                    "offset",
                    "0s",
                    "name",
                    lane.name(),
                    "start",
                    "0s",
                    "duration",
                    rate.fcpxmlTime(frames),
                    "audioRole",
                    lane.role().fcpxml());
        }
        for (Timeline.Marker marker : timeline.markers()) {
            // The clip starts at 0s in its own time, so a marker's start there is its time on the timeline.
            x.empty(
                    "marker",
                    "start",
                    rate.fcpxmlTime(marker.frame()),
                    "duration",
                    rate.fcpxmlTime(1),
                    "value",
                    marker.name(),
                    "note",
                    marker.note());
        }
        x.close("asset-clip");
        x.close("spine");
        x.close("sequence");
        x.close("project");
        x.close("event");
        x.close("fcpxml");
        return x.toString();
    }

    /** Just enough of an XML writer: indented elements, attributes in the order given, escaped. */
    private static final class Xml {
        private final StringBuilder out = new StringBuilder(4096);
        private int depth;

        void raw(String text) {
            out.append(text);
        }

        void open(String name, String... attributes) {
            start(name, attributes);
            out.append(">\n");
            depth++;
        }

        void empty(String name, String... attributes) {
            start(name, attributes);
            out.append("/>\n");
        }

        void close(String name) {
            depth--;
            out.append("    ".repeat(depth)).append("</").append(name).append(">\n");
        }

        private void start(String name, String... attributes) {
            out.append("    ".repeat(depth)).append('<').append(name);
            for (int i = 0; i + 1 < attributes.length; i += 2) {
                if (attributes[i + 1] != null) {
                    out.append(' ')
                            .append(attributes[i])
                            .append("=\"")
                            .append(escape(attributes[i + 1]))
                            .append('"');
                }
            }
        }

        static String escape(String value) {
            StringBuilder s = new StringBuilder(value.length());
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '&' -> s.append("&amp;");
                    case '<' -> s.append("&lt;");
                    case '>' -> s.append("&gt;");
                    case '"' -> s.append("&quot;");
                    case '\n' -> s.append("&#10;");
                    case '\t' -> s.append("&#9;");
                    default -> {
                        // XML 1.0 has no place for other control characters: a client's title may hold any.
                        if (c >= 0x20 || c == '\r') {
                            s.append(c == '\r' ? "&#13;" : String.valueOf(c));
                        }
                    }
                }
            }
            return s.toString();
        }

        @Override
        public String toString() {
            return out.toString();
        }
    }
}
