#!/usr/bin/env bash
# The speed ladder of issue 26: one moving picture (testsrc2) at four speeds, eight 10 s scenes,
# alternate scenes hue-rotated so each boundary is a hard cut. Order shuffled: the speeds are
# not monotonic in time.
set -euo pipefail
out=${1:-ladder.mp4}
seg() { # name content-rate hue
  local name=$1 rate=$2 hue=$3
  if [ "$rate" = still ]; then
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=640x360:rate=30" -frames:v 1 "$name.png"
    ffmpeg -v error -y -loop 1 -framerate 30 -i "$name.png" -vf "hue=h=$hue,format=yuv420p" -frames:v 300 -c:v libx264 -preset ultrafast -crf 18 "$name"
  else
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=640x360:rate=$rate" -vf "setpts=N/30/TB,hue=h=$hue,format=yuv420p" -r 30 -frames:v 300 -c:v libx264 -preset ultrafast -crf 18 "$name"
  fi
}
seg s0.mp4 still 0; seg s1.mp4 30 90; seg s2.mp4 180 0; seg s3.mp4 6 90
seg s4.mp4 30 0; seg s5.mp4 still 90; seg s6.mp4 6 0; seg s7.mp4 180 90
printf "file '%s'\n" s0.mp4 s1.mp4 s2.mp4 s3.mp4 s4.mp4 s5.mp4 s6.mp4 s7.mp4 > list.txt
ffmpeg -v error -y -f concat -safe 0 -i list.txt -f lavfi -t 80 -i "anoisesrc=color=pink:amplitude=0.001:sample_rate=48000" -c:v libx264 -preset veryfast -crf 20 -g 60 -c:a aac -shortest "$out"
