// A synthetic GC gameplay file with every block of formats-gameplay.md §2.1
// (occlusion on even levels only, as a real disc may or may not carry it),
// written by the formats/gameplay encoders in the §2.2 order (§8 checklist).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "mkdisc/random.h"

namespace gcfs::mkdisc {

struct GameplaySpec {
    int level = 0;
    bool full_scale = false;
    // The terrain the instances stand on: height (z) at world x, y over [0, extent).
    std::function<double(double x, double y)> height;
    double extent = 0;
    std::vector<int32_t> moby_classes, tie_classes, shrub_classes;  // ids in the core's class tables
    int tfrag_count = 0;
};

// The phrase planted in every level's US English help block (a mount test greps for it).
std::string help_phrase(int level);

// `mappings`, when given, gets the occlusion mappings block (§3.17) of
// every level, even one whose gameplay file leaves the slot 0: the level's
// occlusion extent is a copy of it (formats.md §3.1 0x28, Wrench's
// write_occlusion_copy), and the game reads the mappings from there when the
// slot is 0 (Wrench's packer always leaves it so).
formats::Bytes build_gameplay(const GameplaySpec& spec, Random& random, formats::Bytes* mappings = nullptr);

}  // namespace gcfs::mkdisc
