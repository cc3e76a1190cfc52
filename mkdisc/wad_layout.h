// A global WAD as the builder lays it out (formats-globals.md conventions,
// Wrench's pack_asset_sa): the header padded to a sector, then each item at a
// sector boundary, zero-padded to the next.
#pragma once

#include <algorithm>

#include "formats/common/bytes.h"
#include "formats/common/ranges.h"

namespace gcfs::mkdisc {

class WadLayout {
public:
    explicit WadLayout(uint64_t header_size) { out_.zeros(formats::align_up(header_size, formats::kSectorSize)); }
    int32_t sector() const { return static_cast<int32_t>(out_.size() / formats::kSectorSize); }
    // The item's SectorRange (offset, whole sectors).
    formats::SectorRange add(const formats::Bytes& item) {
        const int32_t at = sector();
        out_.append(item);
        out_.pad_to(formats::kSectorSize);
        return {at, sector() - at};
    }
    // The same item as a SectorByteRange (offset in sectors, exact bytes).
    formats::SectorByteRange add_exact(const formats::Bytes& item) {
        const int32_t at = add(item).offset;
        return {at, static_cast<int32_t>(item.size())};
    }
    // The header written over the first bytes.
    formats::Bytes finish(const formats::Bytes& header) {
        std::copy(header.begin(), header.end(), out_.bytes().begin());
        return std::move(out_.bytes());
    }

private:
    formats::ByteWriter out_;
};

}  // namespace gcfs::mkdisc
