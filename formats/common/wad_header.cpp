#include "formats/common/wad_header.h"

#include <map>

#include "formats/common/wad_relayout.h"

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

Result<Bytes> replace_range_item(ByteSpan wad, int32_t header_size, std::span<const RangeTable> tables, const RangeTable& table, int index,
                                 ByteSpan item) {
    return capture([&] {
        auto entries = read_range_tables(wad, header_size, tables, wad.size(), "the WAD header");
        if (!entries.ok()) fail(entries.error().code, entries.error().offset, entries.error().message);
        std::map<int64_t, uint64_t> spans;
        const RangeEntry* target = nullptr;
        for (const auto& e : *entries) {
            if (!e.error.empty()) fail(Errc::out_of_range, 0, e.error);
            spans[e.range.offset] = std::max(spans[e.range.offset], e.byte_size());
            if (e.table == &table && e.index == index) target = &e;
        }
        if (!target) fail(Errc::bad_value, 0, fmt::format("{}[{}] is empty in this WAD", table.name, index));
        int sharing = 0;
        for (const auto& e : *entries) sharing += e.range.offset == target->range.offset;
        const int64_t replaced = sharing > 1 ? kNewItem : target->range.offset;
        if (sharing > 1) spans[kNewItem] = item.size();
        const Relaid out = relay_items(wad, static_cast<uint64_t>(header_size), spans, replaced, item);
        Bytes result = out.wad;
        auto put = [&](uint64_t at, int32_t v) {
            for (int i = 0; i < 4; ++i) result.at(at + i) = static_cast<uint8_t>(static_cast<uint32_t>(v) >> (8 * i));
        };
        for (const auto& e : *entries) {
            const bool mine = &e == target;
            const uint64_t at = e.table->offset + 8 * static_cast<uint64_t>(e.index);
            put(at, out.sector_of.at(mine ? replaced : e.range.offset));
            put(at + 4, mine ? static_cast<int32_t>(sectors_for(item.size())) : e.range.size);
        }
        return result;
    });
}

}  // namespace gcfs::formats
