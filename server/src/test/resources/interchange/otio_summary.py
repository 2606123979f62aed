"""Reads a .otio file with OpenTimelineIO itself and prints what EditorOutputsTest checks, as JSON.

Run by the test as: PYTHON otio_summary.py FILE. Every time is given in frames of the timeline's
video rate (OpenTimelineIO's own rescaling), so the test compares whole numbers.
"""
import json
import sys

import opentimelineio as otio

timeline = otio.adapters.read_from_file(sys.argv[1])
video_track = timeline.video_tracks()[0]
rate = video_track[0].source_range.duration.rate


def frames(t):
    return t.rescaled_to(rate).value


summary = {
    "otio_version": otio.__version__,
    "name": timeline.name,
    "rate": rate,
    "duration": frames(timeline.duration()),
    "tracks": [],
    "markers": [],
}
for track in timeline.tracks:
    clips = []
    for clip in track.find_clips():
        ref = clip.media_reference
        clips.append({
            "name": clip.name,
            "start": frames(clip.source_range.start_time),
            "duration": frames(clip.source_range.duration),
            "range_in_track": [frames(clip.range_in_parent().start_time), frames(clip.range_in_parent().duration)],
            "target_url": ref.target_url,
            "available_seconds": ref.available_range.duration.to_seconds(),
        })
    summary["tracks"].append({"name": track.name, "kind": track.kind, "clips": clips})
for marker in timeline.tracks.markers:
    summary["markers"].append({
        "name": marker.name,
        "color": marker.color,
        "frame": frames(marker.marked_range.start_time),
        "duration": frames(marker.marked_range.duration),
        "kind": marker.metadata.get("scorecast", {}).get("kind"),
    })
# What OpenTimelineIO writes back must read again the same: the file is in its own schema.
again = otio.adapters.read_from_string(otio.adapters.write_to_string(timeline, "otio_json"), "otio_json")
summary["round_trip_equal"] = again.is_equivalent_to(timeline)
print(json.dumps(summary))
