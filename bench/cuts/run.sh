#!/usr/bin/env bash
# Cuts felt: scores cuts60.mp4 (make-cuts.sh) with bin/scorecast in each genre (seed 7) and prints,
# per cut, the delivered MP4's rise in level at the cut (measure-cuts.py). Usage: bench/cuts/run.sh [OUT_DIR] [GENRE...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/data/cuts}"
shift || true
genres=("$@")
[ ${#genres[@]} -gt 0 ] || genres=(rock techno pop cinematic)
mkdir -p "$out"
cd "$out"
[ -f cuts60.mp4 ] || "$here/make-cuts.sh" cuts60.mp4
for g in "${genres[@]}"; do
  "$root/bin/scorecast" score cuts60.mp4 -o "$g.mp4" --genre "$g" --seed 7 > "$g.log" 2>&1
  python3 "$here/measure-cuts.py" "$g-outputs"
done
