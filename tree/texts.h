// The generated text files: README.txt at the root and info.json per level.
#pragma once

#include <array>
#include <map>
#include <string>

#include "tree/level/class_models.h"
#include "tree/level/core_geometry.h"
#include "tree/disc_scan.h"
#include "tree/level/gameplay.h"

namespace gcfs::tree {

// disc/.damaged: one line per problem of the ISO9660 tree, LBA and byte.
std::string iso_damage_text(const std::vector<IsoDamage>& damage);
std::string readme_text(const DiscScan& disc, const std::string& image_path);
// `geometry`: the parsed occlusion, sky and collision regions, or null when
// the level has no core regions; `gameplay`: the gameplay blocks, or null
// when the level has no gameplay extent; `class_models`: ties and shrubs (null
// when absent), reported once ties/ or shrubs/ has been indexed.
std::string level_info_json(const LevelScan& level, const GeometryIndex* geometry, const GameplayIndex* gameplay,
                            const std::array<const LevelClassModels*, 3>& class_models);

}  // namespace gcfs::tree
