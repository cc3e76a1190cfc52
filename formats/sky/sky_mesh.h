// The sky's shells as meshes (formats-tie-sky.md B.4): positions s16/1024,
// texture coordinates s/4096, alpha 0x80 -> 255 (else x2), faces stored in
// reverse winding (read as i2, i1, i0, as Wrench does), texture bytes naming
// texture defs (0xff: none). Every cluster's face indices are in range (the
// check Wrench misses, B.5), and a shell's texture bytes agree with its flag.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "formats/sky/sky.h"

namespace gcfs::formats {

struct SkyShellMesh {
    bool textured = false;                       // flags bit 0 clear (B.3)
    std::vector<std::array<float, 3>> positions; // all clusters', in order
    std::vector<std::array<float, 2>> uvs;       // one per position
    std::vector<uint8_t> alpha;                  // 0..255, one per position
    std::vector<std::array<uint32_t, 3>> faces;  // shell-wide vertex numbers
    std::vector<int> face_texture;               // texture def per face, -1 for none
};

Result<std::vector<SkyShellMesh>> sky_meshes(ByteSpan block, const Sky& sky);

// sky.obj: an object per shell, textured shells with vt and a material per
// texture def (sky_NNN, mapped to sky_NNN.png beside it), gradient shells
// with per-vertex colours (the header colour scaled by alpha: B.4 says RGB
// comes from the header; OBJ colours carry no alpha).
std::string sky_obj(const std::vector<SkyShellMesh>& shells, const SkyHeader& header);
std::string sky_mtl(size_t texture_count);

}  // namespace gcfs::formats
