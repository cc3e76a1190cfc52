// A ratchet executable (formats-globals.md §8) as an ELF file: the MISC WAD's
// frontbin, each level's code overlay. Its size follows from the block
// headers; the ELF is rebuilt on first read.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "cache/lru_cache.h"
#include "tree/node/node.h"
#include "tree/globals/wad_item.h"

namespace gcfs::tree {

std::shared_ptr<const Source> rebuilt_elf(cache::LruCache& cache, WadItem item);
// The blocks as info.json lists them, the shape and the names the ELF gives them.
nlohmann::ordered_json executable_json(const WadItem& item);

}  // namespace gcfs::tree
