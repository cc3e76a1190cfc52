#include "formats/common/wad_relayout.h"

#include <algorithm>

namespace gcfs::formats {

Relaid relay_items(ByteSpan wad, uint64_t header_size, const std::map<int64_t, uint64_t>& spans, int64_t replaced, ByteSpan with) {
    Relaid out;
    out.wad.assign(wad.begin(), wad.begin() + static_cast<int64_t>(std::min<uint64_t>(wad.size(), header_size)));
    out.wad.resize(align_up(header_size, kSectorSize), 0);
    for (const auto& [start, bytes] : spans) {
        out.sector_of[start] = static_cast<int32_t>(out.wad.size() / kSectorSize);
        if (start == replaced) {
            out.wad.insert(out.wad.end(), with.begin(), with.end());
        } else {
            const uint64_t at = static_cast<uint64_t>(start) * kSectorSize;
            if (at > wad.size()) fail(Errc::out_of_range, at, "an item starts past the WAD's end");
            const uint64_t n = std::min<uint64_t>(bytes, wad.size() - at);  // the last span ends at the file's end
            out.wad.insert(out.wad.end(), wad.begin() + static_cast<int64_t>(at), wad.begin() + static_cast<int64_t>(at + n));
        }
        out.wad.resize(align_up(out.wad.size(), kSectorSize), 0);
    }
    if (out.wad.size() / kSectorSize > static_cast<uint64_t>(INT32_MAX)) fail(Errc::too_large, 0, "the WAD would pass 2^31 sectors");
    return out;
}

}  // namespace gcfs::formats
