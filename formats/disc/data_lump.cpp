#include "formats/disc/data_lump.h"

#include <fmt/format.h>

namespace gcfs::formats {

std::vector<DataLumpSection> data_lump_sections(const DataLumpHeader& h) {
    std::vector<DataLumpSection> all = {
        {"overlay", h.overlay, false},
        {"core_index", h.core_index, false},
        {"gs_ram", h.gs_ram, false},
        {"hud_header", h.hud_header, false},
    };
    for (int i = 0; i < 5; ++i) all.push_back({fmt::format("hud_bank_{}", i), h.hud_banks[i], true});
    all.push_back({"core_data", h.core_data, true});
    all.push_back({"transition_textures", h.transition_textures, true});
    std::erase_if(all, [](const DataLumpSection& s) { return s.range.empty(); });
    return all;
}

Result<DataLumpHeader> parse_data_lump_header(ByteSpan b, uint64_t lump_size) {
    return capture([&] {
        require(b, 0, kDataLumpHeaderSize, "data lump header");
        DataLumpHeader h;
        h.overlay = byte_range_at(b, 0x00);
        h.core_index = byte_range_at(b, 0x08);
        h.gs_ram = byte_range_at(b, 0x10);
        h.hud_header = byte_range_at(b, 0x18);
        for (int i = 0; i < 5; ++i) h.hud_banks[i] = byte_range_at(b, 0x20 + 8 * i);
        h.core_data = byte_range_at(b, 0x48);
        h.transition_textures = byte_range_at(b, 0x50);
        for (const auto& section : data_lump_sections(h)) {
            if (section.range.offset < static_cast<int64_t>(kDataLumpHeaderSize) ||
                static_cast<uint64_t>(section.range.end()) > lump_size)
                fail(Errc::out_of_range, 0,
                     fmt::format("{} covers bytes [{}, {}) outside the {}-byte data lump", section.name,
                                 section.range.offset, section.range.end(), lump_size));
        }
        if (h.core_index.empty()) fail(Errc::bad_value, 0x08, "data lump has no core_index");
        if (h.core_data.empty()) fail(Errc::bad_value, 0x48, "data lump has no core_data");
        return h;
    });
}

void write_data_lump_header(ByteWriter& w, const DataLumpHeader& h) {
    put(w, h.overlay);
    put(w, h.core_index);
    put(w, h.gs_ram);
    put(w, h.hud_header);
    for (const auto& r : h.hud_banks) put(w, r);
    put(w, h.core_data);
    put(w, h.transition_textures);
}

}  // namespace gcfs::formats
