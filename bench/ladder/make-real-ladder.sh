#!/usr/bin/env bash
# The speed ladder of issue 26 on real footage: OpenCV's vtest.avi (pedestrians crossing a plaza,
# 768x576, 10 fps, 79.5 s; shipped in Debian's opencv-doc package, Apache-2.0 AND BSD-3-Clause per
# its copyright file) at four speeds, in the same order as make-ladder.sh: still (one frame held),
# slow (2 s of footage stretched to 10 s), normal (10 s), fast (60 s squeezed into 10 s). Each scene
# starts at another point of the footage and alternate scenes are hue-rotated, so each boundary is
# a hard cut. Usage: make-real-ladder.sh OUT.mp4 [SOURCE]
set -euo pipefail
out=${1:-real-ladder.mp4}
src=${2:-}
if [ -z "$src" ]; then
  src=$PWD/vtest.avi
  if [ ! -f "$src" ]; then
    tmp=$(mktemp -d)
    (cd "$tmp" && apt-get download opencv-doc >/dev/null && dpkg -x opencv-doc_*.deb x)
    cp "$tmp/x/usr/share/doc/opencv-doc/examples/data/vtest.avi" "$src"
    rm -rf "$tmp"
  fi
fi
seg() { # name speed start hue
  local name=$1 speed=$2 start=$3 hue=$4 vf
  case $speed in
    still)  vf="select=eq(n\,0),loop=loop=299:size=1:start=0,setpts=N/30/TB" ;;
    slow)   vf="setpts=5*PTS" ;;
    normal) vf="setpts=PTS" ;;
    fast)   vf="setpts=PTS/6" ;;
  esac
  ffmpeg -v error -y -ss "$start" -i "$src" -vf "$vf,fps=30,scale=640:480,hue=h=$hue,format=yuv420p" \
    -frames:v 300 -an -c:v libx264 -preset ultrafast -crf 18 "$name"
}
seg r0.mp4 still 3 0; seg r1.mp4 normal 10 90; seg r2.mp4 slow 22 0; seg r3.mp4 fast 0 90
seg r4.mp4 normal 40 0; seg r5.mp4 still 55 90; seg r6.mp4 fast 15 0; seg r7.mp4 slow 70 90
printf "file '%s'\n" r0.mp4 r1.mp4 r2.mp4 r3.mp4 r4.mp4 r5.mp4 r6.mp4 r7.mp4 > real-list.txt
ffmpeg -v error -y -f concat -safe 0 -i real-list.txt -f lavfi -t 80 -i "anoisesrc=color=pink:amplitude=0.001:sample_rate=48000" -c:v libx264 -preset veryfast -crf 20 -g 60 -c:a aac -shortest "$out"
