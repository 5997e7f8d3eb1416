#!/usr/bin/env bash
# Boots the emulated board machine built by build-image.sh (docs/hil.md, "An installed board on an
# emulated ARM machine") and waits until root can log in over ssh.
#
#   packaging/boot/boot.sh RUNDIR [SSH_PORT] [UDP_PORT] [HOST_UDP_PORT]
#
# The machine: qemu-system-aarch64 -M virt, a Cortex-A72 (a Pi 4's core) under TCG, 512 MB.
#   - its disk is RUNDIR/disk.img, a sparse copy of the cached rootfs.img made on the first boot and
#     kept: a second boot of the same RUNDIR (after a power cut: kill -9 of the pid in RUNDIR/qemu.pid)
#     finds what the first one installed;
#   - console on hvc0 (virtio-console) into RUNDIR/console.log, so the PL011 UART, /dev/ttyAMA0 in the
#     machine, is free for the board: it is a pseudo-terminal here, named in RUNDIR/uart (a new one
#     on each boot);
#   - user-mode networking: 127.0.0.1:SSH_PORT -> the machine's sshd, 127.0.0.1:UDP_PORT (UDP) -> the
#     machine's UDP port 7700, where a board flashed with --udp 0.0.0.0:7700 listens, and, when
#     HOST_UDP_PORT is given, 127.0.0.1:HOST_UDP_PORT (UDP) -> the machine's UDP port 7800, the client
#     port of a host installed there with udp: 0.0.0.0:7800 (spectrum host install --ssh);
#   - RUNDIR/ssh_config logs in as root with the image's key and host key:
#     ssh -F RUNDIR/ssh_config board, or flash's --ssh-option lines in RUNDIR/ssh_options.
# Prints the boot time (qemu start to a working ssh login) and writes it to RUNDIR/boot-ms.
# Environment: SPECTRUM_BOOT_CACHE (the image), SPECTRUM_BOOT_SMP (2), SPECTRUM_BOOT_TIMEOUT (600 s).
set -euo pipefail

RUN=${1:?usage: boot.sh RUNDIR [SSH_PORT] [UDP_PORT] [HOST_UDP_PORT]}
SSH_PORT=${2:-10022}
UDP_PORT=${3:-17700}
HOST_UDP_PORT=${4:-}
CACHE=${SPECTRUM_BOOT_CACHE:-$HOME/.cache/spectrum-boot}
SMP=${SPECTRUM_BOOT_SMP:-2}
TIMEOUT=${SPECTRUM_BOOT_TIMEOUT:-600}
say() { echo "boot: $*"; }
die() { echo "boot: $*" >&2; exit 2; }

command -v qemu-system-aarch64 >/dev/null || die "qemu-system-aarch64 is missing; apt-get install qemu-system-arm"
for f in rootfs.img vmlinuz initrd id_ed25519 known_hosts; do
  [ -s "$CACHE/$f" ] || die "$CACHE/$f is missing; build the image first: packaging/boot/build-image.sh"
done
mkdir -p "$RUN"
RUN=$(cd "$RUN" && pwd)
if [ -f "$RUN/qemu.pid" ] && kill -0 "$(cat "$RUN/qemu.pid")" 2>/dev/null; then
  die "a machine of $RUN runs already (pid $(cat "$RUN/qemu.pid")); stop it first"
fi
[ -f "$RUN/disk.img" ] || cp --sparse=always "$CACHE/rootfs.img" "$RUN/disk.img"

cat > "$RUN/ssh_config" <<CFG
Host board
  HostName 127.0.0.1
  Port $SSH_PORT
  User root
  IdentityFile $CACHE/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $CACHE/known_hosts
  HostKeyAlias spectrum-boot-machine
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
CFG
printf '%s\n' "IdentityFile=$CACHE/id_ed25519" "IdentitiesOnly=yes" "UserKnownHostsFile=$CACHE/known_hosts" "HostKeyAlias=spectrum-boot-machine" \
  "StrictHostKeyChecking=yes" > "$RUN/ssh_options"

FWD="hostfwd=tcp:127.0.0.1:$SSH_PORT-:22,hostfwd=udp:127.0.0.1:$UDP_PORT-:7700"
[ -z "$HOST_UDP_PORT" ] || FWD="$FWD,hostfwd=udp:127.0.0.1:$HOST_UDP_PORT-:7800"

rm -f "$RUN/uart" "$RUN/boot-ms" "$RUN/qemu.pid"
: > "$RUN/console.log"
T0=$(date +%s%N)
# -daemonize: qemu returns once the machine is set up; it prints the UART's pty path before that
qemu-system-aarch64 -M virt -cpu cortex-a72 -smp "$SMP" -m 512 -accel tcg,thread=multi \
  -kernel "$CACHE/vmlinuz" -initrd "$CACHE/initrd" \
  -append "root=/dev/vda rw console=hvc0 quiet loglevel=4 systemd.show_status=false" \
  -drive file="$RUN/disk.img",format=raw,if=virtio \
  -netdev user,id=net0,"$FWD" \
  -device virtio-net-pci,netdev=net0 \
  -device virtio-rng-pci \
  -device virtio-serial-pci -chardev file,id=con,path="$RUN/console.log" -device virtconsole,chardev=con \
  -chardev pty,id=uart -serial chardev:uart \
  -display none -monitor none -pidfile "$RUN/qemu.pid" -daemonize > "$RUN/qemu.out" 2>&1 \
  || { cat "$RUN/qemu.out" >&2; die "qemu-system-aarch64 did not start"; }
sed -n 's|.*char device redirected to \(/dev/pts/[0-9]*\) (label uart).*|\1|p' "$RUN/qemu.out" > "$RUN/uart"
[ -s "$RUN/uart" ] || die "qemu named no pty for the UART (see $RUN/qemu.out)"
say "qemu pid $(cat "$RUN/qemu.pid"), UART on $(cat "$RUN/uart"), ssh 127.0.0.1:$SSH_PORT, UDP 127.0.0.1:$UDP_PORT${HOST_UDP_PORT:+, host UDP 127.0.0.1:$HOST_UDP_PORT}"

deadline=$(( $(date +%s) + TIMEOUT ))
until ssh -F "$RUN/ssh_config" -o ConnectTimeout=5 board true 2>/dev/null; do
  kill -0 "$(cat "$RUN/qemu.pid")" 2>/dev/null || die "the machine stopped while booting (console: $RUN/console.log)"
  [ "$(date +%s)" -lt "$deadline" ] || die "no ssh login within $TIMEOUT s (console: $RUN/console.log)"
  sleep 2
done
MS=$(( ($(date +%s%N) - T0) / 1000000 ))
echo "$MS" > "$RUN/boot-ms"
say "up: ssh login after $MS ms (TCG emulation, not a Pi's boot time)"
