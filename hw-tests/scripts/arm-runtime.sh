#!/usr/bin/env bash
# The ARM Java 17 runtime an emulated-board HIL run uses, runnable here under qemu-user:
# OUTDIR/bin/java (default OUTDIR ${HOME}/.cache/spectrum/ARCH). Built once by the same script that
# builds the runtime shipped to a Pi (packaging/build-arm64-runtime.sh), then cached.
#
#   hw-tests/scripts/arm-runtime.sh arm64|armhf [OUTDIR]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ARCH=${1:?usage: arm-runtime.sh arm64|armhf [OUTDIR]}
OUT=${2:-${HOME}/.cache/spectrum/$ARCH}
case "$ARCH" in
  arm64) QEMU=qemu-aarch64-static; BINUTILS=binutils-aarch64-linux-gnu; OBJCOPY=aarch64-linux-gnu-objcopy ;;
  armhf) QEMU=qemu-arm-static; BINUTILS=binutils-arm-linux-gnueabihf; OBJCOPY=arm-linux-gnueabihf-objcopy ;;
  *) echo "arm-runtime: ARCH must be arm64 or armhf (was $ARCH)" >&2; exit 2 ;;
esac
# The emulated board runs io.spectrum.board.BoardMain from the test class path. A fixed module list
# (wider than the board bundle needs, so the same cached image also serves test helpers that touch
# logging, http and management types), so the runtime can be built before, and cached independently
# of, the jars.
export SPECTRUM_RUNTIME_MODULES=${SPECTRUM_ARM64_MODULES:-java.base,jdk.unsupported,java.logging,java.management,java.naming,java.sql,java.xml,java.net.http,jdk.httpserver}
export SPECTRUM_RUNTIME_ARCH=$ARCH
export SPECTRUM_QEMU_WRAPPER=1

need=()
command -v "$QEMU" >/dev/null || need+=(qemu-user-static)
command -v "$OBJCOPY" >/dev/null || need+=("$BINUTILS")
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "arm-runtime: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "arm-runtime: missing ${need[*]}; install them (apt-get install ${need[*]})" >&2
    exit 3
  fi
fi
exec "$ROOT/packaging/build-arm64-runtime.sh" "$OUT"
