#!/usr/bin/env bash
# Builds the aarch64 Java runtime for a Raspberry Pi: the one shipped with `spectrum flash --runtime DIR`
# (so the board needs no Java of its own) and the one the HIL suite runs an emulated board on.
# Recipe: java-toolchain-notes §3 option B and §7: the host's jlink links an aarch64 image from Debian's
# arm64 jmods (jlink only checks the feature version).
#
#   packaging/build-arm64-runtime.sh [OUTDIR]          aarch64 image in OUTDIR/runtime (default build-out/arm64)
#   SPECTRUM_RUNTIME_ARCH=host packaging/build-arm64-runtime.sh OUTDIR
#                                                      same modules from this machine's jmods (a quick local check)
#   SPECTRUM_QEMU_WRAPPER=1 packaging/build-arm64-runtime.sh OUTDIR
#                                                      also a light arm64 sysroot and OUTDIR/bin/java, a wrapper that
#                                                      runs the image under qemu-aarch64-static on this machine
#
# Then: ./spectrum flash --root /mnt/pi --runtime build-out/arm64/runtime
#
# Modules: what jdeps finds in the board bundle (board/target/spectrum-board-*-bundle.jar: the board
# main, runtime, NARROW core, links and jSerialComm). Override with
# SPECTRUM_RUNTIME_MODULES=a,b,c (then the jar is not needed). Needs: a JDK 17 (jlink, jdeps); for arm64
# also apt-get, dpkg, binutils-aarch64-linux-gnu and network access to Debian's archive (about 71 MB,
# once: the downloaded .debs are kept in OUTDIR/debs). Nothing in /etc/apt is touched: a private apt
# configuration downloads only the arm64 packages named here.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build-out/arm64}
ARCH=${SPECTRUM_RUNTIME_ARCH:-arm64}
WRAPPER=${SPECTRUM_QEMU_WRAPPER:-0}
JAR=$(ls "$ROOT"/board/target/spectrum-board-*-bundle.jar 2>/dev/null | head -n 1 || true)
JAR=${JAR:-$ROOT/board/target/spectrum-board-bundle.jar}
say() { echo "build-arm64-runtime: $*"; }
die() { echo "build-arm64-runtime: $*" >&2; exit 2; }

command -v jlink >/dev/null || die "jlink is not on PATH; install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -n "${SPECTRUM_RUNTIME_MODULES:-}" ]; then
  MODULES=$SPECTRUM_RUNTIME_MODULES
else
  [ -f "$JAR" ] || die "$JAR is missing; build it first: mvn -B -DskipTests package (or ./spectrum --version)"
  MODULES=$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 "$JAR" \
            | tr ',' '\n' | grep -vx -e java.desktop -e java.compiler | paste -sd, -)
fi
STAMP="$ARCH $WRAPPER $MODULES"

# cached: the same request was built before and its java still answers
if [ -f "$OUT/.built" ] && [ "$(cat "$OUT/.built")" = "$STAMP" ]; then
  probe=$OUT/runtime/bin/java
  [ "$WRAPPER" = 1 ] && probe=$OUT/bin/java
  if "$probe" -version >/dev/null 2>&1; then
    say "ready (cached): $probe"
    exit 0
  fi
fi
say "modules: $MODULES"

if [ "$ARCH" = host ]; then
  [ "$WRAPPER" = 1 ] && die "SPECTRUM_QEMU_WRAPPER=1 needs SPECTRUM_RUNTIME_ARCH=arm64"
  JMODS=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")/jmods
  [ -d "$JMODS" ] || die "no jmods in $JMODS; install openjdk-17-jdk-headless"
  STRIP_PATH=$PATH
else
  [ "$ARCH" = arm64 ] || die "SPECTRUM_RUNTIME_ARCH must be arm64 or host (was $ARCH)"
  command -v aarch64-linux-gnu-objcopy >/dev/null \
    || die "aarch64-linux-gnu-objcopy is missing; apt-get install binutils-aarch64-linux-gnu"
  if [ "$WRAPPER" = 1 ]; then
    command -v qemu-aarch64-static >/dev/null || die "qemu-aarch64-static is missing; apt-get install qemu-user-static"
  fi
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
  # the JDK for its jmods; with the wrapper also what the dynamic loader and libjvm.so need
  SYSROOT_DEBS=(libc6 libgcc-s1 libstdc++6 zlib1g)
  DEBS=(openjdk-17-jdk-headless)
  [ "$WRAPPER" = 1 ] && DEBS+=("${SYSROOT_DEBS[@]}")
  missing=()
  for d in "${DEBS[@]}"; do ls "$OUT"/debs/"${d}"_*_arm64.deb >/dev/null 2>&1 || missing+=("$d"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "downloading arm64 packages: ${missing[*]}"
    apt-get "${APT[@]}" -qq update
    (cd "$OUT/debs" && apt-get "${APT[@]}" -qq download "${missing[@]}")
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
rm -rf "$OUT/jdk"   # only the jmods were needed; the .debs stay for rebuilds

if [ "$WRAPPER" = 1 ]; then
  rm -rf "$OUT/sysroot" "$OUT/bin" && mkdir -p "$OUT/sysroot" "$OUT/bin"
  for d in "${SYSROOT_DEBS[@]}"; do dpkg -x "$OUT"/debs/"${d}"_*_arm64.deb "$OUT/sysroot"; done
  # named "java" so it stands in wherever a java executable is expected
  cat > "$OUT/bin/java" <<WRAP
#!/bin/sh
exec $(command -v qemu-aarch64-static) -L "$OUT/sysroot" "$OUT/runtime/bin/java" "\$@"
WRAP
  chmod +x "$OUT/bin/java"
  "$OUT/bin/java" -version
  say "emulated java: $OUT/bin/java"
fi
echo "$STAMP" > "$OUT/.built"
say "done: $(du -sh "$OUT/runtime" | cut -f1) in $OUT/runtime"
[ "$WRAPPER" = 1 ] || say "ship it with: ./spectrum flash --root /mnt/pi --runtime $OUT/runtime"
