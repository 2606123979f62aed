package dev.scorecast.engine.interchange;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What an editing program needs to rebuild an execution: the scored video on the main track, each
 * stem on a lane of its own under it from the first frame, and markers at every section start and
 * accent. Everything is counted in frames of the video's {@link FrameRate}, so the FCPXML and the
 * OpenTimelineIO written from it agree to the frame; audio lengths are in samples. Files are
 * named by URLs relative to the timeline file ({@code ./video.mp4}, {@code ./stems/bass.wav}).
 *
 * @param title   the project's name in the editing program
 * @param video   the picture
 * @param lanes   audio under the picture, top to bottom
 * @param markers in time order
 */
public record Timeline(String title, Video video, List<Lane> lanes, List<Marker> markers) {

    public Timeline {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(video, "video");
        lanes = List.copyOf(lanes);
        markers =
                markers.stream().sorted(Comparator.comparingLong(Marker::frame)).toList();
        for (Marker m : markers) {
            if (m.frame() < 0 || m.frame() >= video.frames()) {
                throw new IllegalArgumentException("marker '" + m.name() + "' at frame " + m.frame()
                        + " is outside the video's " + video.frames() + " frames");
            }
        }
    }

    /** The picture: {@code frames} frames at {@code rate}, {@code width} x {@code height} as displayed. */
    public record Video(String name, String url, FrameRate rate, long frames, int width, int height) {
        public Video {
            Objects.requireNonNull(rate, "rate");
            if (frames < 1 || width < 1 || height < 1) {
                throw new IllegalArgumentException("a video has at least one frame and a size");
            }
        }
    }

    /** One stereo WAV of {@code samples} samples at {@code sampleRate}, from the first frame; {@code role} music or dialogue. */
    public record Lane(String name, String url, long samples, int sampleRate, Role role) {
        public Lane {
            if (samples < 1 || sampleRate < 1) {
                throw new IllegalArgumentException("lane " + name + " is empty");
            }
        }
    }

    /** What a lane holds, as editing programs sort audio: FCP's roles, OpenTimelineIO's metadata. */
    public enum Role {
        MUSIC,
        DIALOGUE;

        public String fcpxml() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A moment on the timeline: {@code name} is what the editing program shows, {@code note} the detail. */
    public record Marker(long frame, Kind kind, String name, String note) {}

    /** Where a marker comes from; editing programs colour them by it. */
    public enum Kind {
        /** A section of the plan starts here. */
        SECTION,
        /** The music strikes here (a hit or an accent of the sync report). */
        ACCENT,
        /** The editor's own marker, sent with the plan's request. */
        EDITOR;

        /** OpenTimelineIO's marker colour. */
        public String otioColor() {
            return switch (this) {
                case SECTION -> "GREEN";
                case ACCENT -> "RED";
                case EDITOR -> "BLUE";
            };
        }
    }
}
