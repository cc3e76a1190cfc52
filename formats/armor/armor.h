// The ARMOR WAD (formats-globals.md §6): Ratchet's armor sets and wrenches,
// each a mesh-only moby class (formats/moby: read_mesh_only_class) and a
// texture list of 8-bit PIFs whose texture k is the packets' material k.
#pragma once

#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"

namespace gcfs::formats::armor {

constexpr int32_t kArmorHeaderSize = 0xF8;
constexpr int kArmors = 9, kWrenches = 6;
// §6: wrenches[6] follow armors[9] at 0x08 + 9 × 16 = 0x98, ending at the
// header size (Wrench's source comment says 0x50; its struct and unpacker
// put them at 0x98, and its unpacker rejects an entry written at 0x50).
constexpr uint64_t kArmorsAt = 0x08, kWrenchesAt = 0x98;
// The scales Wrench decodes them with (§6).
constexpr float kArmorScale = 0.145833328f, kWrenchScale = 1.0f;

struct Model {
    bool wrench = false;
    int index = 0;
    SectorRange mesh, textures;
    uint64_t header_at = 0;  // of its entry
    std::string error;       // a range past the WAD's end

    float scale() const { return wrench ? kWrenchScale : kArmorScale; }
    std::string name() const;  // "armor_2", "wrench_5"
};

// The present entries (mesh.size > 0), each range checked against the WAD.
Result<std::vector<Model>> parse_armor_wad(ByteSpan header, uint64_t file_size);
Bytes write_armor_header(const std::vector<Model>& models);

}  // namespace gcfs::formats::armor
