#include "edit/core_region.h"

#include <fmt/format.h>

#include <algorithm>

#include "edit/edit_refused.h"
#include "formats/core/core_growth.h"

namespace gcfs::edit {

uint64_t write_core_region(LevelParts& parts, formats::Bytes& core, uint64_t offset, uint64_t size, formats::ByteSpan block, std::string_view what) {
    if (offset + size > core.size()) throw EditRefused(fmt::format("the level's {} region lies past its core_data", what));
    uint64_t growth = 0;
    if (block.size() > size) {
        growth = formats::align_up(block.size() - size, formats::kCoreGrowthAlign);
        formats::Bytes index = level_part(parts, "core_index");
        const auto grown = formats::grow_core(index, core, offset + size, growth);
        if (!grown.ok())
            throw EditRefused(fmt::format("the {} block takes {} bytes, the level's {} region holds {}, and the core cannot grow: {}", what, block.size(),
                                          what, size, grown.error().message));
        parts.replace("core_index", std::move(index));
    }
    std::copy(block.begin(), block.end(), core.begin() + static_cast<int64_t>(offset));
    std::fill(core.begin() + static_cast<int64_t>(offset + block.size()), core.begin() + static_cast<int64_t>(offset + size + growth), 0);
    return growth;
}

}  // namespace gcfs::edit
