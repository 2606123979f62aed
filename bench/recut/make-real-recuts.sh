#!/usr/bin/env bash
# Issue 27's re-cuts on real footage: a 48.2 s first cut of nine shots with hard cuts, from the three
# clips Debian's opencv-doc package ships (OpenCV's samples/data, Apache-2.0 AND BSD-3-Clause per its
# copyright file's "Files: *"; NOTICE): vtest.avi (pedestrians crossing a plaza, a fixed camera, 768x576,
# 10 fps), Megamind.avi (a film excerpt of four shots, 720x528, 23.976 fps) and tree.avi (a tree through
# a window, a hand comes in at the end, 320x240, 15 fps); then the five re-cuts an editor makes of it,
# each exported afresh from the clips as an editing program would (a new encode, not a copy):
#   remove  the fifth shot (vtest, 7 s) taken out
#   trim    1.4 s off the third shot's head, 1.8 s off the eighth's tail
#   swap    the fourth and fifth shots change places
#   insert  a new 4 s shot (vtest at 20 s, footage the first cut never used) after the sixth
#   fps     the first cut at 25 fps and 960x540 instead of 30 fps and 640x360
# Every shot is scaled to fill 16:9 and centre-cropped; every length is a multiple of 0.2 s, whole
# frames at both rates. The videos have no sound (the music is what is measured). Beside each NAME.mp4,
# NAME.shots lists its shots (clip, start, length), one a line, for the measure (RealRecutBench).
# Usage: make-real-recuts.sh OUT_DIR [CLIPS_DIR]   (CLIPS_DIR holds the three .avi; fetched if absent)
set -euo pipefail
out=${1:?usage: make-real-recuts.sh OUT_DIR [CLIPS_DIR]}
clips=${2:-$out/clips}
mkdir -p "$out" "$clips"
out=$(cd "$out" && pwd)
clips=$(cd "$clips" && pwd)
if [ ! -f "$clips/vtest.avi" ] || [ ! -f "$clips/Megamind.avi" ] || [ ! -f "$clips/tree.avi" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download opencv-doc >/dev/null 2>&1 && dpkg -x opencv-doc_*.deb x)
  for f in vtest.avi Megamind.avi tree.avi; do
    cp "$tmp/x/usr/share/doc/opencv-doc/examples/data/$f" "$clips/$f"
  done
  dpkg-deb -f "$tmp"/opencv-doc_*.deb Version > "$clips/opencv-doc.version"
  rm -rf "$tmp"
fi
# The clips docs/EDITING.md was measured on (Debian 12's opencv-doc 4.6.0+dfsg-12); another package
# version may bring other files, and other figures.
(cd "$clips" && sha256sum --check --quiet) <<'SUMS' || echo "make-real-recuts.sh: these are not the clips docs/EDITING.md measured" >&2
45cddc9490be69345cbdab64ca583be65987e864ca408038e648db99e10516cf  vtest.avi
0057387cb7e75c8fd1663b62cfdc51fa53f527795d0fe3c1fea2fd159d3130b5  Megamind.avi
4666099d0f704e310047b2f0a5ec9f936cb76a7271de9a2e70a0c57f82ac82dc  tree.avi
SUMS

# The first cut's shots: clip, start in the clip (s), length (s).
first=(
  "vtest 5.0 6.0"       # S1 the plaza
  "Megamind 0.2 3.8"    # S2 her, at the table
  "tree 3.0 6.0"        # S3 the tree
  "Megamind 8.6 2.6"    # S4 his close-up
  "vtest 35.0 7.0"      # S5 the plaza, later
  "tree 11.0 6.0"       # S6 the tree, later
  "Megamind 4.2 4.0"    # S7 him over her shoulder, then her over his (the film's own cut at 2.26 s)
  "vtest 60.0 7.0"      # S8 the plaza, later still
  "tree 18.0 5.8"       # S9 the tree, later still (before the hand that comes in at 24 s)
)

shot() { # clip start length fps size out
  local clip=$1 start=$2 length=$3 fps=$4 size=$5 file=$6 frames
  frames=$(awk -v l="$length" -v r="$fps" 'BEGIN { printf "%d", l * r + 0.5 }')
  # -ss after -i: FFmpeg decodes from the clip's start and drops what comes before, frame-exact. Before
  # -i it seeks in the file, which for tree.avi lands up to 0.27 s off the time asked (3.267 s for 3.0,
  # 4.467 s for 4.4), so the shot lists the measure checks the footage against would be wrong.
  ffmpeg -v error -y -i "$clips/$clip.avi" -ss "$start" \
    -vf "fps=$fps,scale=$size:force_original_aspect_ratio=increase,crop=$size,setsar=1,format=yuv420p" \
    -frames:v "$frames" -an -c:v libx264 -preset veryfast -crf 18 "$file"
}

cut() { # name fps WxH shot...
  local name=$1 fps=$2 size=$3 i=0 dir inputs=() labels=""
  shift 3
  dir=$(mktemp -d)
  for s in "$@"; do
    read -r clip start length <<< "$s"
    shot "$clip" "$start" "$length" "$fps" "${size/x/:}" "$dir/$i.mp4"
    inputs+=(-i "$dir/$i.mp4")
    labels+="[$i:v]"
    i=$((i + 1))
  done
  # The concat filter, not the demuxer: it joins the shots frame for frame (the demuxer pads each to its
  # container's duration, a frame more here and there).
  ffmpeg -v error -y "${inputs[@]}" -filter_complex "${labels}concat=n=$i:v=1:a=0[v]" -map "[v]" \
    -c:v libx264 -preset veryfast -crf 20 -g 60 "$out/$name.mp4"
  rm -rf "$dir"
  # What the cut is made of, for the measure to know which footage each moment shows.
  printf "%s\n" "$@" > "$out/$name.shots"
}

S=("${first[@]}")
cut first 30 640x360 "${S[@]}"
cut remove 30 640x360 "${S[0]}" "${S[1]}" "${S[2]}" "${S[3]}" "${S[5]}" "${S[6]}" "${S[7]}" "${S[8]}"
cut trim 30 640x360 "${S[0]}" "${S[1]}" "tree 4.4 4.6" "${S[3]}" "${S[4]}" "${S[5]}" "${S[6]}" "vtest 60.0 5.2" "${S[8]}"
cut swap 30 640x360 "${S[0]}" "${S[1]}" "${S[2]}" "${S[4]}" "${S[3]}" "${S[5]}" "${S[6]}" "${S[7]}" "${S[8]}"
cut insert 30 640x360 "${S[0]}" "${S[1]}" "${S[2]}" "${S[3]}" "${S[4]}" "${S[5]}" "vtest 20.0 4.0" "${S[6]}" "${S[7]}" "${S[8]}"
cut fps 25 960x540 "${S[@]}"
