#!/usr/bin/env bash
# Times the README's two commands on a fresh Debian 12: a minbase bookworm
# root (the package test's pristine tarball, or a new debootstrap), this
# checkout's committed tree copied in (git archive HEAD) with ../shared beside
# it, then `make demo` or `make test` run there as root. Prints the time, the
# packages the command installed, and for demo that no test tool is among them;
# the whole log is kept as /tmp/gcfs-fresh-MODE.log.
# minbase has no make; it is installed first and not counted.
# Needs root, network access to deb.debian.org, /dev/fuse.
# Usage: time-fresh-root.sh demo|test [PRISTINE_TAR]
set -u
MODE=${1:?demo or test}
HERE=$(cd "$(dirname "$0")/.." && pwd)
PRISTINE=${2:-$HERE/build/debian12-minbase.tar}
ROOT=$(mktemp -d /tmp/gcfs-fresh-root.XXXXXX)
cleanup() {
    chroot "$ROOT" fusermount3 -u /tmp/gcfs-demo/mnt 2>/dev/null
    for m in dev/shm dev/pts dev proc sys; do umount "$ROOT/$m" 2>/dev/null; done
    rm -rf "$ROOT"
}
trap cleanup EXIT

if [ -f "$PRISTINE" ]; then
    tar -C "$ROOT" -xf "$PRISTINE"
else
    debootstrap --variant=minbase bookworm "$ROOT" http://deb.debian.org/debian >/dev/null 2>&1 || { echo "debootstrap failed"; exit 1; }
fi
mount --bind /dev "$ROOT/dev" && mount --bind /dev/pts "$ROOT/dev/pts" && mount --bind /dev/shm "$ROOT/dev/shm" &&
    mount -t proc proc "$ROOT/proc" &&
    mount -t sysfs sys "$ROOT/sys" || { echo "cannot prepare the chroot"; exit 1; }
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
mkdir -p "$ROOT/root/gcfs" "$ROOT/root/shared"
git -C "$HERE" archive HEAD | tar -C "$ROOT/root/gcfs" -x
cp -r "$HERE/../shared/." "$ROOT/root/shared/"
# A host whose egress proxy re-signs TLS (npm's registry is https) trusts that
# proxy through its own CA bundle: Node in the root is handed a copy of it.
extra_ca=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    cp "$NODE_EXTRA_CA_CERTS" "$ROOT/etc/host-ca.crt"
    extra_ca=(NODE_EXTRA_CA_CERTS=/etc/host-ca.crt)
fi
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root CI=true "${extra_ca[@]}" "$@"; }

in_root bash -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends make >/dev/null" ||
    { echo "cannot install make"; exit 1; }
in_root dpkg-query -W -f='${Package}\n' | sort >"$ROOT/tmp/before"
start=$(date +%s)
in_root bash -c "cd /root/gcfs && make $MODE" >"$ROOT/tmp/make.log" 2>&1
status=$?
seconds=$(($(date +%s) - start))
in_root dpkg-query -W -f='${Package}\n' | sort >"$ROOT/tmp/after"
added=$(comm -13 "$ROOT/tmp/before" "$ROOT/tmp/after" | wc -l)
tail -5 "$ROOT/tmp/make.log"
cp "$ROOT/tmp/make.log" "/tmp/gcfs-fresh-$MODE.log"  # the whole log outlives the root
echo "make $MODE on a fresh Debian 12 minbase root: exit $status, $((seconds / 60)) min $((seconds % 60)) s, $added packages installed"
if [ "$MODE" = demo ]; then
    tools=$(comm -13 "$ROOT/tmp/before" "$ROOT/tmp/after" |
        grep -xE 'blender|clang(-[0-9]+)?|debootstrap|assimp-utils|meson|pngcheck|nodejs|npm|genisoimage|python3-numpy|man-db' || true)
    if [ -n "$tools" ]; then
        echo "test tools installed by make demo: $tools"
        exit 1
    fi
    echo "no test tool installed (blender, clang, debootstrap, assimp-utils, meson, pngcheck, nodejs, npm, genisoimage, python3-numpy, man-db)"
fi
exit $status
