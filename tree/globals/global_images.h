// The global WADs' pictures as PNG (formats-globals.md §5, §7): a PIF or an
// RGBA image in a WAD item, raw or compressed. The size needs only the
// image's header (its first 0x20 bytes, decoded when compressed); the PNG is
// made on first read.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "cache/lru_cache.h"
#include "tree/node/derived_file.h"
#include "tree/node/node.h"
#include "tree/globals/wad_item.h"

namespace gcfs::tree {

std::shared_ptr<const Source> pif_png(cache::LruCache& cache, WadItem item);
std::shared_ptr<const Source> rgba_png(cache::LruCache& cache, WadItem item);

// What info.json and the CSVs say of a PIF or RGBA item: its header's fields,
// or the error that keeps it from being a picture.
nlohmann::ordered_json pif_json(const WadItem& item);
nlohmann::ordered_json rgba_json(const WadItem& item);

}  // namespace gcfs::tree
