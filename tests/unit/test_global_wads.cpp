// The BONUS, MISC and ARMOR WADs (formats-globals.md §5-8): the vectors
// decode as their Wrench records say (PNG pixels by SHA-256, IRX modules and
// raw items by their bytes, ELF sections, mesh counts), each bad variant
// fails the one item it damages, and the writers' output reads back.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <regex>
#include <sstream>

#include "formats/armor/armor.h"
#include "formats/bonus/bonus.h"
#include "formats/executable/executable.h"
#include "formats/misc/misc.h"
#include "formats/moby/moby.h"
#include "formats/pif/pif.h"
#include "formats/wad_lz/wad_lz.h"
#include "tests/unit/gameplay_vectors.h"
#include "tests/unit/png_pixels.h"
#include "tests/unit/sha256.h"

namespace test_global_wads {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

Bytes wad_bytes(const std::string& kind, const std::string& name) {
    return test::read_bytes(test::shared_path("vectors/globals/" + kind + "/" + name + ".wad"));
}
std::string record(const std::string& kind, const std::string& name) {
    return test::read_text(test::shared_path("vectors/globals/" + kind + "/" + name + ".wrench.txt"));
}

// "<file>: ... RGBA sha256 <hex>": the pixels Wrench's PNG holds, by file.
std::map<std::string, std::string> pixel_hashes(const std::string& text) {
    std::map<std::string, std::string> out;
    const std::regex line(R"(\s+(\S+\.png): .*RGBA sha256 ([0-9a-f]{64}).*)");
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_match(l, m, line)) out[m[1]] = m[2];
    }
    return out;
}

// "  <path>   <size>  <sha256>": the files Wrench wrote.
std::map<std::string, std::pair<uint64_t, std::string>> files_written(const std::string& text) {
    std::map<std::string, std::pair<uint64_t, std::string>> out;
    const std::regex line(R"(  (\S+)\s+(\d+)  ([0-9a-f]{64}))");
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_match(l, m, line)) out[m[1]] = {std::stoull(m[2]), m[3]};
    }
    return out;
}

std::string pixels_sha(const Bytes& png) { return test::sha256_hex(test::png_pixels(png).rgba); }

ByteSpan range_bytes(const Bytes& wad, const RangeEntry& e) { return ByteSpan(wad).subspan(e.byte_offset(), e.byte_size()); }

std::map<std::string, RangeEntry> by_name(const std::vector<RangeEntry>& entries) {
    std::map<std::string, RangeEntry> out;
    for (const auto& e : entries) out[e.table->count == 1 ? std::string(e.table->name) : fmt::format("{}/{}", e.table->name, e.index)] = e;
    return out;
}

Result<Bytes> pif_png(ByteSpan compressed) {
    auto pif = wad_lz::decompress(compressed);
    if (!pif.ok()) return pif.error();
    return pif::to_png(*pif);
}

}  // namespace

TEST_CASE("the BONUS vector: every image's pixels and every credits part as Wrench cut them") {
    const Bytes wad = wad_bytes("bonus", "bonus_gc");
    const std::string text = record("bonus", "bonus_gc");
    const auto hashes = pixel_hashes(text);
    const auto files = files_written(text);
    const auto parsed = read_range_tables(wad, bonus::kBonusHeaderSize, bonus::kBonusTables, wad.size(), "the BONUS header");
    REQUIRE_MESSAGE(parsed.ok(), parsed.error().describe());
    const auto entries = by_name(*parsed);
    REQUIRE(entries.size() == 5);
    for (const char* name : {"goodies_images/3", "sketchbook/0", "sketchbook/29"}) {
        CAPTURE(name);
        REQUIRE(entries.count(name));
        CHECK(bonus::item_of(*entries.at(name).table) == bonus::Item::compressed_pif);
        const auto png = pif_png(range_bytes(wad, entries.at(name)));
        REQUIRE_MESSAGE(png.ok(), png.error().describe());
        CHECK(pixels_sha(*png) == hashes.at(std::string(name) + ".png"));
    }
    // 4-bit: a 16-colour palette, Wrench's high-nibble-first pixel order.
    CHECK(test::png_pixels(*pif_png(range_bytes(wad, entries.at("goodies_images/3")))).palette == 16);
    const auto credits_image = pif::rgba_to_png(range_bytes(wad, entries.at("credits_images/0")));
    REQUIRE(credits_image.ok());
    CHECK(test::png_pixels(*credits_image).colour_type == 6);
    CHECK(pixels_sha(*credits_image) == hashes.at("credits_images/0.png"));
    const ByteSpan credits = range_bytes(wad, entries.at("credits_text"));
    const auto parts = bonus::read_credits_text(credits);
    REQUIRE(parts.ok());
    REQUIRE(parts->size() == 8);
    for (const auto& part : *parts) {
        CAPTURE(part.index);
        const auto& [size, sha] = files.at(fmt::format("credits_text/{}.bin", part.index));
        CHECK(static_cast<uint64_t>(part.range.size) == size);  // part 7 runs to the range's end, padding included
        CHECK(test::sha256_hex(credits.subspan(static_cast<uint64_t>(part.range.offset), size)) == sha);
    }
}

TEST_CASE("the BONUS bad variants fail the one image they damage; no credits_text is no credits") {
    for (const auto& item : {std::tuple{"bonus_gc_bad_pif_magic", "sketchbook/0", "2FIP"},
                             std::tuple{"bonus_gc_bad_pif_format", "sketchbook/29", "format 0x14"}}) {
        const auto& name = std::get<0>(item);
        const auto& damaged = std::get<1>(item);
        const auto& says = std::get<2>(item);
        CAPTURE(name);
        const Bytes wad = wad_bytes("bonus", name);
        const auto entries = by_name(*read_range_tables(wad, bonus::kBonusHeaderSize, bonus::kBonusTables, wad.size(), "BONUS"));
        int failed = 0;
        for (const auto& [slot, e] : entries) {
            if (bonus::item_of(*e.table) != bonus::Item::compressed_pif) continue;
            const auto png = pif_png(range_bytes(wad, e));
            if (!png.ok()) {
                ++failed;
                CHECK(slot == damaged);
                CHECK(png.error().message.find(says) != std::string::npos);
            }
        }
        CHECK(failed == 1);
    }
    const Bytes wad = wad_bytes("bonus", "bonus_gc_no_credits_text");
    const auto entries = by_name(*read_range_tables(wad, bonus::kBonusHeaderSize, bonus::kBonusTables, wad.size(), "BONUS"));
    CHECK(!entries.count("credits_text"));
    CHECK(entries.size() == 4);
}

TEST_CASE("the MISC vector: the debug font, the IRX table's image and modules, raw items and the rebuilt frontbin ELF") {
    const Bytes wad = wad_bytes("misc", "misc_gc");
    const std::string text = record("misc", "misc_gc");
    const auto hashes = pixel_hashes(text);
    const auto files = files_written(text);
    const auto entries = by_name(*read_range_tables(wad, misc::kMiscHeaderSize, misc::kMiscTables, wad.size(), "the MISC header"));
    REQUIRE(entries.size() == 7);
    CHECK(pixels_sha(*pif::to_png(range_bytes(wad, entries.at("debug_font")))) == hashes.at("debug_font.png"));
    const auto irx = wad_lz::decompress(range_bytes(wad, entries.at("irx")));
    REQUIRE(irx.ok());
    const auto items = misc::parse_irx_table(*irx, irx->size());
    REQUIRE(items.ok());
    REQUIRE(items->size() == 6);  // the image and five modules; mcserv, dbcman, sio2d, ds2u absent
    for (const auto& item : *items) {
        CAPTURE(item.name);
        CHECK(item.error.empty());
        const ByteSpan bytes = ByteSpan(*irx).subspan(static_cast<uint64_t>(item.range.offset), static_cast<uint64_t>(item.range.size));
        if (item.name == "image") {
            CHECK(pixels_sha(*pif::rgba_to_png(bytes)) == hashes.at("irx/image.png"));
            continue;
        }
        CHECK(test::sha256_hex(bytes) == files.at("irx/" + item.name + ".bin").second);  // the exact ByteRange
        const auto elf = executable::read_elf(bytes);
        REQUIRE_MESSAGE(elf.ok(), elf.error().describe());
        CHECK(elf->sections == std::vector<std::string>{"", ".text", ".data", ".shstrtab"});
    }
    const auto net = wad_lz::decompress(range_bytes(wad, entries.at("frontbin_net")));
    REQUIRE(net.ok());
    CHECK(test::sha256_hex(*net) == files.at("frontbin_net.bin").second);
    for (const char* raw : {"save_game", "frontend", "exit"})  // whole sector spans, padding included
        CHECK(test::sha256_hex(range_bytes(wad, entries.at(raw))) == files.at(std::string(raw) + ".bin").second);

    const ByteSpan frontbin = range_bytes(wad, entries.at("frontbin"));
    const auto blocks = executable::read_blocks(frontbin);
    REQUIRE(blocks.ok());
    REQUIRE(blocks->size() == 7);
    CHECK(executable::overlay_shape(*blocks));
    const Bytes elf = executable::write_elf(frontbin, *blocks);
    CHECK(elf.size() == executable::elf_size(*blocks));
    const auto outline = executable::read_elf(elf);
    REQUIRE(outline.ok());
    // readelf -S of Wrench's frontbin.elf, as the record lists it.
    CHECK(outline->sections == std::vector<std::string>{"", ".lit", ".bss", ".data", "lvl.vtbl", "lvl.camvtbl", "lvl.sndvtbl", ".text", ".shstrtab"});
    CHECK(outline->entry == 0x01a00100);
    CHECK(outline->type == 2);
    CHECK(outline->machine == 8);
    for (size_t i = 0; i < blocks->size(); ++i) {  // each section's data equals its block (the record's check)
        const uint64_t header = u32_at(elf, 32) + 40 * (i + 1);
        CHECK(u32_at(elf, header + 12) == static_cast<uint32_t>((*blocks)[i].address));
        CHECK(std::equal(frontbin.begin() + static_cast<std::ptrdiff_t>((*blocks)[i].data_at),
                         frontbin.begin() + static_cast<std::ptrdiff_t>((*blocks)[i].data_at) + (*blocks)[i].size,
                         elf.begin() + u32_at(elf, header + 16)));
    }
}

TEST_CASE("MISC bad variants: a two-block frontbin gets neutral sections (formats-globals.md 8), a damaged irx stream fails alone") {
    const Bytes two = wad_bytes("misc", "misc_gc_bad_frontbin_2blocks");
    const auto entries = by_name(*read_range_tables(two, misc::kMiscHeaderSize, misc::kMiscTables, two.size(), "MISC"));
    const ByteSpan frontbin = range_bytes(two, entries.at("frontbin"));
    const auto blocks = executable::read_blocks(frontbin);
    REQUIRE(blocks.ok());
    CHECK(blocks->size() == 2);
    CHECK(!executable::overlay_shape(*blocks));
    const auto outline = executable::read_elf(executable::write_elf(frontbin, *blocks));
    REQUIRE(outline.ok());
    CHECK(outline->sections == std::vector<std::string>{"", ".block_0", ".block_1", ".shstrtab"});

    const Bytes bad = wad_bytes("misc", "misc_gc_bad_irx_lz");
    const auto bad_entries = by_name(*read_range_tables(bad, misc::kMiscHeaderSize, misc::kMiscTables, bad.size(), "MISC"));
    CHECK(!wad_lz::decompress(range_bytes(bad, bad_entries.at("irx"))).ok());
    CHECK(wad_lz::decompress(range_bytes(bad, bad_entries.at("frontbin_net"))).ok());
    CHECK(pif::to_png(range_bytes(bad, bad_entries.at("debug_font"))).ok());
}

TEST_CASE("the ARMOR vector: entries at 0x08 and 0x98, the moby vector's packets as mesh-only classes, textured") {
    const Bytes wad = wad_bytes("armor", "armor_gc");
    const auto hashes = pixel_hashes(record("armor", "armor_gc"));
    const auto models = armor::parse_armor_wad(wad, wad.size());
    REQUIRE(models.ok());
    REQUIRE(models->size() == 2);
    const auto reference = moby::read_moby_class(test::read_bytes(test::shared_path("vectors/moby/two_packets.bin")));
    REQUIRE(reference.ok());
    for (const armor::Model& m : *models) {
        const std::string model = m.name();
        CAPTURE(model);
        CHECK(m.error.empty());
        CHECK(m.name() == (m.wrench ? "wrench_5" : "armor_2"));
        const auto cls = moby::read_mesh_only_class(ByteSpan(wad).subspan(m.mesh.byte_offset(), m.mesh.byte_size()), m.scale());
        REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
        CHECK(cls->high.triangles.size() == reference->high.triangles.size());  // 10, as Wrench's glb draws
        CHECK(cls->high.triangles.size() == 10);
        CHECK(cls->low.triangles.size() == 1);
        CHECK(cls->metal_packets == 1);
        CHECK(cls->high.vertices.size() == reference->high.vertices.size());
        // Wrench's glb bounds at the §6 scale: armors 0.875 wide, wrenches 6.
        std::array<double, 3> lo{}, hi{};
        for (const auto& p : moby::lod_mesh(*cls, cls->high).positions)
            for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
        // Wrench's glb bounds at the §6 scale (its glTF carries our y, z, x as x, y, z).
        const std::array<double, 3> want_lo = m.wrench ? std::array{-2.0, -0.0976562, -2.0} : std::array{-0.291667, -0.0142415, -0.291667};
        const std::array<double, 3> want_hi = m.wrench ? std::array{6.0, 0.5, 10.0} : std::array{0.875, 0.0729167, 1.45833};
        for (int k = 0; k < 3; ++k) {
            CHECK(lo[(k + 1) % 3] == doctest::Approx(want_lo[k]).epsilon(1e-5));
            CHECK(hi[(k + 1) % 3] == doctest::Approx(want_hi[k]).epsilon(1e-5));
        }
        const ByteSpan list = ByteSpan(wad).subspan(m.textures.byte_offset(), m.textures.byte_size());
        const auto textures = pif::read_texture_list(list);
        REQUIRE(textures.ok());
        REQUIRE(textures->size() == 2);
        for (size_t t = 0; t < textures->size(); ++t) {
            const auto png = pif::to_png(list.subspan(static_cast<uint64_t>((*textures)[t].offset), static_cast<uint64_t>((*textures)[t].size)));
            REQUIRE(png.ok());
            CHECK(pixels_sha(*png) == hashes.at(fmt::format("{}/{}/{}.png", m.wrench ? "wrenches" : "armors", m.index, t)));
        }
    }
}

TEST_CASE("ARMOR bad variants fail one item each") {
    auto models_of = [](const char* name) {
        const Bytes wad = wad_bytes("armor", name);
        return std::pair{wad, *armor::parse_armor_wad(wad, wad.size())};
    };
    {
        const auto [wad, models] = models_of("armor_gc_bad_texlist_count");
        const auto& armor2 = models.at(0);
        CHECK(pif::read_texture_list(ByteSpan(wad).subspan(armor2.textures.byte_offset(), armor2.textures.byte_size())).error().code == Errc::too_large);
        CHECK(moby::read_mesh_only_class(ByteSpan(wad).subspan(armor2.mesh.byte_offset(), armor2.mesh.byte_size()), armor2.scale()).ok());
    }
    {
        const auto [wad, models] = models_of("armor_gc_bad_mesh_table");
        const auto& armor2 = models.at(0);
        const auto cls = moby::read_mesh_only_class(ByteSpan(wad).subspan(armor2.mesh.byte_offset(), armor2.mesh.byte_size()), armor2.scale());
        REQUIRE(!cls.ok());
        CHECK(cls.error().message.find("packet table") != std::string::npos);
        CHECK(pif::read_texture_list(ByteSpan(wad).subspan(armor2.textures.byte_offset(), armor2.textures.byte_size())).ok());
        // The generator gives wrenches[5] the same damaged class.
        CHECK(!moby::read_mesh_only_class(ByteSpan(wad).subspan(models.at(1).mesh.byte_offset(), models.at(1).mesh.byte_size()), 1.0f).ok());
    }
    {
        // Written at 0x50 + 5 × 16: read at 0x98 on, it is wrenches[1]'s mesh (the texture list's range) and nothing else.
        const auto [wad, models] = models_of("armor_gc_bad_wrench_at_0x50");
        REQUIRE(models.size() == 2);
        CHECK(models.at(1).name() == "wrench_1");
        CHECK(models.at(1).textures.empty());
        CHECK(!moby::read_mesh_only_class(ByteSpan(wad).subspan(models.at(1).mesh.byte_offset(), models.at(1).mesh.byte_size()), 1.0f).ok());
    }
}

TEST_CASE("the writers' PIFs, texture lists, RGBA images, executables and mesh-only classes read back") {
    std::array<png::Rgba, 256> palette{};
    for (int i = 0; i < 256; ++i) palette[i] = {static_cast<uint8_t>(i), static_cast<uint8_t>(255 - i), 7, static_cast<uint8_t>(i % 2 ? 0x80 : 0x40)};
    Bytes indices(64 * 16);
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = static_cast<uint8_t>(i * 7);
    const Bytes pif8 = pif::write_pif8(64, 16, palette, indices, 3);
    const auto header = pif::read_header(pif8);
    REQUIRE(header.ok());
    CHECK(header->mip_levels == 3);
    CHECK(pif8.size() == header->data_size());  // 64x16 + 32x8 + 16x4 after the palette
    const auto pixels = test::png_pixels(*pif::to_png(pif8));
    CHECK(pixels.rgba[4 * 3 + 0] == 21);   // pixel 3: index 21 through the unswizzled palette
    CHECK(pixels.rgba[4 * 3 + 3] == 255);  // PS2 alpha 0x80 -> 255
    CHECK(pixels.rgba[4 * 2 + 3] == 0x80); // 0x40 -> 0x80
    Bytes short_pif = pif8;
    short_pif.resize(pif8.size() - 1);
    CHECK(!pif::to_png(short_pif).ok());  // its last mip level is not all there

    std::array<png::Rgba, 16> sixteen{};
    for (int i = 0; i < 16; ++i) sixteen[i] = {static_cast<uint8_t>(16 * i), 0, 0, 0x80};
    const Bytes four = {1, 2, 3, 4, 5, 6, 7, 8};
    const auto four_pixels = test::png_pixels(*pif::to_png(pif::write_pif4(4, 2, sixteen, four)));
    for (size_t i = 0; i < four.size(); ++i) CHECK(four_pixels.rgba[4 * i] == 16 * four[i]);

    const Bytes list = pif::write_texture_list({pif8, pif8});
    const auto textures = pif::read_texture_list(list);
    REQUIRE(textures.ok());
    CHECK((*textures)[1].offset % 16 == 0);
    CHECK(pif::read_texture_list(Bytes{0xff, 0xff, 0xff, 0xff}).error().code == Errc::too_large);

    const std::vector<png::Rgba> rgba(6, {1, 2, 3, 0x80});
    CHECK(test::png_pixels(*pif::rgba_to_png(pif::write_rgba_image(3, 2, rgba))).rgba[3] == 255);

    const Bytes exe = executable::write_executable({{0x1000, executable::kProgBits, Bytes(32, 1)}, {0x1020, executable::kNoBits, Bytes(16, 0)}}, 0x1000);
    const auto blocks = executable::read_blocks(exe);
    REQUIRE(blocks.ok());
    CHECK(blocks->size() == 2);
    Bytes past = exe;
    past[4] = 0x60;  // the first block claims more bytes than follow
    CHECK(executable::read_blocks(past).error().offset == 4);

    moby::ClassSpec spec;
    moby::PacketSpec packet;
    for (int i = 0; i < 3; ++i) packet.records.push_back({moby::RecordSpec::Kind::main, 0, {0x00, moby::kDiscardSlot, 0, 0, 0, 0},
                                                         static_cast<uint16_t>(i), {static_cast<int16_t>(100 * i), static_cast<int16_t>(50 * i), 0}});
    packet.strips.push_back({0, {0, 1, 2}});
    spec.high.push_back(packet);
    const auto cls = moby::read_mesh_only_class(moby::write_mesh_only_class(spec), 1.0f);
    REQUIRE_MESSAGE(cls.ok(), cls.error().describe());
    CHECK(cls->high.triangles.size() == 1);
}

}  // namespace test_global_wads
