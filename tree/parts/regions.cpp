#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// core/<region>.bin: windows of core_data.bin (formats.md 6.2); a region
// before damage in the stream reads, whatever was read first (StreamRegion).
void regions(LevelFolder& f) {
    if (!f.core || f.level.regions.empty()) return;
    const uint64_t dir = f.directory(f.dir, "core");
    for (const auto& region : f.level.regions)
        f.file(dir, region.name + ".bin", std::make_shared<StreamRegion>(f.core, f.image(), f.cache(), f.core_stream, region.offset, region.size),
               f.from_core(LevelFolder::kWadLz, region, "region (formats.md 6.2)"));
}

}  // namespace gcfs::tree::parts
