# Debian package via `cpack -G DEB` from a configured build directory.
# Runtime dependencies are the shared libraries gcfs links against or opens
# late (formats/common/late_library.h) on Debian 12.
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "gcfs")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "FUSE filesystem (read-only, or writable through an edits folder) for the Ratchet & Clank 2 (PS2) disc")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "gcfs developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "utils")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fuse3, libfuse3-3, libfmt9, libspdlog1.10, libsqlite3-0, zlib1g, libpng16-16, libimagequant0, libsndfile1, libassimp5, libmeshoptimizer2d, libtinygltf2d, libsodium23, libsystemd0")
# The build keeps debug information (RelWithDebInfo); the package ships the
# stripped binary.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gcfs_VERSION_ARCH.deb
include(CPack)
