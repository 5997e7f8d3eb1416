#!/usr/bin/env bash
# Builds a Debian 12 arm64 system image for the emulated board machine (docs/hil.md, "An installed
# board on an emulated ARM machine"), from Debian's archive only:
#
#   packaging/boot/build-image.sh [CACHE]     default ${SPECTRUM_BOOT_CACHE:-$HOME/.cache/spectrum-boot}
#
# Leaves in CACHE:
#   rootfs.img        ext4 root file system (a sparse 2 GiB file; /dev/vda in the machine)
#   vmlinuz, initrd   Debian's linux-image-arm64 kernel, and an initramfs made here that loads the
#                     disk and console drivers and mounts /dev/vda
#   id_ed25519(.pub)  the key root logs in with over ssh (generated here; authorised in the image)
#   known_hosts       the image's ssh host key, for HostKeyAlias spectrum-boot-machine (the port varies)
#   .built            the stamp: when it matches, the script returns at once and reuses all of the above
#
# How: debootstrap --foreign downloads and unpacks the packages here (real root: device nodes, owners);
# the second stage runs the arm64 maintainer scripts under qemu-aarch64-static in a chroot. The
# qemu-aarch64 binfmt_misc handler is registered in a private user namespace (Linux 6.7 or later
# gives each user namespace its own binfmt_misc), so nothing on this machine changes: no global
# binfmt entry, nothing in /etc/apt. Then mkfs.ext4 -d turns the tree into the image (no loop device).
#
# What is slow under qemu-user is left out of the second stage and done natively here instead: the
# kernel's package (thousands of module files, depmod, and an initramfs made by initramfs-tools'
# scripts, all emulated) is unpacked with dpkg-deb, its module index made with this machine's
# depmod, and the initramfs is a cpio archive of busybox-static (from the same archive), the few
# modules that mount the root and an /init script. dpkg in the chroot skips fsync (force-unsafe-io:
# the tree is thrown away if the build stops) and the documentation and translations.
#
# The kernel's i2c-stub module is built for that kernel by build-i2c-stub.sh (Debian does not ship it).
#
# Needs: root, debootstrap, qemu-user-static, e2fsprogs, openssh-client, kmod, cpio, util-linux 2.38+
# (unshare --map-users), gcc-aarch64-linux-gnu and make (for i2c-stub), network access to
# deb.debian.org (about 260 MB, once: 110 MB for the machine, 150 MB for i2c-stub's kernel source
# and headers).
set -euo pipefail

CACHE=${1:-${SPECTRUM_BOOT_CACHE:-$HOME/.cache/spectrum-boot}}
MIRROR=${SPECTRUM_BOOT_MIRROR:-http://deb.debian.org/debian}
# what the machine runs: systemd with networkd, sshd, kmod and i2c-tools. No Java: the board brings
# its own runtime (spectrum flash --runtime).
PACKAGES=systemd,systemd-sysv,udev,dbus,openssh-server,kmod,iproute2,procps,i2c-tools
# downloaded with the rest but not installed by the second stage: the kernel (unpacked natively) and
# busybox-static (the initramfs's tools); what only they depend on is taken out of the second stage too
NATIVE=linux-image-arm64,busybox-static
NOT_EMULATED="linux-image-arm64 linux-image-[0-9][^ ]*-arm64 linux-base initramfs-tools initramfs-tools-core klibc-utils libklibc busybox-static"
# the drivers the initramfs loads (with what they depend on): virtio over PCI or MMIO, its disk, ext4, and
# virtio-console for console=hvc0
INITRAMFS_MODULES="virtio_pci virtio_mmio virtio_blk virtio_console ext4"
# bump when the recipe below changes, so a cached image of an older recipe is rebuilt
RECIPE=4
STAMP="bookworm arm64 $RECIPE $PACKAGES"
say() { echo "build-image: $*"; }
die() { echo "build-image: $*" >&2; exit 2; }

mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
if [ -f "$CACHE/.built" ] && [ "$(cat "$CACHE/.built")" = "$STAMP" ] \
   && [ -s "$CACHE/rootfs.img" ] && [ -s "$CACHE/vmlinuz" ] && [ -s "$CACHE/initrd" ]; then
  say "ready (cached): $CACHE"
  exit 0
fi

[ "$(id -u)" -eq 0 ] || die "run it as root (debootstrap makes device nodes and files of other owners)"
for t in debootstrap:debootstrap qemu-aarch64-static:qemu-user-static mkfs.ext4:e2fsprogs \
         ssh-keygen:openssh-client unshare:util-linux depmod:kmod modprobe:kmod cpio:cpio dpkg-deb:dpkg \
         aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu make:make xz:xz-utils; do
  command -v "${t%%:*}" >/dev/null || die "${t%%:*} is missing; apt-get install ${t#*:}"
done
QEMU=$(command -v qemu-aarch64-static)

# runs a command in the chroot with the arm64 binaries under qemu-aarch64-static: a private user,
# mount, pid and network namespace with its own binfmt_misc; no network is needed any more. The user
# namespace maps uids and gids 0..65535 to themselves (written from here, as root may), so the
# packages' owners stay as they are
in_target() {
  unshare --user --mount --pid --fork --net /bin/sh -euc '
      while [ "$(awk "{print \$3}" /proc/self/uid_map)" != 65536 ] \
            || [ "$(awk "{print \$3}" /proc/self/gid_map)" != 65536 ]; do sleep 0.05; done
      mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
      # F: the interpreter is opened now, so it works inside the chroot too
      printf "%s" ":qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$QEMU"':F" \
        > /proc/sys/fs/binfmt_misc/register
      root=$1; shift
      exec chroot "$root" "$@"' in_target "$ROOT" "$@" &
  local pid=$! self
  self=$(readlink /proc/self/ns/user)
  while [ "$(readlink "/proc/$pid/ns/user" 2>/dev/null || echo "$self")" = "$self" ]; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  echo '0 0 65536' > "/proc/$pid/uid_map"
  echo '0 0 65536' > "/proc/$pid/gid_map"
  wait "$pid"
}

T0=$(date +%s)
ROOT=$CACHE/rootfs
rm -f "$CACHE/.built"
# a tree whose second stage finished for this recipe (a run stopped after it) is finished, not redone
RESUME=no
[ -f "$ROOT/.stage2" ] && [ "$(cat "$ROOT/.stage2")" = "$STAMP" ] && RESUME=yes

if [ "$RESUME" = no ]; then
rm -rf "$ROOT"
mkdir -p "$ROOT"

say "first stage: downloading and unpacking Debian 12 arm64 into $ROOT ..."
# the .debs are kept beside the image, so a rebuild downloads nothing
mkdir -p "$CACHE/debs"
debootstrap --foreign --arch=arm64 --variant=minbase --include="$PACKAGES,$NATIVE" \
  --cache-dir="$CACHE/debs" bookworm "$ROOT" "$MIRROR" > "$CACHE/debootstrap-1.log" 2>&1 \
  || { tail -20 "$CACHE/debootstrap-1.log" >&2; die "debootstrap's first stage failed (log: $CACHE/debootstrap-1.log)"; }

# decisions that must be in place before the second stage configures the packages
# the kernel and the initramfs's packages are unpacked natively below, not by the second stage
NOT_RE="^($(echo $NOT_EMULATED | tr ' ' '|'))\$"
for list in required base; do
  tr ' ' '\n' < "$ROOT/debootstrap/$list" | grep -v -x -E "$NOT_RE" | grep -v '^$' | tr '\n' ' ' > "$ROOT/debootstrap/$list.new"
  echo >> "$ROOT/debootstrap/$list.new"
  mv "$ROOT/debootstrap/$list.new" "$ROOT/debootstrap/$list"
done
# dpkg in the chroot: no fsync per file, no documentation or translations (the copyright files stay)
mkdir -p "$ROOT/etc/dpkg/dpkg.cfg.d"
cat > "$ROOT/etc/dpkg/dpkg.cfg.d/spectrum" <<'DPKG'
force-unsafe-io
path-exclude=/usr/share/doc/*
path-include=/usr/share/doc/*/copyright
path-exclude=/usr/share/man/*
path-exclude=/usr/share/info/*
path-exclude=/usr/share/locale/*
DPKG
echo 'spectrum-board' > "$ROOT/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 spectrum-board\n' > "$ROOT/etc/hosts"
printf '/dev/vda / ext4 defaults,noatime 0 1\n' > "$ROOT/etc/fstab"

say "second stage: configuring the packages under qemu-aarch64 (the slow part) ..."
# container=lxc: debootstrap then does not try mknod (a user namespace may not; the first stage made
# the device nodes)
export container=lxc
in_target /debootstrap/debootstrap --second-stage > "$CACHE/debootstrap-2.log" 2>&1 \
  || { tail -20 "$CACHE/debootstrap-2.log" >&2; die "debootstrap's second stage failed (log: $CACHE/debootstrap-2.log)"; }
unset container
echo "$STAMP" > "$ROOT/.stage2"
else
  say "the second stage finished before in $ROOT: going on from there"
fi

say "configuring the machine: networkd on DHCP, root's ssh key ..."
cat > "$ROOT/etc/systemd/network/20-wired.network" <<'NET'
[Match]
Name=en* eth*

[Network]
DHCP=ipv4
NET
in_target /bin/systemctl enable systemd-networkd.service >/dev/null 2>&1
# the board's I2C sensor: i2c-stub pretending to be a device at 0x48 on /dev/i2c-0 (the machine has
# no other I2C adapter), there from early boot as a real sensor would be; its registers start at 0
# and are set with i2cset
mkdir -p "$ROOT/etc/modules-load.d" "$ROOT/etc/modprobe.d"
printf 'i2c-dev\ni2c-stub\n' > "$ROOT/etc/modules-load.d/spectrum-i2c-stub.conf"
printf 'options i2c-stub chip_addr=0x48\n' > "$ROOT/etc/modprobe.d/spectrum-i2c-stub.conf"
# nothing waits for a clock or a resolver in a closed network
in_target /bin/systemctl mask systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer \
  e2scrub_all.timer fstrim.timer man-db.timer >/dev/null 2>&1 || true
[ -f "$CACHE/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C spectrum-boot -f "$CACHE/id_ed25519"
install -d -m 700 "$ROOT/root/.ssh"
install -m 600 "$CACHE/id_ed25519.pub" "$ROOT/root/.ssh/authorized_keys"
# the host key openssh-server's postinst generated, for the client's known_hosts under the alias
# boot.sh's ssh options give (the forwarded port changes from run to run)
awk '{print "spectrum-boot-machine " $1 " " $2}' "$ROOT/etc/ssh/ssh_host_ed25519_key.pub" > "$CACHE/known_hosts"
# an empty machine-id: the first boot makes one
: > "$ROOT/etc/machine-id"

say "the kernel and the initramfs, natively ..."
KDEB=$(ls "$ROOT"/var/cache/apt/archives/linux-image-[0-9]*-arm64_*_arm64.deb 2>/dev/null | grep -v -- -unsigned | sort -V | tail -n 1)
BDEB=$(ls "$ROOT"/var/cache/apt/archives/busybox-static_*_arm64.deb 2>/dev/null | tail -n 1)
[ -n "$KDEB" ] && [ -n "$BDEB" ] || die "the kernel's or busybox-static's package was not downloaded (see $CACHE/debootstrap-1.log)"
# /lib is a link to usr/lib in the tree: tar keeps it a link
dpkg-deb --fsys-tarfile "$KDEB" | tar -x --keep-directory-symlink -C "$ROOT"
KVER=$(ls "$ROOT/lib/modules" | sort -V | tail -n 1)
[ -n "$KVER" ] && [ -f "$ROOT/boot/vmlinuz-$KVER" ] || die "no kernel in $KDEB"
# the fake I2C adapter the board's I2C vertex is read from: Debian's kernel does not build it
"$(dirname "$0")/build-i2c-stub.sh" "$CACHE" "$KDEB" "$ROOT/lib/modules/$KVER/updates/i2c-stub.ko"
depmod -b "$ROOT" "$KVER"
INITRD=$CACHE/initrd-tree
rm -rf "$INITRD"
mkdir -p "$INITRD/bin" "$INITRD/modules" "$INITRD/dev" "$INITRD/proc" "$INITRD/sys" "$INITRD/root"
dpkg-deb --fsys-tarfile "$BDEB" | tar -x -C "$INITRD" ./bin/busybox
# the modules in load order, dependencies first
: > "$INITRD/modules/order"
for m in $INITRAMFS_MODULES; do
  modprobe -d "$ROOT" -S "$KVER" --show-depends "$m" || die "no module $m in $KVER"
done | while read -r kind path _; do
  [ "$kind" = insmod ] || continue
  name=$(basename "$path")
  grep -qx "$name" "$INITRD/modules/order" && continue
  # modprobe -d names the file with the tree's directory in front
  cp "$ROOT/${path#"$ROOT"/}" "$INITRD/modules/$name"
  echo "$name" >> "$INITRD/modules/order"
done
[ "$(grep -c . "$INITRD/modules/order")" -ge 5 ] || die "modprobe found too few of $INITRAMFS_MODULES in $KVER"
cat > "$INITRD/init" <<'INIT'
#!/bin/busybox sh
# The emulated board machine's initramfs (packaging/boot/build-image.sh): load the disk and console
# drivers, mount the root file system read-only (systemd checks it and remounts it as /etc/fstab
# says) and hand over to its init.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do insmod "/modules/$m"; done < /modules/order
i=0
while [ ! -b /dev/vda ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 -o ro /dev/vda /root || { echo "initramfs: cannot mount /dev/vda"; exec sh; }
umount /proc /sys
mount --move /dev /root/dev
exec switch_root /root /sbin/init
INIT
chmod 755 "$INITRD/init"
(cd "$INITRD" && find . | cpio -o -H newc --quiet -R 0:0 | gzip -9) > "$CACHE/initrd"
rm -rf "$INITRD"
cp "$ROOT/boot/vmlinuz-$KVER" "$CACHE/vmlinuz"
rm -rf "$ROOT/var/cache/apt/archives"/*.deb "$ROOT/var/lib/apt/lists"/*_Packages "$ROOT/.stage2"

say "making the ext4 image ..."
rm -f "$CACHE/rootfs.img"
mkfs.ext4 -q -F -L spectrum-root -d "$ROOT" "$CACHE/rootfs.img" 2G
rm -rf "$ROOT"
echo "$STAMP" > "$CACHE/.built"
say "done in $(( $(date +%s) - T0 )) s: kernel $KVER, $(du -h --apparent-size "$CACHE/rootfs.img" | cut -f1) image ($(du -h "$CACHE/rootfs.img" | cut -f1) used) in $CACHE"
