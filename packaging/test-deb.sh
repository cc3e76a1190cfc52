#!/usr/bin/env bash
# The .deb on a clean Debian 12: a minbase bookworm root made by debootstrap
# (kept as a pristine tarball, unpacked afresh each run), the package
# installed by apt with nothing but its declared dependencies, then gcfs used
# there for real: --help, man page, mkdisc, verify, ls, and a FUSE mount read
# through the kernel. Needs root, network access to deb.debian.org, /dev/fuse.
# Also checks that `cmake --install` and `meson install` (when MESON_BUILD_DIR
# is given) put gcfs and gcfs(1) in place.
# Usage: test-deb.sh BUILD_DIR [MESON_BUILD_DIR]
set -u
BUILD=$(readlink -f "$1")
MESON_BUILD=${2:+$(readlink -f "$2")}
source "$(dirname "$0")/../tests/mount/lib.sh"
PRISTINE=$BUILD/debian12-minbase.tar
ROOT=$(mktemp -d /tmp/gcfs-deb-test.XXXXXX)
cleanup() {
    chroot "$ROOT" fusermount3 -u /mnt 2>/dev/null
    for m in dev/pts dev proc sys; do umount "$ROOT/$m" 2>/dev/null; done
    rm -rf "$ROOT"
}
trap cleanup EXIT

(cmake --build "$BUILD" >/dev/null && cd "$BUILD" && rm -f gcfs_*.deb && cpack -G DEB >/dev/null) || { echo "cpack failed"; exit 1; }
DEB=$(ls "$BUILD"/gcfs_*.deb)
if [ ! -f "$PRISTINE" ]; then
    debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian >"$BUILD/debootstrap.log" 2>&1 ||
        { echo "debootstrap failed: see $BUILD/debootstrap.log"; exit 1; }
    tar -C "$ROOT" -cf "$PRISTINE.part" . && mv "$PRISTINE.part" "$PRISTINE"
else
    tar -C "$ROOT" -xf "$PRISTINE"
fi
mount --bind /dev "$ROOT/dev" && mount --bind /dev/pts "$ROOT/dev/pts" && mount -t proc proc "$ROOT/proc" &&
    mount -t sysfs sys "$ROOT/sys" || { echo "cannot prepare the chroot"; exit 1; }
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp "$DEB" "$ROOT/tmp/gcfs.deb"
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }

installs_into() {  # DIR, then the install command: gcfs runs from DIR and its page is there
    local dir=$1; shift
    rm -rf "$dir" && "$@" >/dev/null && "$dir/usr/local/bin/gcfs" --version >/dev/null &&
        ls "$dir"/usr/local/share/man/man1/gcfs.1* >/dev/null
}
check "cmake --install puts gcfs and gcfs(1) in place" installs_into "$ROOT.cmake" env DESTDIR="$ROOT.cmake" cmake --install "$BUILD"
if [ -n "$MESON_BUILD" ]; then
    check "meson install puts gcfs and gcfs(1) in place" installs_into "$ROOT.meson" meson install -C "$MESON_BUILD" --destdir "$ROOT.meson"
fi
rm -rf "$ROOT.cmake" "$ROOT.meson"
check "the package is built stripped, under 10 MB" bash -c "test \$(stat -c %s '$DEB') -lt 10000000"
check "the package declares fuse3, libfmt9, libspdlog1.10, libsqlite3-0, libpng16-16, libimagequant0, libsndfile1, libassimp5, libmeshoptimizer2d, libtinygltf2d, libsodium23, libsystemd0" \
    bash -c "dpkg-deb -f '$DEB' Depends | tr -d ' ' | tr ',' '\n' | sort | tr '\n' ' ' | grep -q 'fuse3 libassimp5 libfmt9 libfuse3-3 libimagequant0 libmeshoptimizer2d libpng16-16 libsndfile1 libsodium23 libspdlog1.10 libsqlite3-0 libsystemd0 libtinygltf2d zlib1g'"
check "the clean root has no gcfs dependency yet" bash -c "! chroot '$ROOT' dpkg -s libspdlog1.10 >/dev/null 2>&1"
check "apt installs the .deb with its declared dependencies" \
    in_root bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /tmp/gcfs.deb"
check "every shared library gcfs needs is present" bash -c "! chroot '$ROOT' ldd /usr/bin/gcfs | grep 'not found'"
check "gcfs --version runs" in_root gcfs --version
check "gcfs(1) is installed" test -s "$ROOT/usr/share/man/man1/gcfs.1.gz"
check "gcfs mkdisc writes a disc" in_root gcfs mkdisc /tmp/demo.iso --levels 2 --seed 1
check "gcfs verify passes it" in_root gcfs verify /tmp/demo.iso
check "gcfs ls lists a level" bash -c "chroot '$ROOT' gcfs ls /tmp/demo.iso LEVEL00 | grep -q collision.obj"
check "gcfs mount serves the disc through the kernel" in_root gcfs mount /tmp/demo.iso /mnt
check "the mount is up" wait_mounted "$ROOT/mnt"
# terrain.obj opens with its axes line, then the gcfs provenance line, then vertices.
check "a decoded file reads through the mount" bash -c "head -n 3 '$ROOT/mnt/LEVEL00/tfrag/terrain.obj' | grep -q '^# gcfs' &&
    grep -c '^v ' '$ROOT/mnt/LEVEL00/tfrag/terrain.obj' | grep -qv '^0\$'"
check "fusermount3 (from fuse3) unmounts it" in_root fusermount3 -u /mnt
finish deb
