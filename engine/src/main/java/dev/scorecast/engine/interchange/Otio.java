package dev.scorecast.engine.interchange;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.scorecast.engine.io.Json;
import java.util.Locale;

/**
 * A {@link Timeline} as OpenTimelineIO JSON ({@code .otio}, the schema of OpenTimelineIO 0.15 to
 * 0.18: {@code Timeline.1}, {@code Stack.1}, {@code Track.1}, {@code Clip.2},
 * {@code ExternalReference.1}, {@code Marker.2}): a video track holding the video, one audio track
 * per stem, and the markers on the timeline's stack. Times are {@code RationalTime}s in frames at
 * the video's rate (an audio file's own length in samples at its sample rate), so OTIO's
 * arithmetic gives whole frames back. DaVinci Resolve, Premiere (through OTIO), Nuke and any
 * pipeline tool open it.
 */
public final class Otio {
    private static final ObjectMapper JSON = Json.indented();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Otio() {}

    public static String write(Timeline timeline) {
        Timeline.Video video = timeline.video();
        double rate = video.rate().fps();
        ObjectNode root = object("Timeline.1", timeline.title());
        root.set("global_start_time", time(0, rate));
        ObjectNode stack = object("Stack.1", "tracks");
        stack.putNull("source_range");
        stack.set("effects", NODES.arrayNode());
        ArrayNode markers = stack.putArray("markers");
        stack.put("enabled", true);
        ArrayNode tracks = stack.putArray("children");

        ObjectNode videoTrack = track("Video", "Video");
        ObjectNode picture =
                clip(video.name(), range(0, video.frames(), rate), video.url(), range(0, video.frames(), rate));
        ((ArrayNode) videoTrack.get("children")).add(picture);
        tracks.add(videoTrack);
        for (Timeline.Lane lane : timeline.lanes()) {
            ObjectNode track = track(lane.name(), "Audio");
            long frames = Math.min(
                    video.frames(),
                    Math.max(
                            1,
                            lane.samples() * video.rate().num() / (video.rate().den() * lane.sampleRate())));
            ObjectNode audio =
                    clip(lane.name(), range(0, frames, rate), lane.url(), range(0, lane.samples(), lane.sampleRate()));
            ((ObjectNode) audio.get("metadata"))
                    .putObject("scorecast")
                    .put("role", lane.role().fcpxml());
            ((ArrayNode) track.get("children")).add(audio);
            tracks.add(track);
        }
        for (Timeline.Marker m : timeline.markers()) {
            ObjectNode marker = object("Marker.2", m.name());
            marker.set("marked_range", range(m.frame(), 1, rate));
            marker.put("color", m.kind().otioColor());
            marker.put("comment", m.note() == null ? "" : m.note());
            ((ObjectNode) marker.get("metadata"))
                    .putObject("scorecast")
                    .put("kind", m.kind().name().toLowerCase(Locale.ROOT));
            markers.add(marker);
        }
        root.set("tracks", stack);
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree of plain nodes always writes", e);
        }
    }

    private static ObjectNode track(String name, String kind) {
        ObjectNode track = object("Track.1", name);
        track.putNull("source_range");
        track.set("effects", NODES.arrayNode());
        track.set("markers", NODES.arrayNode());
        track.put("enabled", true);
        track.putArray("children");
        track.put("kind", kind);
        return track;
    }

    private static ObjectNode clip(String name, ObjectNode sourceRange, String url, ObjectNode availableRange) {
        ObjectNode clip = object("Clip.2", name);
        clip.set("source_range", sourceRange);
        clip.set("effects", NODES.arrayNode());
        clip.set("markers", NODES.arrayNode());
        clip.put("enabled", true);
        ObjectNode reference = object("ExternalReference.1", "");
        reference.set("available_range", availableRange);
        reference.putNull("available_image_bounds");
        reference.put("target_url", url);
        clip.putObject("media_references").set("DEFAULT_MEDIA", reference);
        clip.put("active_media_reference_key", "DEFAULT_MEDIA");
        return clip;
    }

    private static ObjectNode object(String schema, String name) {
        ObjectNode node = NODES.objectNode();
        node.put("OTIO_SCHEMA", schema);
        node.putObject("metadata");
        node.put("name", name);
        return node;
    }

    private static ObjectNode range(long start, long duration, double rate) {
        ObjectNode range = NODES.objectNode();
        range.put("OTIO_SCHEMA", "TimeRange.1");
        range.set("duration", time(duration, rate));
        range.set("start_time", time(start, rate));
        return range;
    }

    private static ObjectNode time(long value, double rate) {
        ObjectNode time = NODES.objectNode();
        time.put("OTIO_SCHEMA", "RationalTime.1");
        time.put("rate", rate);
        time.put("value", (double) value);
        return time;
    }
}
