#!/usr/bin/env bash
# The 32-bit ARM (armhf) runtime for the emulated-board HIL run (see arm-runtime.sh): what Raspberry
# Pi OS 32-bit runs, under qemu-arm-static here.
#
#   hw-tests/scripts/armhf-runtime.sh [OUTDIR]       default ${HOME}/.cache/spectrum/armhf
exec "$(dirname "$0")/arm-runtime.sh" armhf "$@"
