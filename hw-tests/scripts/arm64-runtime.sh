#!/usr/bin/env bash
# Builds (once) an aarch64 Java 17 runtime that runs on this x86-64 machine under qemu-user, for the
# emulated-board HIL run. Recipe: java-toolchain-notes §3 option B + §7 (cross-jlink).
#
#   hw-tests/scripts/arm64-runtime.sh [OUTDIR]     default OUTDIR: ${HOME}/.cache/spectrum/arm64
#
# Result: OUTDIR/bin/java, a wrapper that runs `qemu-aarch64-static -L OUTDIR/sysroot OUTDIR/runtime/bin/java`.
# Idempotent and cached: when OUTDIR/bin/java already answers `-version` the script does nothing.
#
# How: a private apt configuration (nothing in /etc/apt is touched, no dpkg --add-architecture)
# downloads only the arm64 .debs that are needed — libc6, libgcc-s1, libstdc++6, zlib1g for a light
# sysroot that the dynamic loader and libjvm.so need, and openjdk-17-jdk-headless for its jmods/ —
# then the host's jlink links an aarch64 image from those jmods (jlink only checks the feature
# version). --strip-debug runs `objcopy` from PATH on the native libraries, so an aarch64 objcopy is
# put first in PATH.
#
# Needs: apt-get, dpkg, jlink (JDK 17), qemu-user-static, binutils-aarch64-linux-gnu (installed here
# when missing and running as root), and network access to deb.debian.org on the first run.
set -euo pipefail

OUT=${1:-${HOME}/.cache/spectrum/arm64}
# Modules of the runtime. The board runs io.spectrum.cli.SpectrumCommand: picocli, jSerialComm and the
# NARROW core need only java.base (jdeps), but picocli introspects every registered subcommand class,
# and host-app commands may touch logging, http and management types, so the image carries those too.
MODULES=${SPECTRUM_ARM64_MODULES:-java.base,jdk.unsupported,java.logging,java.management,java.naming,java.sql,java.xml,java.net.http,jdk.httpserver}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ -x "$OUT/bin/java" ] && [ -f "$OUT/.modules" ] && [ "$(cat "$OUT/.modules")" = "$MODULES" ] \
   && "$OUT/bin/java" -version >/dev/null 2>&1; then
  echo "arm64 runtime ready: $OUT/bin/java (cached)"
  exit 0
fi

say() { echo "arm64-runtime: $*"; }
export DEBIAN_FRONTEND=noninteractive
need_pkgs=()
command -v qemu-aarch64-static >/dev/null || need_pkgs+=(qemu-user-static)
command -v aarch64-linux-gnu-objcopy >/dev/null || need_pkgs+=(binutils-aarch64-linux-gnu)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    say "installing ${need_pkgs[*]}"
    apt-get update -qq && apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
  else
    echo "arm64-runtime: missing ${need_pkgs[*]}; install them (apt-get install ${need_pkgs[*]})" >&2
    exit 3
  fi
fi
command -v jlink >/dev/null || { echo "arm64-runtime: jlink (a JDK 17) is not on PATH" >&2; exit 3; }

cd "$OUT"
A=$OUT/apt
mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" debs
touch "$A/state/status"
cat > "$A/sources.list" <<SRC
deb [arch=arm64] http://deb.debian.org/debian bookworm main
deb [arch=arm64] http://deb.debian.org/debian-security bookworm-security main
deb [arch=arm64] http://deb.debian.org/debian bookworm-updates main
SRC
APT=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o "Dir::State=$A/state"
     -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache" -o "Dir::Etc::SourceList=$A/sources.list"
     -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
DEBS=(libc6 libgcc-s1 libstdc++6 zlib1g openjdk-17-jdk-headless)
have_all=1
for d in "${DEBS[@]}"; do ls debs/${d}_*_arm64.deb >/dev/null 2>&1 || have_all=0; done
if [ $have_all = 0 ]; then
  say "downloading arm64 packages: ${DEBS[*]}"
  apt-get "${APT[@]}" -qq update
  (cd debs && apt-get "${APT[@]}" -qq download "${DEBS[@]}")
fi

say "unpacking sysroot and jmods"
rm -rf sysroot jdk runtime bin xbin
mkdir -p sysroot jdk xbin bin
for d in libc6 libgcc-s1 libstdc++6 zlib1g; do dpkg -x debs/${d}_*_arm64.deb sysroot; done
dpkg -x debs/openjdk-17-jdk-headless_*_arm64.deb jdk
JMODS=$(ls -d "$OUT"/jdk/usr/lib/jvm/java-17-openjdk-arm64/jmods)
ln -sf "$(command -v aarch64-linux-gnu-objcopy)" xbin/objcopy

say "linking runtime ($MODULES)"
PATH=$OUT/xbin:$PATH jlink --module-path "$JMODS" --add-modules "$MODULES" \
  --strip-debug --no-header-files --no-man-pages --compress=2 --output runtime
rm -rf jdk   # only the jmods were needed; keep the cache small (debs/ stay for rebuilds)

# A launcher whose name ends in "java", so it can stand in wherever a java executable is expected.
cat > bin/java <<WRAP
#!/bin/sh
exec $(command -v qemu-aarch64-static) -L "$OUT/sysroot" "$OUT/runtime/bin/java" "\$@"
WRAP
chmod +x bin/java
echo "$MODULES" > .modules
bin/java -version
say "ready: $OUT/bin/java"
