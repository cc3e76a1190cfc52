#include "tree/level/texel_regions.h"

#include <algorithm>

namespace gcfs::tree {

TexelRegions::TexelRegions(const std::shared_ptr<const WadStream>& core, const Image& image, cache::LruCache& cache,
                           const CoreStream& stream, std::vector<std::pair<uint64_t, uint64_t>> ranges) {
    std::sort(ranges.begin(), ranges.end());
    auto add = [&](uint64_t from, uint64_t to) {
        regions_.push_back(std::make_shared<StreamRegion>(core, image, cache, stream, from, to - from));
    };
    uint64_t from = 0, to = 0;
    bool open = false;
    for (const auto& [start, end] : ranges) {
        if (start >= end) continue;
        if (open && start <= to + kJoinGap) {
            to = std::max(to, end);
            continue;
        }
        if (open) add(from, to);
        from = start, to = end, open = true;
    }
    if (open) add(from, to);
}

std::shared_ptr<const StreamRegion> TexelRegions::covering(uint64_t from, uint64_t to) const {
    if (from >= to) return nullptr;  // no bytes to cover (a particle none of whose frames is in the table)
    // The last region starting at or before `from`; regions do not overlap.
    auto it = std::upper_bound(regions_.begin(), regions_.end(), from,
                               [](uint64_t at, const std::shared_ptr<const StreamRegion>& r) { return at < r->offset(); });
    if (it == regions_.begin()) return nullptr;
    const auto& region = *(it - 1);
    if (to > region->offset() + region->size()) return nullptr;
    return region;
}

}  // namespace gcfs::tree
