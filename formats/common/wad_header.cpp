#include "formats/common/wad_header.h"

#include <fmt/format.h>

namespace gcfs::formats {

Result<std::vector<RangeEntry>> read_range_tables(ByteSpan header, int32_t header_size, std::span<const RangeTable> tables,
                                                  uint64_t file_size, const char* what) {
    return capture([&]() -> std::vector<RangeEntry> {
        require(header, 0, static_cast<uint64_t>(header_size), what);
        if (s32_at(header, 0) != header_size)
            fail(Errc::bad_magic, 0, fmt::format("header_size 0x{:x}, {} is 0x{:x}", s32_at(header, 0), what, header_size));
        std::vector<RangeEntry> entries;
        for (const RangeTable& t : tables)
            for (int i = 0; i < t.count; ++i) {
                const uint64_t at = t.offset + 8 * static_cast<uint64_t>(i);
                const SectorRange r = sector_range_at(header, at);
                if (r.empty()) continue;
                RangeEntry e{&t, i, r};
                if (r.offset < 0 || r.byte_offset() + r.byte_size() > file_size)
                    e.error = fmt::format("{}[{}] claims sectors [{}, {}) of a {}-byte WAD (header byte 0x{:x})", t.name, i, r.offset, r.end(),
                                          file_size, at);
                entries.push_back(std::move(e));
            }
        return entries;
    });
}

Bytes write_range_tables(int32_t header_size, const std::vector<PlacedRange>& ranges) {
    ByteWriter out;
    out.s32(header_size);
    out.s32(0);  // the sector word: the TOC's copy carries the file's LBA (formats.md §2.3)
    out.zeros(static_cast<uint64_t>(header_size) - 8);
    for (const PlacedRange& p : ranges) {
        const uint64_t at = p.table->offset + 8 * static_cast<uint64_t>(p.index);
        out.patch_u32(at, static_cast<uint32_t>(p.range.offset));
        out.patch_u32(at + 4, static_cast<uint32_t>(p.range.size));
    }
    return std::move(out.bytes());
}

}  // namespace gcfs::formats
