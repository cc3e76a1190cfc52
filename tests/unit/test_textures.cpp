// Level textures as PNG and the class / texture tables as CSV (formats.md §6.3).
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>

#include "disc_fixture.h"
#include "formats/core/core_tables.h"
#include "formats/export/png.h"
#include "formats/export/preview.h"
#include "formats/export/texture_png.h"
#include "tree/tree_builder.h"

namespace test_textures {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

uint32_t be32_at(ByteSpan d, uint64_t o) { return uint32_t{d[o]} << 24 | uint32_t{d[o + 1]} << 16 | uint32_t{d[o + 2]} << 8 | d[o + 3]; }

// Walks the chunks, checking every CRC, and returns the inflated IDAT.
Bytes inflate_png(ByteSpan png, uint32_t& width, uint32_t& height) {
    REQUIRE(png.size() > 8);
    Bytes idat;
    for (uint64_t at = 8; at < png.size();) {
        const uint32_t length = be32_at(png, at);
        const std::string type(reinterpret_cast<const char*>(png.data() + at + 4), 4);
        CHECK(crc32(0, png.data() + at + 4, length + 4) == be32_at(png, at + 8 + length));
        if (type == "IHDR") {
            width = be32_at(png, at + 8);
            height = be32_at(png, at + 12);
        }
        if (type == "IDAT") idat.insert(idat.end(), png.begin() + static_cast<std::ptrdiff_t>(at + 8),
                                        png.begin() + static_cast<std::ptrdiff_t>(at + 8 + length));
        at += 12 + length;
    }
    Bytes raw(static_cast<size_t>(height) * (width + 1));
    uLongf raw_size = raw.size();
    REQUIRE(uncompress(raw.data(), &raw_size, idat.data(), idat.size()) == Z_OK);
    CHECK(raw_size == raw.size());
    return raw;
}

}  // namespace

TEST_CASE("indexed PNG: its size is arithmetic on width and height, and zlib inflates it back") {
    std::array<png::Rgba, 256> palette{};
    for (int i = 0; i < 256; ++i) palette[i] = {static_cast<uint8_t>(i), 0, 0, 255};
    for (auto [w, h] : {std::pair{1u, 1u}, std::pair{32u, 32u}, std::pair{300u, 250u}, std::pair{256u, 256u}}) {
        Bytes pixels(static_cast<size_t>(w) * h);
        for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 7);
        const Bytes file = png::write_indexed(w, h, palette, pixels);
        CHECK(file.size() == png::indexed_size(w, h));  // 300 x 250 needs two stored blocks
        uint32_t width = 0, height = 0;
        const Bytes raw = inflate_png(file, width, height);
        CHECK(width == w);
        CHECK(height == h);
        for (uint32_t y = 0; y < h; ++y) {
            CHECK(raw[y * (w + 1)] == 0);  // filter byte
            CHECK(std::equal(pixels.begin() + y * w, pixels.begin() + (y + 1) * w, raw.begin() + y * (w + 1) + 1));
        }
    }
}

TEST_CASE("a texture takes its palette at gs_ram + palette x 0x100 and maps PS2 alpha 0x80 to opaque") {
    CHECK(ps2_alpha_to_png(0x80) == 255);
    CHECK(ps2_alpha_to_png(0xFF) == 255);
    CHECK(ps2_alpha_to_png(0x40) == 0x80);
    CHECK(ps2_alpha_to_png(0) == 0);
    Bytes core(0x200, 0);
    for (int i = 0; i < 16; ++i) core[0x100 + i] = static_cast<uint8_t>(i);  // a 4 x 4 texture at base 0x80 + 0x80
    Bytes gs_ram(0x800, 0);
    for (int i = 0; i < 256; ++i) {  // palette 4 = byte 0x400: stored slot i is (i, 2i, 3i, 0x80)
        gs_ram[0x400 + 4 * i] = static_cast<uint8_t>(i);
        gs_ram[0x400 + 4 * i + 1] = static_cast<uint8_t>(2 * i);
        gs_ram[0x400 + 4 * i + 2] = static_cast<uint8_t>(3 * i);
        gs_ram[0x400 + 4 * i + 3] = 0x80;
    }
    const TextureEntry t{0x80, 4, 4, 0x13, 4, -1, -1};
    auto file = texture_png(t, core, 0x80, gs_ram);
    REQUIRE_MESSAGE(file.ok(), file.error().describe());
    CHECK(file->size() == texture_png_size(t));
    // PLTE follows the signature and IHDR: 8 + 25 + 8 bytes in.
    const uint64_t plte = 8 + 25 + 8;
    CHECK((*file)[plte + 3 * 5] == 5);
    CHECK((*file)[plte + 3 * 5 + 1] == 10);
    CHECK((*file)[plte + 3 * 5 + 2] == 15);
    // Stored swizzled (bits 3 and 4 of the index swapped): colour 8 is slot 16, colour 16 slot 8, 24 stays.
    CHECK((*file)[plte + 3 * 8] == 16);
    CHECK((*file)[plte + 3 * 16] == 8);
    CHECK((*file)[plte + 3 * 24] == 24);
    CHECK((*file)[plte + 3 * 40] == 48);
    const uint64_t trns = plte + 768 + 4 + 8;
    CHECK((*file)[trns + 5] == 255);
    uint32_t w = 0, h = 0;
    const Bytes raw = inflate_png(*file, w, h);
    CHECK(raw[1 + 2] == 2);  // row 0, pixel 2

    CHECK(texture_png({0x180, 4, 4, 0x13, 4, -1, -1}, core, 0x80, gs_ram).error().code == Errc::out_of_range);
    CHECK(texture_png({0, 4, 4, 0x13, 7, -1, -1}, core, 0x80, gs_ram).error().code == Errc::out_of_range);  // palette past gs_ram
}

TEST_CASE("classes/ and textures/ of a built disc: tables as CSV, every tfrag texture a PNG") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    const auto& level = disc->level(2);
    const auto read = [&](const std::string& path) {
        const tree::NodeRef n = disc->tree.node(*disc->tree.resolve(path));
        Bytes out(n->source->size());
        const auto outcome = n->source->read(0, out);
        REQUIRE_MESSAGE(outcome.ok(), outcome.error);
        CHECK(outcome.bytes == out.size());
        return out;
    };
    const Bytes mobies = read("LEVEL02/classes/mobies.csv");
    const std::string text(mobies.begin(), mobies.end());
    CHECK(std::count(text.begin(), text.end(), '\n') == static_cast<long>(level.classes[0].size() + 1));
    CHECK(text.find("\"none\"") != std::string::npos);  // §6.3: offset 0 = no model, not an error
    CHECK(text.find("outside") == std::string::npos);
    const auto& tfrag = level.textures.front();
    REQUIRE(tfrag.name == "tfrag");
    REQUIRE_FALSE(tfrag.entries.empty());
    for (size_t i = 0; i < tfrag.entries.size(); ++i) {
        const Bytes file = read(fmt::format("LEVEL02/textures/tfrag_{:03d}.png", i));
        uint32_t w = 0, h = 0;
        const Bytes raw = inflate_png(file, w, h);
        CHECK(w == static_cast<uint32_t>(tfrag.entries[i].width));
        // The first row's indices are the core's bytes at textures_base + data_offset.
        const auto& core = built.levels.at(2).core_data;
        const uint64_t at = static_cast<uint64_t>(level.core->textures_base_offset + tfrag.entries[i].data_offset);
        CHECK(std::equal(raw.begin() + 1, raw.begin() + 1 + w, core.begin() + static_cast<std::ptrdiff_t>(at)));
    }
}

TEST_CASE("preview.png: the highest surface from above, up being the axis the terrain spreads least along") {
    // A 100 x 100 square rising along x, once with height in y and once in z.
    auto square = [](int up) {
        TfragMesh m;
        for (auto [a, b] : {std::pair{0.0, 0.0}, std::pair{100.0, 0.0}, std::pair{0.0, 100.0}, std::pair{100.0, 100.0}}) {
            std::array<double, 3> p{};
            p[0] = a;
            p[up] = a / 10;  // rises 10 units across
            p[up == 1 ? 2 : 1] = b;
            m.positions.push_back(p);
        }
        m.triangles = {{0, 1, 2}, {2, 1, 3}};
        return m;
    };
    for (int up : {1, 2}) {
        CAPTURE(up);
        const Bytes file = terrain_preview_png({square(up)});
        CHECK(file.size() == terrain_preview_png_size());
        uint32_t w = 0, h = 0;
        const Bytes raw = inflate_png(file, w, h);
        REQUIRE(w == kPreviewEdge);
        const auto pixel = [&](uint32_t x, uint32_t y) { return raw[y * (w + 1) + 1 + x]; };
        CHECK(pixel(2, 128) > 0);                // covered
        CHECK(pixel(2, 128) < pixel(250, 128));  // low ground left, high ground right
        CHECK(pixel(250, 128) > 200);
    }
    uint32_t w = 0, h = 0;
    const Bytes empty = inflate_png(terrain_preview_png({}), w, h);
    CHECK(std::all_of(empty.begin(), empty.end(), [](uint8_t b) { return b == 0; }));  // filter bytes and background
}

TEST_CASE("preview.png: footprints and moby markers drawn over the terrain in its own axes") {
    TfragMesh ground;  // 100 x 100 units over x, y; z up, gently rising
    for (auto [x, y] : {std::pair{0.0, 0.0}, std::pair{100.0, 0.0}, std::pair{0.0, 100.0}, std::pair{100.0, 100.0}})
        ground.positions.push_back({x, y, x / 20});
    ground.triangles = {{0, 1, 2}, {2, 1, 3}};
    const std::vector<PreviewMark> marks = {
        {PreviewMark::Kind::shrub, {{10, 10, 0}, {40, 10, 0}, {40, 40, 0}, {10, 40, 0}}},
        {PreviewMark::Kind::tie, {{30, 30, 0}, {60, 30, 0}, {60, 60, 0}, {30, 60, 0}}},  // over the shrub: ties draw later
        {PreviewMark::Kind::moby, {{80, 20, 5}}}};
    const Bytes file = terrain_preview_png({ground}, marks);
    CHECK(file.size() == terrain_preview_png_size());
    uint32_t w = 0, h = 0;
    const Bytes raw = inflate_png(file, w, h);
    // World (x, y) -> pixel (x * 2.55, 255 - y * 2.55): north up.
    const auto at = [&](double x, double y) {
        return raw[static_cast<size_t>(255 - static_cast<int>(y * 2.55)) * (w + 1) + 1 + static_cast<size_t>(x * 2.55)];
    };
    CHECK(at(20, 20) == 254);  // shrub green
    CHECK(at(35, 35) == 253);  // the tie over it
    CHECK(at(50, 50) == 253);
    CHECK(at(80, 20) == 255);  // moby red
    CHECK(at(90, 90) >= 1);
    CHECK(at(90, 90) <= 252);  // ground
}

TEST_CASE("a level's texture tables are found by name: a missing tfrag table is never another table") {
    tree::LevelScan level;
    level.textures = {{"moby", {TextureEntry{0, 8, 8, 0x13, 0, -1, -1}}}};  // tfrag's failed to parse, so it is absent
    CHECK(level.texture_table("tfrag").empty());
    CHECK(level.texture_table("moby").size() == 1);
    level.regions = {{"occlusion", 0x100, 0x40}};
    CHECK(level.region("tfrag") == nullptr);
    CHECK(level.region("occlusion")->offset == 0x100);
}

}  // namespace test_textures
