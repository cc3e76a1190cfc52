#!/usr/bin/env bash
# Installs the Debian packages gcfs needs. Idempotent: does nothing when
# every package is already present.
#   install-deps.sh build   what building and running gcfs needs (make demo)
#   install-deps.sh test    that, and every tool the tests drive (make test)
set -eu
build=(build-essential cmake ninja-build pkg-config
       libfuse3-dev fuse3 libfmt-dev libspdlog-dev doctest-dev libcli11-dev
       zlib1g-dev nlohmann-json3-dev libsqlite3-dev libsystemd-dev libsodium-dev libpng-dev libimagequant-dev libsndfile1-dev libtinygltf-dev libassimp-dev libmeshoptimizer-dev attr)
# dbus, python3-dbus, python3-gi: the edit trust test runs a session bus and a notification service.
# ffmpeg: the audio and video tests decode with it. imagemagick: the edit test writes a texture with convert. python3-pil: the particle test plays the animated PNGs with PIL
# (Debian's, for /usr/bin/python3). python3-numpy: Blender's glTF importer needs it. man-db: the docs test
# renders gcfs(1) with `man --warnings` (a minbase root has no man). Node.js
# and npm run the Khronos glTF validator (a machine that already has Node.js
# with its npm, from another packaging, keeps it).
test_tools=(meson genisoimage python3 python3-numpy python3-pil dbus python3-dbus python3-gi imagemagick ffmpeg assimp-utils pngcheck xdelta3 blender clang libclang-rt-14-dev debootstrap man-db)
packages=("${build[@]}")
if [ "${1:-test}" = test ]; then
    packages+=("${test_tools[@]}")
    command -v npm >/dev/null || packages+=(nodejs npm)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# The glTF validator and three.js, at the versions tests/gltf/package-lock.json pins.
gltf_modules="$(dirname "$0")/../tests/gltf/node_modules"
if [ "${1:-test}" = test ] && { [ ! -d "$gltf_modules/gltf-validator" ] || [ ! -d "$gltf_modules/three" ]; }; then
    (cd "$(dirname "$0")/../tests/gltf" && npm ci --no-audit --no-fund --loglevel=error)
fi
