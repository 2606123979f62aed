package dev.scorecast.engine.interchange;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Markers of an FCPXML document (any version from 1.0; Final Cut Pro's and DaVinci Resolve's
 * exports): every {@code marker} and {@code chapter-marker}, placed on the timeline. A marker's
 * {@code start} is in its clip's own time; each clip around it maps that onto its parent's time
 * ({@code offset + (t - start)}), up to the sequence, whose {@code tcStart} is where its timeline
 * begins. Read as a stream, without fetching the DTD or any other entity the file names.
 */
final class FcpxmlMarkers {
    /** Elements that place their content on their parent's timeline: offset (where) and start (from where in their own time). */
    private static final Set<String> TIMED = Set.of(
            "asset-clip",
            "clip",
            "ref-clip",
            "sync-clip",
            "mc-clip",
            "gap",
            "video",
            "audio",
            "title",
            "spine",
            "audition",
            "caption");

    private static final Set<String> MARKERS = Set.of("marker", "chapter-marker");
    private static final Pattern TIME = Pattern.compile("(-?\\d+(?:\\.\\d+)?)(?:/(\\d+))?s");

    private FcpxmlMarkers() {}

    private record Frame(String name, double offset, double start) {}

    static List<MarkerFiles.Found> read(String text) {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        List<MarkerFiles.Found> out = new ArrayList<>();
        Deque<Frame> clips = new ArrayDeque<>();
        double tcStart = 0;
        boolean root = false;
        XMLStreamReader xml = null;
        try {
            xml = factory.createXMLStreamReader(new StringReader(text));
            while (xml.hasNext()) {
                int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String name = xml.getLocalName();
                    int line = xml.getLocation().getLineNumber();
                    if (!root) {
                        if (!name.equals("fcpxml")) {
                            throw new MarkerFormatException(line, null, "the document is <" + name + ">, not <fcpxml>");
                        }
                        root = true;
                    }
                    if (name.equals("sequence")) {
                        tcStart = time(xml.getAttributeValue(null, "tcStart"), 0, line, "tcStart");
                    } else if (TIMED.contains(name)) {
                        clips.push(new Frame(
                                name,
                                time(xml.getAttributeValue(null, "offset"), 0, line, "offset"),
                                time(xml.getAttributeValue(null, "start"), 0, line, "start")));
                    } else if (MARKERS.contains(name)) {
                        String start = xml.getAttributeValue(null, "start");
                        if (start == null) {
                            throw new MarkerFormatException(line, "start", "the " + name + " has no start");
                        }
                        double t = time(start, 0, line, "start");
                        for (Frame clip : clips) { // innermost first
                            t = clip.offset() + (t - clip.start());
                        }
                        out.add(MarkerFiles.Found.atSeconds(
                                t - tcStart,
                                MarkerFiles.kindOf(
                                        xml.getAttributeValue(null, "value"), xml.getAttributeValue(null, "note")),
                                line,
                                "start"));
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT && TIMED.contains(xml.getLocalName())) {
                    clips.pop();
                } else if (event == XMLStreamConstants.END_ELEMENT
                        && xml.getLocalName().equals("sequence")) {
                    tcStart = 0;
                }
            }
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
            String message = e.getMessage() == null
                    ? ""
                    : e.getMessage()
                            .replaceFirst("(?s)^ParseError at \\[row,col\\]:\\[\\d+,\\d+\\]\\s*Message: ", "")
                            .replaceFirst("\\.+$", "");
            throw new MarkerFormatException(line, null, "not well-formed XML: " + message.strip());
        } finally {
            if (xml != null) {
                try {
                    xml.close();
                } catch (XMLStreamException ignored) {
                    // nothing was held open but the string
                }
            }
        }
        return out;
    }

    /** A rational FCPXML time ({@code 1001/30000s}, {@code 5s}, {@code 2.5s}); {@code fallback} when absent. */
    static double time(String value, double fallback, int line, String field) {
        if (value == null) {
            return fallback;
        }
        Matcher m = TIME.matcher(value.strip());
        if (!m.matches()) {
            throw new MarkerFormatException(
                    line, field, "'" + value + "' is not an FCPXML time (rational seconds such as 1001/30000s)");
        }
        double num = Double.parseDouble(m.group(1));
        double den = m.group(2) == null ? 1 : Double.parseDouble(m.group(2));
        if (den == 0) {
            throw new MarkerFormatException(line, field, "'" + value + "' divides by zero");
        }
        return num / den;
    }
}
