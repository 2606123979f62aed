#!/usr/bin/env bash
# Issue 27's re-cuts on real footage, as an editor makes them (docs/EDITING.md, "Real footage"):
# builds a 48.2 s first cut of OpenCV's sample clips and its five re-cuts (make-real-recuts.sh; the
# clips come from Debian's opencv-doc package), scores the first cut with `bin/scorecast score`,
# conforms every re-cut to it with `bin/scorecast conform OLD-outputs/ NEW.mp4 -o NEW-scored.mp4`,
# and measures each as ConformTest does (RealRecutBench, on RecutMeasure): the kept shots' music
# (correlation with the first render after aligning by the shot's offset: 250 ms windows at 0.99 or
# more over at least 80 % of each kept span away from its joins, the bar across a join being the
# join's), each span against the footage it really shows, every
# cut of the new video struck within a frame, the music ending on the last frame, no click at a
# splice. Exits 1 naming every goal not met.
# Usage: bench/recut/run.sh [OUT_DIR] [GENRE] [SEED]   (default data/recut, pop, 11: ConformTest's)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/data/recut}"
genre="${2:-pop}"
seed="${3:-11}"
source "$root/bin/lib/common.sh"
find_java
recuts=(remove trim swap insert fps)
mkdir -p "$out"
out="$(cd "$out" && pwd)"
missing=0
for name in first "${recuts[@]}"; do
  [ -f "$out/$name.mp4" ] && [ -f "$out/$name.shots" ] || missing=1
done
[ "$missing" = 0 ] || "$here/make-real-recuts.sh" "$out"

cd "$out"
start=$(date +%s)
"$root/bin/scorecast" score first.mp4 -o first-scored.mp4 --genre "$genre" --seed "$seed" > first-score.log 2>&1 \
  || { cat first-score.log >&2; exit 1; }
for name in "${recuts[@]}"; do
  # A re-cut the conform refuses is a goal not met: the measure names it with the conform's message.
  rm -rf "$name-scored-outputs"
  "$root/bin/scorecast" conform first-scored-outputs "$name.mp4" -o "$name-scored.mp4" > "$name-conform.log" 2> "$name-conform.err" \
    || echo "scorecast conform $name.mp4 failed; see $out/$name-conform.err" >&2
done
echo "scored and conformed in $(($(date +%s) - start)) s"
# bin/scorecast runs server/target/scorecast-server.jar with the engine jar its build copied into
# server/target/lib: say so if that is not this checkout's engine build (a build of the server alone
# takes the engine from the Maven repository, which may hold another checkout's).
cmp -s "$root/server/target/lib/scorecast-engine-"*.jar "$root/engine/target/scorecast-engine-"*.jar \
  || echo "bench/recut/run.sh: the server's engine jar is not engine/target's; build the whole reactor (mvn -DskipTests install)" >&2

# The measure runs from the server's test classes (RecutMeasure is the tests' own measure), which
# bin/scorecast's build compiled with the jar; the jar's manifest brings the engine and the libraries.
# The first cut (S1..S9, with Megamind's own cut inside S7) shows 10 shots to the analysis; each
# re-cut's spans: remove drops S5; trim shortens S3 and S8 (their cut-off ends are removed spans);
# swap moves one of S4 and S5; insert adds one new shot; fps keeps every one.
[ -f "$root/server/target/test-classes/dev/scorecast/server/RealRecutBench.class" ] \
  || { echo "bench/recut/run.sh: no server test classes; build with mvn -DskipTests install (not -Dmaven.test.skip)" >&2; exit 1; }
"$JAVA_HOME/bin/java" \
  -cp "$root/server/target/test-classes:$root/server/target/scorecast-server.jar" dev.scorecast.server.RealRecutBench "$out" \
  remove:removed=1,new=0,moved=0 trim:trimmed=2,new=0,moved=0 swap:moved=1,removed=0,new=0 insert:new=1,removed=0,moved=0 \
  fps:kept=10,trimmed=0,moved=0,removed=0,new=0
