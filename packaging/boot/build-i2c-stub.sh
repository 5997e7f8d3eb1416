#!/usr/bin/env bash
# Builds the kernel's i2c-stub module for the emulated board machine's kernel (build-image.sh calls
# it), from Debian's archive only:
#
#   packaging/boot/build-i2c-stub.sh CACHE KERNEL_DEB OUT_KO
#
# i2c-stub is the kernel's fake I2C adapter with one or more SMBus devices whose registers are set
# from user space (i2cset); it is what the booted board's I2C vertex reads. Debian's arm64 kernel
# does not build it (CONFIG_I2C_STUB is not set) and QEMU's virt machine has no I2C controller, so
# it is built here as an out-of-tree module against that very kernel: its source file from
# linux-source, the kernel's headers (arm64), the kernel build scripts for this machine (amd64
# linux-kbuild of the same version) and the aarch64 cross compiler of Debian (gcc-aarch64-linux-gnu,
# the compiler the kernel itself was built with). The module is not signed: the kernel loads it and
# marks itself tainted, as it does for any out-of-tree module (no Secure Boot here, so no lockdown).
#
# The .debs are kept in CACHE/debs (about 150 MB, mostly linux-source, once). Nothing in /etc/apt is
# touched: a private apt configuration downloads the packages named here.
set -euo pipefail

CACHE=${1:?usage: build-i2c-stub.sh CACHE KERNEL_DEB OUT_KO}
KDEB=${2:?usage: build-i2c-stub.sh CACHE KERNEL_DEB OUT_KO}
OUT=${3:?usage: build-i2c-stub.sh CACHE KERNEL_DEB OUT_KO}
MIRROR=${SPECTRUM_BOOT_MIRROR:-http://deb.debian.org/debian}
say() { echo "build-i2c-stub: $*"; }
die() { echo "build-i2c-stub: $*" >&2; exit 2; }

for t in aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu make:make apt-get:apt dpkg-deb:dpkg xz:xz-utils; do
  command -v "${t%%:*}" >/dev/null || die "${t%%:*} is missing; apt-get install ${t#*:}"
done

# the kernel's package names its ABI (linux-image-6.1.0-50-arm64) and its version (6.1.176-1)
PKG=$(dpkg-deb -f "$KDEB" Package)
VERSION=$(dpkg-deb -f "$KDEB" Version)
KVER=${PKG#linux-image-}
ABI=${KVER%-arm64}
SERIES=$(echo "$VERSION" | cut -d. -f1,2)
W=$CACHE/i2c-stub-build
A=$CACHE/apt
mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$CACHE/debs"
touch "$A/state/status"
cat > "$A/sources.list" <<SRC
deb [arch=arm64,amd64] $MIRROR bookworm main
deb [arch=arm64,amd64] $MIRROR bookworm-updates main
deb [arch=arm64,amd64] ${MIRROR%/debian}/debian-security bookworm-security main
SRC
APT=(-o APT::Architecture=amd64 -o APT::Architectures::=amd64 -o APT::Architectures::=arm64
     -o "Dir::State=$A/state" -o "Dir::State::status=$A/state/status" -o "Dir::Cache=$A/cache"
     -o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1)
DEBS=("linux-headers-$KVER:arm64=$VERSION" "linux-headers-$ABI-common=$VERSION"
      "linux-kbuild-$SERIES:amd64=$VERSION" "linux-source-$SERIES=$VERSION")
missing=()
for d in "${DEBS[@]}"; do
  name=${d%%=*}
  name=${name%%:*}
  ls "$CACHE/debs/${name}_"*.deb >/dev/null 2>&1 || missing+=("$d")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "downloading ${missing[*]} ..."
  apt-get "${APT[@]}" -qq update || say "some package lists did not download; going on with the ones that did"
  (cd "$CACHE/debs" && apt-get "${APT[@]}" -qq download "${missing[@]}") \
    || die "the kernel $VERSION's headers or source are no longer in the archive; remove $CACHE and build the image again"
fi

rm -rf "$W"
mkdir -p "$W/tree" "$W/module"
for d in "$CACHE/debs/linux-headers-${KVER}_"*.deb "$CACHE/debs/linux-headers-${ABI}-common_"*.deb \
         "$CACHE/debs/linux-kbuild-${SERIES}_"*_amd64.deb; do
  dpkg-deb -x "$d" "$W/tree"
done
# the one source file, out of the kernel's source tarball
dpkg-deb --fsys-tarfile "$CACHE/debs/linux-source-${SERIES}_"*.deb \
  | tar -x -O "./usr/src/linux-source-$SERIES.tar.xz" \
  | xz -dc | tar -x -O "linux-source-$SERIES/drivers/i2c/i2c-stub.c" > "$W/module/i2c-stub.c"
[ -s "$W/module/i2c-stub.c" ] || die "no drivers/i2c/i2c-stub.c in linux-source-$SERIES"
echo 'obj-m := i2c-stub.o' > "$W/module/Kbuild"
# the arm64 headers' own Makefile names /usr/src; the common tree is called directly with O= instead
make -s -C "$W/tree/usr/src/linux-headers-$ABI-common" O="$W/tree/usr/src/linux-headers-$KVER" \
  M="$W/module" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC=aarch64-linux-gnu-gcc-12 modules \
  > "$W/make.log" 2>&1 || { tail -20 "$W/make.log" >&2; die "the module did not build (log: $W/make.log)"; }
aarch64-linux-gnu-strip --strip-debug "$W/module/i2c-stub.ko"
install -D -m 644 "$W/module/i2c-stub.ko" "$OUT"
rm -rf "$W"
say "i2c-stub.ko for $KVER"
