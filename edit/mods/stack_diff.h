// What a stack of mod folders changes, in words per file (gcfs diff IMAGE A
// [B …]): each file a folder changed, read from the image and from the image
// as the stack changes it, compared at its own grain: a table's cells (with
// the row's uid), a help file's messages, settings.json's keys, a subtitle
// file's cues, a picture's changed pixels and their bounding box, a sound's
// length; any other file by its bytes.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "tree/tree_builder.h"

namespace gcfs::edit::mods {

struct FileDiff {
    std::string path;
    std::string kind;                    // "table", "messages", "settings", "cues", "picture", "sound", "bytes"
    std::vector<nlohmann::json> changes; // each with "text" (one line in words) and its fields
};

std::vector<FileDiff> diff_files(const tree::Disc& original, const tree::Disc& edited, const std::vector<std::string>& paths);
std::string diff_text(const std::vector<FileDiff>& diffs);
nlohmann::json diff_json(const std::vector<FileDiff>& diffs);

}  // namespace gcfs::edit::mods
