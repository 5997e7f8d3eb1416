#!/usr/bin/env bash
# The aarch64 runtime for the emulated-board HIL run (see arm-runtime.sh).
#
#   hw-tests/scripts/arm64-runtime.sh [OUTDIR]       default ${HOME}/.cache/spectrum/arm64
exec "$(dirname "$0")/arm-runtime.sh" arm64 "$@"
