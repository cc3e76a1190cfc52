// New rows in a level core's texture tables (formats/core/texture_rows.h):
// the row reads back as its picture, every other file of the level reads as
// before, and the level passes every check it passed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <regex>
#include <set>

#include "cache/lru_cache.h"
#include "disc_fixture.h"
#include "edit/edited_disc.h"
#include "edit/level_parts.h"
#include "formats/core/level_core.h"
#include "formats/core/texture_rows.h"
#include "formats/export/png_read.h"
#include "formats/export/texture_png.h"

using namespace gcfs;
using formats::Bytes;

namespace texture_rows_test {

// A 32x16 picture of 32 colours: texel (x, y) takes colour (x + y) % 32, whose palette entry is distinct.
formats::NewTextureRow picture_row() {
    formats::NewTextureRow row{32, 16, Bytes(32 * 16), Bytes(1024)};
    for (uint32_t y = 0; y < 16; ++y)
        for (uint32_t x = 0; x < 32; ++x) row.texels[y * 32 + x] = static_cast<uint8_t>((x + y) % 32);
    for (size_t c = 0; c < 256; ++c) {
        const uint64_t at = 4ull * formats::ps2_palette_slot(static_cast<uint8_t>(c));
        row.palette[at] = static_cast<uint8_t>(8 * (c % 32));
        row.palette[at + 1] = static_cast<uint8_t>(255 - 8 * (c % 32));
        row.palette[at + 2] = static_cast<uint8_t>(c);
        row.palette[at + 3] = 0x80;
    }
    return row;
}

// Files that show the core's raw bytes, its layout, its table of textures, or list the tables' rows.
bool shows_rows(const std::string& path) {
    static const std::set<std::string> kLayout = {"core_data.bin", "core_index.bin", "gs_ram.bin", "data.bin", "header.bin", "info.json",
                                                  "classes/textures.csv", "tfrag/terrain.mtl", "ties/ties.mtl", "core/textures.bin"};
    return kLayout.count(path) || path.ends_with(".wad");
}

std::string without_hex(const std::string& text) {
    static const std::regex kHex("0x[0-9a-f]+");
    return std::regex_replace(text, kHex, "0x?");
}

}  // namespace texture_rows_test

using namespace texture_rows_test;

TEST_CASE("a texture row added to the tfrag and tie tables reads back as its picture, and nothing else changes") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const size_t level = 0;
    const tree::LevelScan& scan = disc->level(level);
    REQUIRE(scan.ok());
    edit::LevelParts parts(level_container(*disc, level));
    Bytes index = *parts.content("core_index"), core = *parts.content("core_data"), gs = *parts.content("gs_ram");
    const size_t tfrag_rows = scan.texture_table("tfrag").size(), tie_rows = scan.texture_table("tie").size();
    const int32_t gs_entries = scan.core->gs_ram.count;
    const formats::NewTextureRow row = picture_row();
    const auto tfrag = formats::add_texture_row(index, core, gs, formats::TextureTable::tfrag, row);
    REQUIRE_MESSAGE(tfrag.ok(), (tfrag.ok() ? "" : tfrag.error().describe()));
    CHECK(*tfrag == tfrag_rows);
    const auto tie = formats::add_texture_row(index, core, gs, formats::TextureTable::tie, row);
    REQUIRE(tie.ok());
    CHECK(*tie == tie_rows);
    parts.replace("core_index", index);
    parts.replace("core_data", core);
    parts.replace("gs_ram", gs);
    const auto rebuilt = parts.rebuild();
    REQUIRE(rebuilt.ok());
    const auto next = edit::open_edited_disc(small_disc().path, *disc, {{edit::ContainerKey{edit::ContainerKey::level, level}, *rebuilt}},
                                             std::make_shared<cache::LruCache>(64 << 20), [] { return std::string(); });
    const tree::LevelScan& after = next->level(level);
    CHECK(after.ok());
    CHECK(after.checks.size() == scan.checks.size());
    CHECK(after.texture_table("tfrag").size() == tfrag_rows + 1);
    CHECK(after.texture_table("tie").size() == tie_rows + 1);
    CHECK(after.core->gs_ram.count == gs_entries + 4);  // a palette and a mip per row
    CHECK(after.moby_stash_address == scan.moby_stash_address);
    // Wrench's conventions (level_textures.cpp): type 3, the palette and the mip in GS RAM units, pad -1.
    const formats::TextureEntry& added = after.texture_table("tfrag").back();
    CHECK(added.type == 3);
    CHECK(added.mipmap > added.palette);
    CHECK(added.pad == -1);

    const auto files_before = folder_files(*disc, scan.folder), files_after = folder_files(*next, scan.folder);
    const Bytes expected = formats::indexed_texture_rgba(row.width, row.height, row.texels, row.palette).rgba;
    for (const std::string& name : {fmt::format("textures/tfrag_{:03}.png", tfrag_rows), fmt::format("textures/tie_{:03}.png", tie_rows)}) {
        CAPTURE(name);
        REQUIRE(files_after.count(name));
        CHECK_FALSE(files_before.count(name));
        const std::string& png = files_after.at(name);
        const auto read = formats::png::read_rgba(formats::ByteSpan(reinterpret_cast<const uint8_t*>(png.data()), png.size()), row.width, row.height);
        REQUIRE(read.ok());
        CHECK(read->rgba == expected);
    }
    // The MTLs name the new rows.
    CHECK(files_after.at("tfrag/terrain.mtl").find(fmt::format("newmtl tfrag_{:03}\n", tfrag_rows)) != std::string::npos);
    CHECK(files_after.at("ties/ties.mtl").find(fmt::format("newmtl tie_{:03}\n", tie_rows)) != std::string::npos);
    size_t compared = 0;
    for (const auto& file : files_before) {
        const std::string& path = file.first;
        if (shows_rows(path)) continue;
        CAPTURE(path);
        REQUIRE(files_after.count(path));
        CHECK(without_hex(files_after.at(path)) == without_hex(file.second));
        ++compared;
    }
    CHECK(compared > 40);
}

TEST_CASE("a texture row whose sides are not powers of two from 8 to 1024 is refused, and nothing changes") {
    const auto disc = tree::open_disc(small_disc().path, 64 << 20);
    edit::LevelParts parts(level_container(*disc, 0));
    Bytes index = *parts.content("core_index"), core = *parts.content("core_data"), gs = *parts.content("gs_ram");
    const Bytes index_before = index, core_before = core, gs_before = gs;
    for (const auto& sides : {std::pair{24u, 16u}, std::pair{4u, 16u}, std::pair{2048u, 8u}}) {
        const uint32_t width = sides.first, height = sides.second;  // named, not bound: CAPTURE takes it into a lambda
        CAPTURE(width);
        formats::NewTextureRow row{width, height, Bytes(uint64_t{width} * height), Bytes(1024)};
        const auto added = formats::add_texture_row(index, core, gs, formats::TextureTable::shrub, row);
        REQUIRE_FALSE(added.ok());
        CHECK(added.error().message.find("power of two") != std::string::npos);
    }
    CHECK(index == index_before);
    CHECK(core == core_before);
    CHECK(gs == gs_before);
}
