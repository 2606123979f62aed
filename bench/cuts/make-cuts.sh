#!/usr/bin/env bash
# Issue 14's and 26's "cuts felt" video: 60 s of eleven shots (testsrc2, smptebars, mandelbrot,
# 3.9 to 7.6 s each, so cuts fall on and off the beat), over quiet pink noise. Usage: make-cuts.sh OUT.mp4
set -euo pipefail
out=${1:-cuts60.mp4}
durs=(5.2 4.7 6.1 3.9 7.0 5.5 4.3 6.6 5.0 4.1 7.6)
srcs=(testsrc2 smptebars mandelbrot testsrc2 smptebars mandelbrot testsrc2 smptebars mandelbrot testsrc2 smptebars)
: > cuts-list.txt
for i in "${!durs[@]}"; do
  ffmpeg -v error -y -f lavfi -i "${srcs[$i]}=size=640x360:rate=30" -t "${durs[$i]}" -vf "hue=h=$((i * 37)),format=yuv420p" \
    -c:v libx264 -preset ultrafast -crf 18 "c$i.mp4"
  echo "file 'c$i.mp4'" >> cuts-list.txt
done
ffmpeg -v error -y -f concat -safe 0 -i cuts-list.txt -f lavfi -t 60 -i "anoisesrc=color=pink:amplitude=0.001:sample_rate=48000" \
  -c:v libx264 -preset veryfast -crf 20 -g 60 -c:a aac -shortest "$out"
