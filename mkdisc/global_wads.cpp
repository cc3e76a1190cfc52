#include "mkdisc/global_wads.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "formats/armor/armor.h"
#include "formats/bonus/bonus.h"
#include "formats/executable/executable.h"
#include "formats/hud/hud.h"
#include "formats/misc/misc.h"
#include "formats/moby/moby.h"
#include "formats/pif/pif.h"
#include "formats/wad_lz/wad_lz.h"
#include "mkdisc/audio.h"
#include "mkdisc/mobies.h"
#include "mkdisc/pictures.h"
#include "mkdisc/wad_layout.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;

Bytes compressed(const Bytes& data) { return wad_lz::compress(data, ""); }

Bytes pif8(uint32_t width, uint32_t height, int seed, int mips) {
    const Picture8 p = picture8(width, height, seed);
    return pif::write_pif8(width, height, p.palette, p.indices, mips);
}

const RangeTable& table(std::span<const RangeTable> tables, const char* name) {
    return *std::find_if(tables.begin(), tables.end(), [&](const RangeTable& t) { return std::strcmp(t.name, name) == 0; });
}

}  // namespace

const std::vector<BonusPicture>& bonus_pictures() {
    using K = BonusPicture::Kind;
    static const std::vector<BonusPicture> pictures = {
        {"goodies_images", 0, 32, 16, K::pif4, 1},      {"goodies_images", 9, 16, 16, K::pif8, 1},
        {"character_sketches", 0, 32, 32, K::pif8, 1},  {"character_sketches", 18, 64, 32, K::pif8, 3},
        {"old_skill_images", 30, 16, 8, K::pif4, 1},    {"sketchbook", 29, 64, 16, K::pif8, 2},
        {"credits_images", 0, 24, 10, K::rgba, 1},      {"credits_images", 28, 12, 12, K::rgba, 1},
        {"cinematic_images", 32, 32, 16, K::pif8, 1},   {"paintings", 5, 16, 32, K::pif8, 2},
    };
    return pictures;
}

int bonus_seed(const BonusPicture& p) { return static_cast<int>(std::strlen(p.table)) + p.index; }

Bytes bonus_wad(const std::vector<Damage>& damage) {
    WadLayout wad(bonus::kBonusHeaderSize);
    std::vector<PlacedRange> placed;
    for (const BonusPicture& p : bonus_pictures()) {
        const int seed = bonus_seed(p);
        Bytes item;
        if (p.kind == BonusPicture::Kind::rgba) {
            item = pif::write_rgba_image(p.width, p.height, picture_rgba(p.width, p.height, seed));  // §7: uncompressed
        } else {
            if (p.kind == BonusPicture::Kind::pif4) {
                const Picture4 q = picture4(p.width, p.height, seed);
                item = pif::write_pif4(p.width, p.height, q.palette, q.indices);
            } else {
                item = pif8(p.width, p.height, seed, p.mips);
            }
            if (wants(damage, Damage::pif_magic) && std::strcmp(p.table, "sketchbook") == 0) std::memcpy(item.data(), "PIF2", 4);
            if (wants(damage, Damage::pif_size) && std::strcmp(p.table, "character_sketches") == 0 && p.index == 0)
                item[12] = static_cast<uint8_t>(2 * p.height);  // §5: the pixels of twice the height are not there
            item = compressed(item);
        }
        placed.push_back({&table(bonus::kBonusTables, p.table), p.index, wad.add(item)});
    }
    // §7 credits_text: eight parts, one absent (-1), the last to the range's end.
    std::array<Bytes, bonus::kCreditsParts> parts;
    for (int i = 0; i < bonus::kCreditsParts; ++i) {
        if (i == 5) continue;
        const std::string text = fmt::format("CREDITS PART {}\nGoing Commando, synthetic disc\n", i);
        parts[static_cast<size_t>(i)] = Bytes(text.begin(), text.end());
    }
    placed.push_back({&table(bonus::kBonusTables, "credits_text"), 0, wad.add(bonus::write_credits_text(parts))});
    return wad.finish(write_range_tables(bonus::kBonusHeaderSize, placed));
}

Bytes armor_wad(const std::vector<Damage>& damage) {
    WadLayout wad(armor::kArmorHeaderSize);
    std::vector<armor::Model> models;
    struct Design {
        bool wrench;
        int index, design;
        double size;
        int textures;
    };
    // Armors 0, 3 and 8 (the last), wrenches 0 and 5 (the last): the blended
    // worm, the pickup with its low LOD and chrome packet, the crate.
    const Design designs[] = {{false, 0, 1, 1.5, 3}, {false, 3, 3, 2.0, 4}, {false, 8, 0, 1.2, 1}, {true, 0, 3, 1.0, 4}, {true, 5, 1, 2.5, 3}};
    for (const Design& d : designs) {
        const float scale = d.wrench ? armor::kWrenchScale : armor::kArmorScale;
        // formats-globals.md §6: the mesh-only header names a mesh and nothing else.
        const moby::ClassSpec full = moby_design(d.design, d.size, scale);
        moby::ClassSpec design;
        design.scale = full.scale, design.rac1_layout = full.rac1_layout, design.joints = full.joints;
        design.high = full.high, design.low = full.low, design.metal = full.metal;
        Bytes mesh = moby::write_mesh_only_class(design);
        std::vector<Bytes> textures;
        for (int t = 0; t < d.textures; ++t) textures.push_back(pif8(t % 2 ? 16 : 32, 16, 10 * d.index + t + (d.wrench ? 100 : 0), t == 0 ? 2 : 1));
        Bytes list = pif::write_texture_list(textures);
        if (!d.wrench && d.index == 0) {
            if (wants(damage, Damage::armor_packets)) mesh[0] = static_cast<uint8_t>(mesh[0] + 40);  // §6: the table holds fewer
            if (wants(damage, Damage::texlist_count)) list[1] = 0x08;                                // 0x800 textures, §5
        }
        armor::Model m{d.wrench, d.index};
        m.mesh = wad.add(mesh);
        m.textures = wad.add(list);
        models.push_back(m);
    }
    return wad.finish(armor::write_armor_header(models));
}

Bytes misc_wad(const std::vector<Damage>& damage) {
    WadLayout wad(misc::kMiscHeaderSize);
    std::vector<PlacedRange> placed;
    auto at = [&](const char* name) { return &table(misc::kMiscTables, name); };
    placed.push_back({at("debug_font"), 0, wad.add(pif8(128, 64, 7, 1))});
    // §8 IRX table: the RGBA image, five of the nine modules (four absent), each a small ELF.
    std::array<Bytes, 9> modules;
    for (size_t m = 0; m < modules.size(); ++m) {
        if (m == 2 || m == 3 || m == 4 || m == 5) continue;
        const std::string name = misc::kIrxModules[m];
        Bytes text(64);
        for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<uint8_t>(i * 13 + m);
        modules[m] = executable::write_relocatable({{".text", text}, {".data", Bytes(name.begin(), name.end())}, {".iopmod", Bytes(28, 0)}});
    }
    const std::vector<png::Rgba> image = picture_rgba(32, 8, 3);
    placed.push_back({at("irx"), 0, wad.add(compressed(misc::write_irx_table(pif::write_rgba_image(32, 8, image), modules)))});
    Bytes save(700);
    for (size_t i = 0; i < save.size(); ++i) save[i] = static_cast<uint8_t>(i % 251);
    placed.push_back({at("save_game"), 0, wad.add(save)});
    // §8: the level overlay's seven blocks, so frontbin.elf carries Wrench's section names.
    std::vector<executable::BlockSpec> blocks;
    int32_t address = 0x01a00000;
    for (int b = 0; b < 7; ++b) {
        Bytes bytes(static_cast<size_t>(b == 6 ? 256 : 32 + 16 * b));
        for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(b * 31 + i);
        blocks.push_back({address, b == 1 ? executable::kNoBits : executable::kProgBits, bytes});
        address += static_cast<int32_t>(align_up(bytes.size(), 0x40));
    }
    Bytes frontbin = executable::write_executable(blocks, blocks.back().address);
    if (wants(damage, Damage::exe_block)) {
        const uint64_t third = 2 * executable::kBlockHeaderSize + blocks[0].bytes.size() + blocks[1].bytes.size();
        frontbin[third + 4 + 2] = 0x01;  // its size claims 64 KiB more
    }
    placed.push_back({at("frontbin"), 0, wad.add(frontbin)});
    Bytes net(1000);
    for (size_t i = 0; i < net.size(); ++i) net[i] = static_cast<uint8_t>((i * i) % 253);
    placed.push_back({at("frontbin_net"), 0, wad.add(compressed(net))});
    placed.push_back({at("frontend"), 0, wad.add(Bytes(2500, 0x46))});
    placed.push_back({at("exit"), 0, wad.add(Bytes(516, 0x58))});
    return wad.finish(write_range_tables(misc::kMiscHeaderSize, placed));
}

// §9: no unpacker confirms what a HUD range holds. The builder fills some
// with compressed PIFs, a raw PIF, VAGs and opaque bytes so that identifying
// by content is exercised; which fields hold which type on a retail disc is
// not known, and these choices are ours.
Bytes hud_wad(const std::vector<Damage>&) {
    WadLayout wad(hud::kHudHeaderSize);
    std::vector<PlacedRange> placed;
    auto put = [&](const char* name, int index, const Bytes& item) { placed.push_back({&table(hud::kHudTables, name), index, wad.add(item)}); };
    Bytes opaque(0x300);
    for (size_t i = 0; i < opaque.size(); ++i) opaque[i] = static_cast<uint8_t>(i * 7 + 1);
    put("hud_header", 0, opaque);
    put("hud_banks", 0, compressed(opaque));  // a WAD-LZ stream holding no PIF
    put("mission_ss", 0, compressed(pif8(64, 32, 40, 1)));
    put("mission_ss", 82, compressed(pif8(32, 32, 41, 2)));  // the last slot
    put("screen_weapons", 44, pif8(16, 16, 42, 1));          // a PIF stored raw
    put("vendor_audio", 0, tone_vag({700, 22050, 0.1, "hud0"}));
    put("vendor_audio", 276, tone_vag({900, 22050, 0.1, "hud276"}));
    put("screen_items", 19, opaque);
    return wad.finish(write_range_tables(hud::kHudHeaderSize, placed));
}

}  // namespace gcfs::mkdisc
