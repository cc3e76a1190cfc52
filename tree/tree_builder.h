// Opens an image and builds the whole virtual tree once: headers parsed,
// every size known, nothing decoded (fuse-archive style: one tree, lazy readers).
#pragma once

#include <memory>
#include <string>

#include "cache/lru_cache.h"
#include "tree/disc_scan.h"
#include "tree/image.h"
#include "tree/node.h"
#include "tree/stats.h"

namespace gcfs::tree {

struct Disc {
    std::unique_ptr<Image> image;
    std::unique_ptr<cache::LruCache> cache;
    DiscScan scan;
    Tree tree;
    Diagnostics diagnostics;
};

// Throws std::system_error (cannot open) or NotAGameDisc (wrong content).
std::unique_ptr<Disc> open_disc(const std::string& image_path, uint64_t cache_budget_bytes);

}  // namespace gcfs::tree
