// global/armor, global/bonus, global/misc and global/hud without a mount
// (formats-globals.md §5-§9): every picture is what the builder drew, pixel
// for pixel (both PIF formats, the swizzled palette, PS2 alpha scaled), the
// models carry their shapes' triangles, the ELFs their sections, the HUD's
// ranges what their bytes prove; damage fails only its own files.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "disc_fixture.h"
#include "formats/executable/executable.h"
#include "formats/export/texture_png.h"
#include "formats/pif/pif.h"
#include "mkdisc/global_wads.h"
#include "mkdisc/pictures.h"
#include "tests/unit/png_pixels.h"
#include "tree/verify.h"

namespace test_global_folders {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;
using namespace gcfs::formats;

namespace {

Bytes read_path(const tree::Disc& disc, const std::string& path) {
    const std::string text = file_text(disc, path);
    return {text.begin(), text.end()};
}

// What the builder drew, as the PNG must show it: PNG-order palettes, alpha
// scaled from PS2's (0x80 opaque), 4-bit indices one per pixel.
Bytes expected_rgba(const mkdisc::BonusPicture& p) {
    Bytes out;
    auto push = [&](const png::Rgba& c) { out.insert(out.end(), {c.r, c.g, c.b, ps2_alpha_to_png(c.a)}); };
    const int seed = mkdisc::bonus_seed(p);
    if (p.kind == mkdisc::BonusPicture::Kind::rgba) {
        for (const auto& c : mkdisc::picture_rgba(p.width, p.height, seed)) push(c);
    } else if (p.kind == mkdisc::BonusPicture::Kind::pif4) {
        const auto q = mkdisc::picture4(p.width, p.height, seed);
        for (uint8_t i : q.indices) push(q.palette[i]);
    } else {
        const auto q = mkdisc::picture8(p.width, p.height, seed);
        for (uint8_t i : q.indices) push(q.palette[i]);
    }
    return out;
}

}  // namespace

TEST_CASE("every 4-bit picture the builder writes holds two different pixels in each byte") {
    int pictures = 0;
    for (const auto& p : mkdisc::bonus_pictures()) {
        if (p.kind != mkdisc::BonusPicture::Kind::pif4) continue;
        CAPTURE(p.table);
        const auto q = mkdisc::picture4(p.width, p.height, mkdisc::bonus_seed(p));
        const Bytes pif = pif::write_pif4(p.width, p.height, q.palette, q.indices);
        // formats-globals.md §5, format 0x94: the 0x20-byte header, 16 u32 colours, then two pixels a byte.
        REQUIRE(pif.size() >= 0x60 + p.width * p.height / 2);
        const ByteSpan pixels = ByteSpan(pif).subspan(0x60, p.width * p.height / 2);
        CHECK(std::all_of(pixels.begin(), pixels.end(), [](uint8_t b) { return (b >> 4) != (b & 0x0F); }));
        ++pictures;
    }
    CHECK(pictures > 0);
}

TEST_CASE("global/bonus: every picture is the builder's, pixel for pixel, at the size stat gave") {
    auto disc = tree::open_disc(small_disc().path, 64 << 20);
    for (const auto& p : mkdisc::bonus_pictures()) {
        const std::string path = fmt::format("global/bonus/{}/{:02d}.png", p.table, p.index);
        CAPTURE(path);
        const Bytes png = read_path(*disc, path);
        const auto pixels = test::png_pixels(png);
        CHECK(pixels.width == p.width);
        CHECK(pixels.height == p.height);
        CHECK(pixels.colour_type == (p.kind == mkdisc::BonusPicture::Kind::rgba ? 6 : 3));
        if (p.kind == mkdisc::BonusPicture::Kind::pif4) CHECK(pixels.palette == 16);
        CHECK(pixels.rgba == expected_rgba(p));
    }
    // credits_text: seven parts (part 5 absent), the last to the range's end.
    CHECK(!disc->tree.resolve("global/bonus/credits_text_5.bin"));
    CHECK(file_text(*disc, "global/bonus/credits_text_2.bin").starts_with("CREDITS PART 2\n"));
    CHECK(read_path(*disc, "global/bonus/credits_text_7.bin").size() % 16 == 0);
    const auto info = nlohmann::json::parse(read_path(*disc, "global/bonus/info.json"));
    CHECK(info["ok"] == true);
    CHECK(info["tables"]["character_sketches"]["header_offset"] == 0x58);
}

TEST_CASE("global/armor: the shapes' triangles in OBJ and glb, a low LOD only where the class has one, textures as drawn") {
    auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const std::string csv = file_text(*disc, "global/armor/armor.csv");
    // worm: two bands of 12 triangles in each of two packets; pickup: an octahedron
    // (a diamond low LOD, a chrome packet); crate: six faces of two.
    CHECK(csv.find("armor_0,armor,0,1,3,2,36,48,0,0,0,0,3,ok,") != std::string::npos);
    CHECK(csv.find("armor_3,armor,3,1,3,1,6,8,1,4,2,1,4,ok,") != std::string::npos);
    CHECK(csv.find("armor_8,armor,8,1,1,1,24,12,0,0,0,0,1,ok,") != std::string::npos);
    CHECK(csv.find("wrench_5,wrench,5,") != std::string::npos);
    CHECK(disc->tree.resolve("global/armor/low/armor_3.obj"));
    CHECK(!disc->tree.resolve("global/armor/low/armor_0.obj"));  // no empty OBJ for a class without a low LOD
    const std::string obj = file_text(*disc, "global/armor/armor_0.obj");
    size_t faces = 0;
    for (size_t at = 0; (at = obj.find("\nf ", at)) != std::string::npos; ++at) ++faces;
    CHECK(faces == 48);
    CHECK(obj.find("mtllib armor.mtl") != std::string::npos);
    CHECK(file_text(*disc, "global/armor/armor.mtl").find("map_Kd textures/wrench_5_2.png") != std::string::npos);
    const Bytes glb = read_path(*disc, "global/armor/wrench_0.glb");
    CHECK(std::string(glb.begin(), glb.begin() + 4) == "glTF");
    const auto texture = test::png_pixels(read_path(*disc, "global/armor/textures/armor_3_1.png"));
    const auto drawn = mkdisc::picture8(16, 16, 31);  // armor 3, texture 1: seed 10 × 3 + 1, 16 wide (odd textures)
    CHECK(texture.width == 16);
    for (size_t i = 0; i < drawn.indices.size(); ++i) {
        const png::Rgba& c = drawn.palette[drawn.indices[i]];
        CHECK(texture.rgba[4 * i] == c.r);
        CHECK(texture.rgba[4 * i + 3] == ps2_alpha_to_png(c.a));
    }
}

TEST_CASE("global/misc: the debug font as drawn, IOP modules that are ELFs, frontbin.elf with the overlay's sections") {
    auto disc = tree::open_disc(small_disc().path, 64 << 20);
    const auto font = test::png_pixels(read_path(*disc, "global/misc/debug_font.png"));
    const auto drawn = mkdisc::picture8(128, 64, 7);
    CHECK(font.width == 128);
    CHECK(font.rgba[4 * 100 + 1] == drawn.palette[drawn.indices[100]].g);
    for (const char* module : {"sio2man", "mcman", "stash", "libsd", "989snd"}) {
        CAPTURE(module);
        const auto elf = executable::read_elf(read_path(*disc, fmt::format("global/misc/irx/{}.irx", module)));
        REQUIRE(elf.ok());
        CHECK(elf->type == 1);
        CHECK(elf->sections == std::vector<std::string>{"", ".text", ".data", ".iopmod", ".shstrtab"});
    }
    CHECK(!disc->tree.resolve("global/misc/irx/mcserv.irx"));
    CHECK(test::png_pixels(read_path(*disc, "global/misc/irx/image.png")).width == 32);
    const auto elf = executable::read_elf(read_path(*disc, "global/misc/frontbin.elf"));
    REQUIRE(elf.ok());
    CHECK(elf->sections == std::vector<std::string>{"", ".lit", ".bss", ".data", "lvl.vtbl", "lvl.camvtbl", "lvl.sndvtbl", ".text", ".shstrtab"});
    CHECK(read_path(*disc, "global/misc/frontbin_net.bin").size() == 1000);
    CHECK(read_path(*disc, "global/misc/save_game.bin").size() == kSectorSize);  // the whole span, as Wrench cuts it
}

TEST_CASE("global/hud: every range raw; decoded only where its own bytes prove what it is") {
    auto disc = tree::open_disc(small_disc().path, 64 << 20);
    for (const char* path : {"global/hud/hud_header.bin", "global/hud/mission_ss/00.bin", "global/hud/mission_ss/82.png",
                             "global/hud/mission_ss/00.decoded.bin", "global/hud/screen_weapons/44.png", "global/hud/vendor_audio/276.wav",
                             "global/hud/hud_banks/00.decoded.bin"})
        CHECK_MESSAGE(disc->tree.resolve(path), path);
    CHECK(!disc->tree.resolve("global/hud/hud_banks/00.png"));       // a WAD-LZ stream with no PIF inside
    CHECK(!disc->tree.resolve("global/hud/screen_items/19.decoded.bin"));  // opaque bytes stay raw
    CHECK(test::png_pixels(read_path(*disc, "global/hud/mission_ss/00.png")).width == 64);
    const auto info = nlohmann::json::parse(read_path(*disc, "global/hud/info.json"));
    CHECK(info["contents"].get<std::string>().find("own bytes") != std::string::npos);
}

TEST_CASE("damage in the ARMOR, BONUS and MISC WADs fails only the files made from it") {
    DamagedDisc damaged({{mkdisc::Damage::pif_magic}, {mkdisc::Damage::pif_size}, {mkdisc::Damage::texlist_count},
                         {mkdisc::Damage::armor_packets}, {mkdisc::Damage::exe_block}},
                        42);
    auto disc = tree::open_disc(damaged.path, 64 << 20);
    auto error_of = [&](const std::string& path) {
        const tree::Source& s = *node_at(*disc, path)->source;
        if (std::string e = s.open_error(); !e.empty()) return e;
        Bytes out(s.size());
        return s.read(0, out).error;
    };
    CHECK(error_of("global/bonus/sketchbook/29.png").find("2FIP") != std::string::npos);
    CHECK(error_of("global/bonus/character_sketches/00.png").find("needs") != std::string::npos);
    CHECK(error_of("global/bonus/character_sketches/18.png").empty());
    CHECK(error_of("global/armor/armor_0.obj").find("mesh: ") != std::string::npos);  // its table runs into its packets
    CHECK(error_of("global/armor/armor_3.obj").empty());
    CHECK(error_of("global/misc/frontbin.elf").find("runs past") != std::string::npos);
    CHECK(error_of("global/misc/frontbin.bin").empty());
    CHECK(error_of("global/misc/debug_font.png").empty());
    const auto armor = nlohmann::json::parse(read_path(*disc, "global/armor/info.json"));
    CHECK(armor["failures"].size() == 1);  // armor_0: its mesh (its texture list's count failing too is named with it)
    CHECK(!disc->tree.resolve("global/armor/textures/armor_0_0.png"));  // a list that does not parse names no texture
    const tree::DiscVerdict verdict = tree::verify_disc(*disc);
    CHECK(!verdict.ok());
    for (const auto& level : verdict.levels) CHECK(level.ok());
}

}  // namespace test_global_folders
