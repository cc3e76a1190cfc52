// Builds one synthetic level: its LEVEL, AUDIO and SCENE WADs, laid out as
// formats.md §3-§6 describe, plus the uncompressed originals for checking.
#pragma once

#include <string>

#include "formats/common/bytes.h"
#include "formats/disc/level_wad.h"
#include "mkdisc/damage.h"

namespace gcfs::mkdisc {

enum class Scale { small, full };

struct LevelSpec {
    int index = 0;   // position in the level table
    int id = 0;      // the id the header reports (§2.4; differs from the index)
    uint64_t seed = 1;
    Scale scale = Scale::small;
    std::vector<Damage> damage;  // deliberate damage for the corrupt corpus
};

struct LevelImage {
    formats::Bytes level_wad;   // LEVEL file, header at sector 0
    formats::Bytes audio_wad;   // 0x1018-byte header (§3.4) and sample data
    formats::Bytes scene_wad;   // 0x137C-byte header (§3.4), opaque body
    formats::LevelHeader header;
    formats::Bytes core_data;   // decompressed core data (what core_data.bin must equal)
    formats::Bytes gameplay;    // decompressed gameplay (what gameplay.bin must equal)
    std::string marker;         // a string planted inside the compressed core
    int patch_count = 0;
};

LevelImage build_level(const LevelSpec& spec);

// The header of a WAD as its TOC copy starts: header_size, sector, then body.
formats::Bytes wad_header_prefix(const formats::Bytes& file, int32_t header_size);

}  // namespace gcfs::mkdisc
