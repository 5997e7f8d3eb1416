#!/usr/bin/env bash
# Builds the aarch64 (or 32-bit armhf) Java runtime for a Raspberry Pi: the one shipped with `spectrum flash --runtime DIR`
# (so the board needs no Java of its own) and the one the HIL suite runs an emulated board on.
# Recipe: java-toolchain-notes §3 option B and §7: the host's jlink links an aarch64 image from Debian's
# arm64 jmods (jlink only checks the feature version).
#
#   packaging/build-arm64-runtime.sh [OUTDIR]          aarch64 image in OUTDIR/runtime (default build-out/arm64)
#   SPECTRUM_RUNTIME_ARCH=armhf packaging/build-arm64-runtime.sh OUTDIR
#                                                      the 32-bit ARM image (Raspberry Pi OS 32-bit; Pi Zero 2 W, 2, 3, 4 on
#                                                      that image) from Debian's armhf jmods
#   SPECTRUM_RUNTIME_ARCH=host packaging/build-arm64-runtime.sh OUTDIR
#                                                      same modules from this machine's jmods (a quick local check)
#   SPECTRUM_QEMU_WRAPPER=1 packaging/build-arm64-runtime.sh OUTDIR
#                                                      also a light sysroot and OUTDIR/bin/java, a wrapper that runs
#                                                      the image under qemu-aarch64-static (armhf: qemu-arm-static) here
#
# Then: ./spectrum flash --root /mnt/pi --runtime build-out/arm64/runtime
#
# Modules: what jdeps finds in the board bundle (board/target/spectrum-board-*-bundle.jar: the board
# main, runtime, NARROW core, links and jSerialComm), plus jdk.crypto.ec: a DTLS link's keys are EC
# P-256 (spectrum keys), and Java 17's EC is a security provider (SunEC) that jdeps cannot see; without
# it a board flashed with --dtls-keys cannot read its key. SPECTRUM_RUNTIME_FOR=host links the runtime
# for `spectrum host install --runtime` instead: the whole spectrum command (picocli looks at every
# subcommand's class at start-up, the history needs java.sql, the dashboard jdk.httpserver), so a fixed
# list, HOST_MODULES below. Override either with
# SPECTRUM_RUNTIME_MODULES=a,b,c (then the jar is not needed). Needs: a JDK 17 (jlink, jdeps); for arm64
# also apt-get, dpkg, binutils-aarch64-linux-gnu (armhf: binutils-arm-linux-gnueabihf) and network access to Debian's archive (about 71 MB,
# once: the downloaded .debs are kept in OUTDIR/debs). Nothing in /etc/apt is touched: a private apt
# configuration downloads only the packages of that architecture named here.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ARCH=${SPECTRUM_RUNTIME_ARCH:-arm64}
OUT=${1:-$ROOT/build-out/$ARCH}
WRAPPER=${SPECTRUM_QEMU_WRAPPER:-0}
FOR=${SPECTRUM_RUNTIME_FOR:-board}
HOST_MODULES=java.base,jdk.unsupported,java.logging,java.management,java.naming,java.sql,java.xml,java.net.http,jdk.httpserver,jdk.crypto.ec
JAR=$(ls "$ROOT"/board/target/spectrum-board-*-bundle.jar 2>/dev/null | head -n 1 || true)
JAR=${JAR:-$ROOT/board/target/spectrum-board-bundle.jar}
say() { echo "build-arm64-runtime: $*"; }
die() { echo "build-arm64-runtime: $*" >&2; exit 2; }

command -v jlink >/dev/null || die "jlink is not on PATH; install a JDK 17 (apt-get install openjdk-17-jdk-headless)"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ -n "${SPECTRUM_RUNTIME_MODULES:-}" ]; then
  MODULES=$SPECTRUM_RUNTIME_MODULES
elif [ "$FOR" = host ]; then
  MODULES=$HOST_MODULES
elif [ "$FOR" != board ]; then
  die "SPECTRUM_RUNTIME_FOR must be board or host (was $FOR)"
else
  [ -f "$JAR" ] || die "$JAR is missing; build it first: mvn -B -DskipTests package (or ./spectrum --version)"
  MODULES=$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 "$JAR" \
            | tr ',' '\n' | grep -vx -e java.desktop -e java.compiler | paste -sd, -),jdk.crypto.ec
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
  [ "$WRAPPER" = 1 ] && die "SPECTRUM_QEMU_WRAPPER=1 needs SPECTRUM_RUNTIME_ARCH=arm64 or armhf"
  JMODS=$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")/jmods
  [ -d "$JMODS" ] || die "no jmods in $JMODS; install openjdk-17-jdk-headless"
  STRIP_PATH=$PATH
else
  case "$ARCH" in
    arm64) TRIPLE=aarch64-linux-gnu; QEMU=qemu-aarch64-static ;;
    armhf) TRIPLE=arm-linux-gnueabihf; QEMU=qemu-arm-static ;;
    *) die "SPECTRUM_RUNTIME_ARCH must be arm64, armhf or host (was $ARCH)" ;;
  esac
  command -v "$TRIPLE-objcopy" >/dev/null \
    || die "$TRIPLE-objcopy is missing; apt-get install binutils-$TRIPLE"
  if [ "$WRAPPER" = 1 ]; then
    command -v "$QEMU" >/dev/null || die "$QEMU is missing; apt-get install qemu-user-static"
  fi
  A=$OUT/apt
  mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$OUT/debs" "$OUT/xbin"
  touch "$A/state/status"
  cat > "$A/sources.list" <<SRC
deb [arch=$ARCH] http://deb.debian.org/debian bookworm main
deb [arch=$ARCH] http://deb.debian.org/debian-security bookworm-security main
deb [arch=$ARCH] http://deb.debian.org/debian bookworm-updates main
SRC
  APT=(-o APT::Architecture=$ARCH -o APT::Architectures::=$ARCH -o "Dir::State=$A/state"
       -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" -o "Dir::Etc::SourceList=$A/sources.list"
       -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
  # the JDK for its jmods; with the wrapper also what the dynamic loader and libjvm.so need
  SYSROOT_DEBS=(libc6 libgcc-s1 libstdc++6 zlib1g)
  DEBS=(openjdk-17-jdk-headless)
  [ "$WRAPPER" = 1 ] && DEBS+=("${SYSROOT_DEBS[@]}")
  missing=()
  for d in "${DEBS[@]}"; do ls "$OUT"/debs/"${d}"_*_"$ARCH".deb >/dev/null 2>&1 || missing+=("$d"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "downloading $ARCH packages: ${missing[*]}"
    # a mirror in mid-sync can fail one list (say, the security updates'); the others still name
    # every package here, so go on with them and let the download say if something is missing
    apt-get "${APT[@]}" -qq update || say "some package lists did not download; going on with the ones that did"
    (cd "$OUT/debs" && apt-get "${APT[@]}" -qq download "${missing[@]}")
  fi
  rm -rf "$OUT/jdk" && mkdir "$OUT/jdk"
  dpkg -x "$OUT"/debs/openjdk-17-jdk-headless_*_"$ARCH".deb "$OUT/jdk"
  JMODS=$OUT/jdk/usr/lib/jvm/java-17-openjdk-$ARCH/jmods
  # --strip-debug strips native libraries with the `objcopy` found first on PATH: make it the target's
  ln -sf "$(command -v "$TRIPLE-objcopy")" "$OUT/xbin/objcopy"
  STRIP_PATH=$OUT/xbin:$PATH
fi

rm -rf "$OUT/runtime"
say "linking $ARCH runtime into $OUT/runtime ..."
PATH=$STRIP_PATH jlink --module-path "$JMODS" --add-modules "$MODULES" \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output "$OUT/runtime"
rm -rf "$OUT/jdk"   # only the jmods were needed; the .debs stay for rebuilds

if [ "$WRAPPER" = 1 ]; then
  rm -rf "$OUT/sysroot" "$OUT/bin" && mkdir -p "$OUT/sysroot" "$OUT/bin"
  for d in "${SYSROOT_DEBS[@]}"; do dpkg -x "$OUT"/debs/"${d}"_*_"$ARCH".deb "$OUT/sysroot"; done
  # named "java" so it stands in wherever a java executable is expected
  cat > "$OUT/bin/java" <<WRAP
#!/bin/sh
exec $(command -v "$QEMU") -L "$OUT/sysroot" "$OUT/runtime/bin/java" "\$@"
WRAP
  chmod +x "$OUT/bin/java"
  "$OUT/bin/java" -version
  say "emulated java: $OUT/bin/java"
fi
echo "$STAMP" > "$OUT/.built"
say "done: $(du -sh "$OUT/runtime" | cut -f1) in $OUT/runtime"
if [ "$WRAPPER" != 1 ] && [ "$FOR" = host ]; then
  say "ship it with: ./spectrum host install --ssh USER@HOST --config host.yaml --runtime $OUT/runtime"
elif [ "$WRAPPER" != 1 ]; then
  say "ship it with: ./spectrum flash --root /mnt/pi --runtime $OUT/runtime"
fi
