#include "formats/core/texture_rows.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <utility>

#include "formats/core/core_growth.h"
#include "formats/core/core_tables.h"
#include "formats/core/level_core.h"

namespace gcfs::formats {
namespace {

// §6.1: the header words that hold IDX offsets (a range's offset is its second word).
constexpr uint64_t kIndexOffsetFields[] = {0x04, 0x1C, 0x24, 0x2C, 0x34, 0x3C, 0x44, 0x4C, 0x54, 0x5C, 0x6C, 0x70, 0x78, 0xAC};
constexpr uint64_t kGsRamField = 0x00;
constexpr int32_t kPsmRgba32 = 0, kPsmIdtex8 = 0x13;  // §6.3 GsRamEntry.psm
constexpr int16_t kRegularTexture = 3;               // formats-moby.md §10.2: the packer's type for a texture in DAT

bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Where DAT's shared-texture region ends (§6.2: at the next block boundary).
uint64_t textures_end(const LevelCoreHeader& h, ByteSpan index) {
    std::vector<int32_t> offsets;
    for (const auto& [range, size] : {std::pair{h.moby_classes, kClassEntrySize}, {h.tie_classes, kClassEntrySize}, {h.shrub_classes, kShrubClassEntrySize}}) {
        auto entries = parse_class_table(index, range, size);
        if (!entries.ok()) fail(entries.error().code, entries.error().offset, entries.error().message);
        for (const ClassEntry& e : *entries) offsets.push_back(e.offset_in_asset_wad);
    }
    auto regions = core_regions(h, block_boundaries(h, offsets, index));
    if (!regions.ok()) fail(regions.error().code, regions.error().offset, regions.error().message);
    for (const CoreRegion& r : *regions)
        if (r.name == "textures") {
            if (r.size == 0) fail(Errc::bad_value, 0x60, "the core's shared-texture region is empty, so a new row's texels have no place to follow");
            return r.offset + r.size;
        }
    fail(Errc::bad_value, 0x60, "the core has no shared-texture region (formats.md 6.1 0x60)");
}

// Wrench's quarter-size mip: every fourth texel of every fourth row.
Bytes quarter_mip(const NewTextureRow& row) {
    Bytes mip;
    for (uint32_t y = 0; y < row.height / 4; ++y)
        for (uint32_t x = 0; x < row.width / 4; ++x) mip.push_back(row.texels[uint64_t{y} * 4 * row.width + uint64_t{x} * 4]);
    return mip;
}

// Inserts `entry` (16 bytes) at the end of the table whose ArrayRange is at header field `field`, counting it.
void append_entry(Bytes& index, uint64_t field, const Bytes& entry) {
    const ArrayRange range = array_range_at(index, field);
    const uint64_t at = static_cast<uint64_t>(range.offset) + static_cast<uint64_t>(range.count) * kTextureEntrySize;
    auto grown = grow_index(index, at, entry.size(), field);
    if (!grown.ok()) fail(grown.error().code, grown.error().offset, grown.error().message);
    std::copy(entry.begin(), entry.end(), index.begin() + static_cast<int64_t>(at));
    put_u32_at(index, field, static_cast<uint32_t>(range.count + static_cast<int32_t>(entry.size() / kTextureEntrySize)));
}

}  // namespace

uint64_t texture_table_field(TextureTable table) {
    switch (table) {
        case TextureTable::tfrag: return 0x30;
        case TextureTable::moby: return 0x38;
        case TextureTable::tie: return 0x40;
        case TextureTable::shrub: return 0x48;
    }
    return 0x30;
}

Result<bool> grow_index(Bytes& core_index, uint64_t at, uint64_t growth, uint64_t kept) {
    return capture([&] {
        if (growth % 0x10 != 0) fail(Errc::bad_value, 0, fmt::format("an IDX growth of {} bytes is not whole 0x10s", growth));
        auto parsed = parse_level_core_header(core_index);
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, parsed.error().message);
        if (at < kLevelCoreHeaderSize || at > core_index.size())
            fail(Errc::out_of_range, 0, fmt::format("IDX offset {} lies outside its tables (0x{:x} to {})", at, kLevelCoreHeaderSize, core_index.size()));
        for (const auto& [field, name, value] : {std::tuple{0x74, "unknown_74", parsed->unknown_74},
                                                 std::tuple{0xB4, "moby_sound_remap_offset", parsed->moby_sound_remap_offset}})
            if (value != 0)
                fail(Errc::bad_value, static_cast<uint64_t>(field),
                     fmt::format("the core header's {} (0x{:x}) is set, and the references do not say whether it points into IDX: its tables are not moved",
                                 name, field));
        Bytes index = core_index;
        for (uint64_t field : kIndexOffsetFields) {
            const int32_t value = s32_at(index, field);
            if (field == kept + 4 || value <= 0 || static_cast<uint64_t>(value) < at) continue;
            if (static_cast<uint64_t>(value) + growth > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
                fail(Errc::too_large, field, "an IDX offset would pass what an s32 holds");
            put_u32_at(index, field, static_cast<uint32_t>(static_cast<uint64_t>(value) + growth));
        }
        index.insert(index.begin() + static_cast<int64_t>(at), growth, 0);
        core_index = std::move(index);
        return true;
    });
}

Result<size_t> add_texture_row(Bytes& core_index, Bytes& dat, Bytes& gs_ram, TextureTable table, const NewTextureRow& row) {
    return capture([&] {
        for (uint32_t side : {row.width, row.height})
            if (!power_of_two(side) || side < kNewTextureMinSide || side > kNewTextureMaxSide)
                fail(Errc::bad_value, 0, fmt::format("a new texture is {}x{}; each side must be a power of two from {} to {}", row.width, row.height,
                                                     kNewTextureMinSide, kNewTextureMaxSide));
        if (row.texels.size() != uint64_t{row.width} * row.height || row.palette.size() != kPaletteBytes)
            fail(Errc::bad_value, 0, fmt::format("a new texture's {} texels and {} palette bytes do not fit {}x{}", row.texels.size(), row.palette.size(),
                                                 row.width, row.height));
        auto parsed = parse_level_core_header(core_index);
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, parsed.error().message);
        const uint64_t field = texture_table_field(table);
        const ArrayRange range = array_range_at(core_index, field);
        // §6.3: a class names its rows by u8 slots in which 0xFF ends the list.
        if (table != TextureTable::tfrag && range.count >= 0xFF)
            fail(Errc::too_large, field, fmt::format("the table has {} rows, the most a class's u8 slots can name past 0xFF's end mark", range.count));
        if (range.count < 0 || range.offset <= 0) fail(Errc::bad_value, field, fmt::format("the table's range ({}, {}) names no rows", range.count, range.offset));

        Bytes index = core_index, data = dat, gs = gs_ram;
        // DAT: the texels after the region's last, the region grown to hold them.
        const uint64_t at = textures_end(*parsed, index);
        const uint64_t texels_room = align_up(row.texels.size(), kCoreGrowthAlign);
        auto grown = grow_core(index, data, at, texels_room);
        if (!grown.ok()) fail(grown.error().code, grown.error().offset, grown.error().message);
        std::copy(row.texels.begin(), row.texels.end(), data.begin() + static_cast<int64_t>(at));
        const uint64_t data_offset = at - static_cast<uint64_t>(parsed->textures_base_offset);

        // GS RAM: the palette and the mip, each 0x100-aligned after the lump's end.
        auto place = [&](const Bytes& bytes) {
            gs.resize(align_up(gs.size(), kPaletteUnit), 0);
            const uint64_t offset = gs.size();
            gs.insert(gs.end(), bytes.begin(), bytes.end());
            if (offset / kPaletteUnit > static_cast<uint64_t>(std::numeric_limits<int16_t>::max()))
                fail(Errc::too_large, 0, fmt::format("gs_ram would reach {} bytes, past the s16 0x100 units a texture row names", offset));
            return offset;
        };
        const uint64_t palette = place(row.palette);
        const uint64_t mip = place(quarter_mip(row));
        gs.resize(align_up(gs.size(), kPaletteUnit), 0);

        ByteWriter gs_entries;
        for (const auto& [psm, width, height, offset] : {std::tuple{kPsmRgba32, 0u, 0u, palette}, std::tuple{kPsmIdtex8, row.width / 4, row.height / 4, mip}}) {
            gs_entries.s32(psm);
            gs_entries.s16(static_cast<int16_t>(width));
            gs_entries.s16(static_cast<int16_t>(height));
            gs_entries.s32(static_cast<int32_t>(offset));  // address
            gs_entries.s32(static_cast<int32_t>(offset));  // offset in the lump
        }
        ByteWriter entry;
        entry.s32(static_cast<int32_t>(data_offset));
        for (int64_t v : {int64_t{row.width}, int64_t{row.height}, int64_t{kRegularTexture}, static_cast<int64_t>(palette / kPaletteUnit),
                          static_cast<int64_t>(mip / kPaletteUnit), int64_t{-1}})
            entry.s16(static_cast<int16_t>(v));
        // The texture table precedes the GS table in IDX (§6.2), and each insertion re-reads the ranges it moved.
        append_entry(index, field, entry.bytes());
        append_entry(index, kGsRamField, gs_entries.bytes());

        core_index = std::move(index);
        dat = std::move(data);
        gs_ram = std::move(gs);
        return static_cast<size_t>(range.count);
    });
}

}  // namespace gcfs::formats
