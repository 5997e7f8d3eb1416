#!/usr/bin/env bash
# The aarch64 Java 17 runtime the emulated-board HIL run uses, runnable here under qemu-user:
# OUTDIR/bin/java (default OUTDIR ${HOME}/.cache/spectrum/arm64). Built once by the same script that
# builds the runtime shipped to a Pi (packaging/build-arm64-runtime.sh), then cached.
#
#   hw-tests/scripts/arm64-runtime.sh [OUTDIR]
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-${HOME}/.cache/spectrum/arm64}
# The emulated board runs io.spectrum.board.BoardMain from the test class path. A fixed module list
# (wider than the board bundle needs, so the same cached image also serves test helpers that touch
# logging, http and management types), so the runtime can be built before, and cached independently
# of, the jars.
export SPECTRUM_RUNTIME_MODULES=${SPECTRUM_ARM64_MODULES:-java.base,jdk.unsupported,java.logging,java.management,java.naming,java.sql,java.xml,java.net.http,jdk.httpserver}
export SPECTRUM_RUNTIME_ARCH=arm64
export SPECTRUM_QEMU_WRAPPER=1

need=()
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v aarch64-linux-gnu-objcopy >/dev/null || need+=(binutils-aarch64-linux-gnu)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "arm64-runtime: installing ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "arm64-runtime: missing ${need[*]}; install them (apt-get install ${need[*]})" >&2
    exit 3
  fi
fi
exec "$ROOT/packaging/build-arm64-runtime.sh" "$OUT"
