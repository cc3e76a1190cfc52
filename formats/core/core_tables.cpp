#include "formats/core/core_tables.h"

#include <fmt/format.h>

namespace gcfs::formats {

std::string class_problem(const ClassEntry& e, uint64_t core_size) {
    if (e.offset_in_asset_wad < 0 || static_cast<uint64_t>(e.offset_in_asset_wad) >= core_size)
        return fmt::format("offset {} outside the {}-byte core", e.offset_in_asset_wad, core_size);
    return {};
}

std::string texture_problem(const TextureEntry& e, int32_t textures_base, uint64_t core_size, uint64_t gs_ram_size) {
    if (e.width <= 0 || e.height <= 0) return fmt::format("size {}x{}", e.width, e.height);
    const int64_t start = static_cast<int64_t>(textures_base) + e.data_offset;
    const uint64_t bytes = static_cast<uint64_t>(e.width) * static_cast<uint64_t>(e.height);
    if (start < 0 || static_cast<uint64_t>(start) + bytes > core_size)
        return fmt::format("pixels [{}, {}) outside the {}-byte core", start, start + static_cast<int64_t>(bytes), core_size);
    const uint64_t palette = static_cast<uint64_t>(static_cast<uint16_t>(e.palette)) * kPaletteUnit;
    if (e.palette < 0 || palette + kPaletteBytes > gs_ram_size)
        return fmt::format("palette {} at gs_ram 0x{:x} outside the {}-byte lump", e.palette, palette, gs_ram_size);
    return {};
}

std::string texture_problem(const TextureEntry& e, int32_t textures_base, uint64_t core_size, uint64_t gs_ram_size,
                            std::optional<uint64_t> stash) {
    if (stash) return texture_problem(e, static_cast<int32_t>(*stash), gs_ram_size, gs_ram_size);
    return texture_problem(e, textures_base, core_size, gs_ram_size);
}

std::string class_table_csv(const std::vector<ClassEntry>& entries, bool shrub, uint64_t core_size, const std::set<int32_t>* gs_stash) {
    std::string out = "index,o_class,offset_in_core_data,model,unknown_8,unknown_c,textures";
    if (gs_stash) out += ",gs_stash";
    if (shrub) out += ",billboard_width,billboard_height,max_mip,palette_offset,texture_offset,mip1,mip2,mip3";
    out += "\n";
    for (size_t i = 0; i < entries.size(); ++i) {
        const ClassEntry& e = entries[i];
        const std::string problem = class_problem(e, core_size);
        std::string textures;
        for (uint8_t t : e.textures) textures += (textures.empty() ? "" : " ") + std::to_string(t);
        fmt::format_to(std::back_inserter(out), "{},{},0x{:x},\"{}\",{},{},\"{}\"", i, e.o_class, e.offset_in_asset_wad,
                       e.offset_in_asset_wad == 0 ? "none" : problem.empty() ? "ok" : problem, e.unknown_8, e.unknown_c,
                       textures);
        // formats-moby.md §10.2: the stash list holds s16 class ids.
        if (gs_stash) out += gs_stash->contains(static_cast<int16_t>(e.o_class)) ? ",yes" : ",no";
        if (shrub)
            for (int16_t b : e.billboard) fmt::format_to(std::back_inserter(out), ",{}", b);
        out += "\n";
    }
    return out;
}

std::string texture_tables_csv(const std::vector<NamedTextureTable>& tables, int32_t textures_base, uint64_t core_size,
                               uint64_t gs_ram_size, const std::set<size_t>& stashed_moby_rows, std::optional<uint64_t> stash_address) {
    std::string out =
        "table,index,data_offset,core_data_offset,width,height,type,palette,gs_ram_palette_offset,mipmap,status,gs_ram_stash_offset\n";
    for (const auto& table : tables)
        for (size_t i = 0; i < table.entries.size(); ++i) {
            const TextureEntry& e = table.entries[i];
            // formats-moby.md §10.2: a stashed class's texels are in gs_ram from the stash address.
            const bool stashed = table.name == "moby" && stash_address && stashed_moby_rows.contains(i);
            const std::string problem =
                texture_problem(e, textures_base, core_size, gs_ram_size, stashed ? stash_address : std::nullopt);
            fmt::format_to(std::back_inserter(out), "{},{},0x{:x},{},{},{},{},{},0x{:x},{},\"{}\",{}\n", table.name, i, e.data_offset,
                           stashed ? "" : fmt::format("0x{:x}", static_cast<int64_t>(textures_base) + e.data_offset), e.width, e.height,
                           e.type, e.palette, static_cast<uint64_t>(static_cast<uint16_t>(e.palette)) * kPaletteUnit, e.mipmap,
                           problem.empty() ? "ok" : problem, stashed ? fmt::format("0x{:x}", *stash_address + static_cast<uint64_t>(e.data_offset)) : "");
        }
    return out;
}

Result<MobyStash> parse_moby_stash(ByteSpan idx, const LevelCoreHeader& h) {
    return capture([&] {
        MobyStash stash;
        if (h.moby_gs_stash_list < 0) fail(Errc::out_of_range, 0xac, "negative moby_gs_stash_list");
        if (h.moby_gs_stash_list > 0)
            for (uint64_t at = static_cast<uint64_t>(h.moby_gs_stash_list);; at += 2) {
                const int16_t o_class = s16_at(idx, at);  // the list must end inside core_index
                if (o_class < 0) break;
                stash.classes.insert(o_class);
            }
        if (h.moby_gs_stash_count < 0) fail(Errc::bad_value, 0x84, "negative moby_gs_stash_count");
        if (h.moby_gs_stash_count > 0) {
            if (h.gs_ram.count < 0 || h.gs_ram.offset < 0) fail(Errc::out_of_range, 0x00, "negative gs_ram table range");
            const uint64_t entries = static_cast<uint64_t>(h.gs_ram.count) + static_cast<uint64_t>(h.moby_gs_stash_count);
            require(idx, static_cast<uint64_t>(h.gs_ram.offset), 16 * entries, "gs_ram table with its stash entries");
            const int32_t address = s32_at(idx, static_cast<uint64_t>(h.gs_ram.offset) + 16 * static_cast<uint64_t>(h.gs_ram.count) + 8);
            if (address < 0) fail(Errc::out_of_range, static_cast<uint64_t>(h.gs_ram.offset) + 16 * static_cast<uint64_t>(h.gs_ram.count) + 8,
                                  "negative stash address");
            stash.address = static_cast<uint64_t>(address);
        }
        return stash;
    });
}

}  // namespace gcfs::formats
