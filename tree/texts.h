// The generated text files: README.txt at the root and info.json per level.
#pragma once

#include <string>

#include "tree/disc_scan.h"

namespace gcfs::tree {

std::string readme_text(const DiscScan& disc, const std::string& image_path);
std::string level_info_json(const LevelScan& level);
std::string json_string(const std::string& text);  // quoted and escaped

}  // namespace gcfs::tree
