#include "formats/core/core_growth.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include "formats/core/level_core.h"

namespace gcfs::formats {
Result<bool> grow_core(Bytes& core_index, Bytes& dat, uint64_t at, uint64_t growth) {
    return capture([&] {
        if (growth % kCoreGrowthAlign != 0) fail(Errc::bad_value, 0, fmt::format("a growth of {} bytes is not whole 0x{:x}s", growth, kCoreGrowthAlign));
        if (at > dat.size()) fail(Errc::out_of_range, 0, fmt::format("DAT offset {} lies past its {} bytes", at, dat.size()));
        auto parsed = parse_level_core_header(core_index);
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, parsed.error().message);
        LevelCoreHeader h = *parsed;
        for (const auto& [field, name, value] : {std::tuple{0xA4, "heightmap_offset", h.heightmap_offset},
                                                 std::tuple{0xA8, "occlusion_oct_offset", h.occlusion_oct_offset},
                                                 std::tuple{0xB0, "occlusion_rad_offset", h.occlusion_rad_offset},
                                                 std::tuple{0xB8, "occlusion_rad2_offset", h.occlusion_rad2_offset},
                                                 std::tuple{0xB4, "moby_sound_remap_offset", h.moby_sound_remap_offset}})
            if (value != 0)
                fail(Errc::bad_value, static_cast<uint64_t>(field),
                     fmt::format("the core header's {} (0x{:x}) is set, and the references do not say where it points: the core's "
                                 "blocks are not moved", name, field));
        Bytes index = core_index;
        // An offset or end at or past `at` moves with what it places; 0 is "none" (§6.1), and a negative one names nothing.
        auto moved = [&](int32_t value, const std::string& what) {
            if (value <= 0 || static_cast<uint64_t>(value) < at) return value;
            const uint64_t now = static_cast<uint64_t>(value) + growth;
            if (now > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
                fail(Errc::too_large, 0, fmt::format("{} would pass what an s32 holds", what));
            return static_cast<int32_t>(now);
        };
        for (auto [field, name] : {std::pair{&h.tfrags, "tfrags"}, {&h.occlusion, "occlusion"}, {&h.sky, "sky"}, {&h.collision, "collision"},
                                   {&h.textures_base_offset, "textures_base_offset"}, {&h.part_bank_offset, "part_bank_offset"},
                                   {&h.fx_bank_offset, "fx_bank_offset"}, {&h.scene_view_size, "scene_view_size"},
                                   {&h.assets_decompressed_size, "assets_decompressed_size"}})
            *field = moved(*field, name);
        // §6.3: offset_in_asset_wad is each entry's first word.
        for (const auto& [range, size, kind] : {std::tuple{h.moby_classes, kClassEntrySize, "moby"}, std::tuple{h.tie_classes, kClassEntrySize, "tie"},
                                                std::tuple{h.shrub_classes, kShrubClassEntrySize, "shrub"}}) {
            auto entries = parse_class_table(index, range, size);
            if (!entries.ok()) fail(entries.error().code, entries.error().offset, fmt::format("{} class table: {}", kind, entries.error().message));
            for (size_t i = 0; i < entries->size(); ++i)
                put_u32_at(index, static_cast<uint64_t>(range.offset) + i * size,
                        static_cast<uint32_t>(moved((*entries)[i].offset_in_asset_wad, fmt::format("{} class {}'s offset", kind, i))));
        }
        // §6.1 0x78: 256 s32 offsets into DAT, 0 for none (read only where the table fits, as the scan reads it).
        if (h.ratchet_seqs > 0 && static_cast<uint64_t>(h.ratchet_seqs) + 4 * kRatchetSeqSlots <= index.size())
            for (uint64_t i = 0; i < kRatchetSeqSlots; ++i) {
                const uint64_t slot = static_cast<uint64_t>(h.ratchet_seqs) + 4 * i;
                put_u32_at(index, slot, static_cast<uint32_t>(moved(s32_at(index, slot), fmt::format("ratchet seq {}", i))));
            }
        ByteWriter header;
        write_level_core_header(header, h);
        std::copy(header.bytes().begin(), header.bytes().end(), index.begin());
        core_index = std::move(index);
        dat.insert(dat.begin() + static_cast<int64_t>(at), growth, 0);
        return true;
    });
}

}  // namespace gcfs::formats
