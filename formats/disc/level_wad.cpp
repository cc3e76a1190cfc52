#include "formats/disc/level_wad.h"

#include <fmt/format.h>

#include <algorithm>

namespace gcfs::formats {

Result<LevelHeader> parse_level_header(ByteSpan b) {
    return capture([&] {
        LevelHeader h;
        h.header_size = s32_at(b, 0x00);
        if (h.header_size != kLevelHeaderSize && h.header_size != kLevelHeader68Size)
            fail(Errc::bad_magic, 0, fmt::format("level header size is 0x{:x}, not 0x60 or 0x68", h.header_size));
        require(b, 0, static_cast<uint64_t>(h.header_size), "level header");
        h.sector = s32_at(b, 0x04);
        h.id = s32_at(b, 0x08);
        if (h.header_size == kLevelHeaderSize) {  // §3.1
            h.reverb = s32_at(b, 0x0c);
            h.data = sector_range_at(b, 0x10);
            h.sound_bank = sector_range_at(b, 0x18);
            h.gameplay = sector_range_at(b, 0x20);
            h.occlusion = sector_range_at(b, 0x28);
            for (int i = 0; i < 3; ++i) h.chunks[i] = sector_range_at(b, 0x30 + 8 * i);
            for (int i = 0; i < 3; ++i) h.chunk_sound_banks[i] = sector_range_at(b, 0x48 + 8 * i);
        } else {  // §3.2
            h.data = sector_range_at(b, 0x0c);
            h.sound_bank = sector_range_at(b, 0x14);
            h.gameplay = sector_range_at(b, 0x1c);  // gameplay_ntsc; PAL at 0x24 is not exposed
            h.occlusion = sector_range_at(b, 0x2c);
            for (int i = 0; i < 3; ++i) h.chunks[i] = sector_range_at(b, 0x34 + 8 * i);
            h.reverb = s32_at(b, 0x4c);
            for (int i = 0; i < 3; ++i) h.chunk_sound_banks[i] = sector_range_at(b, 0x50 + 8 * i);
        }
        return h;
    });
}

void write_level_header(ByteWriter& w, const LevelHeader& h) {
    w.s32(kLevelHeaderSize);
    w.s32(h.sector);
    w.s32(h.id);
    w.s32(h.reverb);
    put(w, h.data);
    put(w, h.sound_bank);
    put(w, h.gameplay);
    put(w, h.occlusion);
    for (const auto& r : h.chunks) put(w, r);
    for (const auto& r : h.chunk_sound_banks) put(w, r);
}

namespace {

void put_range(std::span<uint8_t> b, uint64_t at, SectorRange r) {
    require(b, at, 8, "level header range");
    for (int i = 0; i < 4; ++i) {
        b[at + i] = static_cast<uint8_t>(static_cast<uint32_t>(r.offset) >> (8 * i));
        b[at + 4 + i] = static_cast<uint8_t>(static_cast<uint32_t>(r.size) >> (8 * i));
    }
}

}  // namespace

void put_level_extents(std::span<uint8_t> b, const LevelHeader& h) {
    if (s32_at(b, 0) == kLevelHeaderSize) {  // §3.1
        put_range(b, 0x10, h.data);
        put_range(b, 0x18, h.sound_bank);
        put_range(b, 0x20, h.gameplay);
        put_range(b, 0x28, h.occlusion);
        for (int i = 0; i < 3; ++i) put_range(b, 0x30 + 8 * i, h.chunks[i]);
        for (int i = 0; i < 3; ++i) put_range(b, 0x48 + 8 * i, h.chunk_sound_banks[i]);
        return;
    }
    if (s32_at(b, 0) != kLevelHeader68Size) fail(Errc::bad_magic, 0, "level header size is not 0x60 or 0x68");
    const SectorRange ntsc = sector_range_at(b, 0x1c), pal = sector_range_at(b, 0x24);  // §3.2
    put_range(b, 0x0c, h.data);
    put_range(b, 0x14, h.sound_bank);
    put_range(b, 0x1c, h.gameplay);
    if (pal.offset == ntsc.offset && pal.size == ntsc.size) put_range(b, 0x24, h.gameplay);
    put_range(b, 0x2c, h.occlusion);
    for (int i = 0; i < 3; ++i) put_range(b, 0x34 + 8 * i, h.chunks[i]);
    for (int i = 0; i < 3; ++i) put_range(b, 0x50 + 8 * i, h.chunk_sound_banks[i]);
}

std::vector<LevelExtent> level_extents(const LevelHeader& h) {
    std::vector<LevelExtent> all = {
        {"data", h.data}, {"sound_bank", h.sound_bank}, {"gameplay", h.gameplay}, {"occlusion", h.occlusion}};
    for (int i = 0; i < 3; ++i) all.push_back({fmt::format("chunk_{}", i), h.chunks[i]});
    for (int i = 0; i < 3; ++i) all.push_back({fmt::format("chunk_sound_bank_{}", i), h.chunk_sound_banks[i]});
    std::erase_if(all, [](const LevelExtent& e) { return e.range.empty(); });
    return all;
}

uint64_t claimed_sectors(const LevelHeader& h) {
    uint64_t sectors = 1;  // the header sector
    for (const auto& e : level_extents(h)) sectors += static_cast<uint64_t>(e.range.size);
    return sectors;
}

std::vector<FormatError> extent_problems(const LevelHeader& h, uint64_t file_sectors) {
    std::vector<FormatError> problems;
    auto extents = level_extents(h);
    for (const auto& e : extents) {
        if (e.range.offset < 1 || static_cast<uint64_t>(e.range.end()) > file_sectors)
            problems.push_back({Errc::out_of_range, static_cast<uint64_t>(e.range.byte_offset()),
                                fmt::format("extent {} covers sectors [{}, {}) outside the {}-sector file (header is sector 0)",
                                            e.name, e.range.offset, e.range.end(), file_sectors)});
    }
    std::sort(extents.begin(), extents.end(),
              [](const LevelExtent& a, const LevelExtent& b) { return a.range.offset < b.range.offset; });
    for (size_t i = 1; i < extents.size(); ++i) {
        const auto& prev = extents[i - 1];
        const auto& cur = extents[i];
        if (cur.range.offset < prev.range.end())
            problems.push_back({Errc::bad_value, cur.range.byte_offset(),
                                fmt::format("extent {} (sectors [{}, {})) overlaps {} (sectors [{}, {}))", cur.name,
                                            cur.range.offset, cur.range.end(), prev.name, prev.range.offset,
                                            prev.range.end())});
    }
    return problems;
}

}  // namespace gcfs::formats
