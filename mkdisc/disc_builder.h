// Writes a synthetic Going Commando disc image: ISO9660 volume, SYSTEM.CNF at
// LBA 1000, the table of contents at 1001, globals and per-level WADs
// (formats.md §2). Deterministic for a given spec.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "mkdisc/level_builder.h"

namespace gcfs::mkdisc {

struct DiscSpec {
    int levels = 4;
    uint64_t seed = 1;
    Scale scale = Scale::small;
    std::vector<DamageSpec> damage;
};

struct BuiltLevel {
    int index;
    int id;
    std::string name;     // the §2.4 name for that id
    std::string marker;
    uint32_t lba;          // of the LEVEL file
    uint32_t sectors;
    int patches;
};

struct DiscManifest {
    std::vector<BuiltLevel> levels;
    uint64_t image_bytes = 0;
};

// Level ids in table order: as on the retail disc, table index 21 holds the
// Insomniac Museum (id 30). A smaller disc puts id 30 in its last slot.
std::vector<int> level_ids(int level_count);
const char* level_name(int id);  // formats.md §2.4, "" when unknown

// Builds the image at `path`. `on_level` sees each level before it is
// dropped from memory (tests keep the originals; the CLI may save them).
DiscManifest build_disc(const DiscSpec& spec, const std::string& path,
                        const std::function<void(const LevelSpec&, const LevelImage&)>& on_level = {});

}  // namespace gcfs::mkdisc
