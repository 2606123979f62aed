#!/usr/bin/env bash
# Issue 26's speed ladder, measured as a video editor would: builds the 80 s ladder video
# (make-ladder.sh), scores it with bin/scorecast in six genres (seed 7) and prints, per speed,
# the delivered audio's loudness (RMS dB away from the cuts) and aubio's onsets per second, and the
# Spearman correlation of the eight scenes' speed with each (measure.py; Debian python3 + numpy,
# aubio-tools). Usage: bench/ladder/run.sh [OUT_DIR] [GENRE...]
# LADDER=real scores the same ladder cut from real footage instead (make-real-ladder.sh: OpenCV's
# vtest.avi from Debian's opencv-doc).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/data/ladder}"
shift || true
genres=("$@")
[ ${#genres[@]} -gt 0 ] || genres=(house cinematic corporate pop orchestral rock)
mkdir -p "$out"
cd "$out"
if [ "${LADDER:-synthetic}" = real ]; then
  video=real-ladder.mp4
  [ -f "$video" ] || "$here/make-real-ladder.sh" "$video"
else
  video=ladder.mp4
  [ -f "$video" ] || "$here/make-ladder.sh" "$video"
fi
for g in "${genres[@]}"; do
  "$root/bin/scorecast" score "$video" -o "$g.mp4" --genre "$g" --seed 7 > "$g.log" 2>&1
  python3 "$here/measure.py" "$g-outputs/audio.wav"
done
