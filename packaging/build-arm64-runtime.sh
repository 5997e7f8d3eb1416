#!/usr/bin/env bash
# Builds the Java runtime shipped to a Raspberry Pi (aarch64) with `spectrum flash --runtime DIR`, so
# the board does not need its own Java. Recipe: docs java-toolchain-notes §3 option B and §7: the host's
# jlink links an aarch64 image from Debian's arm64 jmods (jlink only checks the feature version).
#
#   packaging/build-arm64-runtime.sh [OUTDIR]          aarch64 image in OUTDIR/runtime (default build-out/arm64)
#   SPECTRUM_RUNTIME_ARCH=host packaging/build-arm64-runtime.sh OUTDIR
#                                                      same modules from this machine's jmods (a quick local check)
#
# Then: ./spectrum flash --root /mnt/pi --runtime build-out/arm64/runtime
#
# Modules: what jdeps finds in host-app/target/spectrum.jar, minus java.desktop and java.compiler
# (only optional paths of jackson and picocli's annotation processor reach them). Override with
# SPECTRUM_RUNTIME_MODULES=a,b,c. Needs: a JDK 17 (jlink, jdeps); for arm64 also apt-get, dpkg,
# binutils-aarch64-linux-gnu and network access to deb.debian.org (about 71 MB, once).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build-out/arm64}
ARCH=${SPECTRUM_RUNTIME_ARCH:-arm64}
JAR=$ROOT/host-app/target/spectrum.jar
say() { echo "build-arm64-runtime: $*"; }
die() { echo "build-arm64-runtime: $*" >&2; exit 2; }

command -v jlink >/dev/null || die "jlink is not on PATH; install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
[ -f "$JAR" ] || die "$JAR is missing; build it first: mvn -B -DskipTests package (or ./spectrum --version)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -n "${SPECTRUM_RUNTIME_MODULES:-}" ]; then
  MODULES=$SPECTRUM_RUNTIME_MODULES
else
  MODULES=$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 "$JAR" \
            | tr ',' '\n' | grep -vx -e java.desktop -e java.compiler | paste -sd, -)
fi
say "modules: $MODULES"

if [ "$ARCH" = host ]; then
  JMODS=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")/jmods
  [ -d "$JMODS" ] || die "no jmods in $JMODS; install openjdk-17-jdk-headless"
  STRIP_PATH=$PATH
else
  [ "$ARCH" = arm64 ] || die "SPECTRUM_RUNTIME_ARCH must be arm64 or host (was $ARCH)"
  command -v aarch64-linux-gnu-objcopy >/dev/null \
    || die "aarch64-linux-gnu-objcopy is missing; apt-get install binutils-aarch64-linux-gnu"
  A=$OUT/apt
  mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$OUT/debs" "$OUT/xbin"
  touch "$A/state/status"
  cat > "$A/sources.list" <<SRC
deb [arch=arm64] http://deb.debian.org/debian bookworm main
deb [arch=arm64] http://deb.debian.org/debian-security bookworm-security main
deb [arch=arm64] http://deb.debian.org/debian bookworm-updates main
SRC
  APT=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o "Dir::State=$A/state"
       -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" -o "Dir::Etc::SourceList=$A/sources.list"
       -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
  if ! ls "$OUT"/debs/openjdk-17-jdk-headless_*_arm64.deb >/dev/null 2>&1; then
    say "downloading the arm64 JDK (jmods only are used) from deb.debian.org ..."
    apt-get "${APT[@]}" -qq update
    (cd "$OUT/debs" && apt-get "${APT[@]}" -qq download openjdk-17-jdk-headless)
  fi
  rm -rf "$OUT/jdk" && mkdir "$OUT/jdk"
  dpkg -x "$OUT"/debs/openjdk-17-jdk-headless_*_arm64.deb "$OUT/jdk"
  JMODS=$OUT/jdk/usr/lib/jvm/java-17-openjdk-arm64/jmods
  # --strip-debug strips native libraries with the `objcopy` found first on PATH: make it the aarch64 one
  ln -sf "$(command -v aarch64-linux-gnu-objcopy)" "$OUT/xbin/objcopy"
  STRIP_PATH=$OUT/xbin:$PATH
fi

rm -rf "$OUT/runtime"
say "linking $ARCH runtime into $OUT/runtime ..."
PATH=$STRIP_PATH jlink --module-path "$JMODS" --add-modules "$MODULES" \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$OUT/runtime"
say "done: $(du -sh "$OUT/runtime" | cut -f1) in $OUT/runtime"
say "ship it with: ./spectrum flash --root /mnt/pi --runtime $OUT/runtime"
