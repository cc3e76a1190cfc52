#include "mkdisc/level_builder.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "formats/core/core_tables.h"
#include "formats/core/level_core.h"
#include "formats/core/ratchet_seqs.h"
#include "formats/core/sound_remap.h"
#include "formats/disc/data_lump.h"
#include "formats/disc/toc.h"
#include "formats/executable/executable.h"
#include "formats/export/texture_png.h"
#include "formats/particles/particle_defs.h"
#include "formats/pif/pif.h"
#include "formats/tfrag/tfrag.h"
#include "formats/wad_lz/wad_lz.h"
#include "mkdisc/audio.h"
#include "mkdisc/collision.h"
#include "mkdisc/gameplay.h"
#include "mkdisc/mobies.h"
#include "mkdisc/pictures.h"
#include "mkdisc/random.h"
#include "mkdisc/shrubs.h"
#include "mkdisc/sky.h"
#include "mkdisc/terrain.h"
#include "mkdisc/ties.h"

namespace gcfs::mkdisc {
namespace {

using namespace formats;

struct ScaleSizes {
    int patches;
    int textures;
    int texture_edge;       // tfrag textures are edge × edge, 8-bit indexed
    uint64_t texture_pool;  // total bytes of the shared texture pool (§6.2 item 5)
    int moby_classes;
    uint64_t class_bytes;
    int class_texture_edge;  // tie, shrub and moby textures, and shrub billboards
    // World units per collision cell: 2 puts 2×2 cells in an octant's ground
    // square; 4 keeps a full-scale collision block near the seed's 0.9 MB.
    double collision_cell;
    int ratchet_seqs;              // filled slots of the 256 (formats-globals.md §13)
    uint32_t ratchet_seq_steps;    // a sequence is 0x30 + 0x10 × [0, steps) bytes
};

ScaleSizes sizes_for(Scale scale) {
    if (scale == Scale::full) return {800, 24, 128, 24u << 20, 40, 96u << 10, 64, 4.0, 24, 256};
    return {18, 4, 32, 48u << 10, 6, 2u << 10, 16, 2.0, 5, 24};
}

// Texel-like bytes: smooth gradients with noise, compressible like real art.
void texels(ByteWriter& out, uint64_t count, Random& random) {
    uint8_t value = static_cast<uint8_t>(random.below(256));
    for (uint64_t i = 0; i < count; ++i) {
        if (random.below(8) == 0) value = static_cast<uint8_t>(value + random.between(-9, 9));
        out.u8(value);
    }
}

// A 256-colour RGBA32 palette; alpha 0x80 = opaque; stored swizzled, so
// colour c sits in slot ps2_palette_slot(c) (formats-tie-sky.md A.6 step 3).
void write_palette(ByteWriter& out, int t) {
    for (int slot = 0; slot < 256; ++slot) {
        const int c = ps2_palette_slot(static_cast<uint8_t>(slot));
        out.u8(static_cast<uint8_t>(c));
        out.u8(static_cast<uint8_t>((c * (t + 2)) & 0xff));
        out.u8(static_cast<uint8_t>(255 - c));
        out.u8(0x80);
    }
}

// Particle or fx textures inside their bank (the bank starts at `bank`):
// per texture a palette then its texels, 16-aligned, offsets from the bank.
struct BankTextureSpec {
    int32_t palette, texels, width, height;
};
std::vector<BankTextureSpec> bank_textures(ByteWriter& dat, uint64_t bank, std::initializer_list<std::pair<int, int>> sizes, Random& random) {
    std::vector<BankTextureSpec> out;
    int seed = 40;
    for (auto [w, h] : sizes) {
        dat.pad_to(16);
        const auto palette = static_cast<int32_t>(dat.size() - bank);
        write_palette(dat, seed++);
        const auto texel_at = static_cast<int32_t>(dat.size() - bank);
        texels(dat, static_cast<uint64_t>(w) * static_cast<uint64_t>(h), random);
        out.push_back({palette, texel_at, w, h});
    }
    return out;
}

// Particle textures (formats-globals.md §13): square frames in the particle
// bank, a puff growing frame by frame. Like Wrench's packer (which merges
// equal palettes), frames of one animation may share a palette: `shares`
// names the entry whose palette an entry reuses (-1: its own).
struct ParticleFrameSpec {
    int side, frame, shares;
};
std::vector<BankTextureSpec> particle_textures(ByteWriter& dat, uint64_t bank, const std::vector<ParticleFrameSpec>& frames) {
    std::vector<BankTextureSpec> out;
    for (const ParticleFrameSpec& f : frames) {
        dat.pad_to(16);
        int32_t palette = 0;
        if (f.shares >= 0) {
            palette = out.at(static_cast<size_t>(f.shares)).palette;
        } else {
            palette = static_cast<int32_t>(dat.size() - bank);
            write_palette(dat, 60 + static_cast<int>(out.size()));
        }
        const auto texel_at = static_cast<int32_t>(dat.size() - bank);
        const double middle = (f.side - 1) / 2.0, radius = f.side / 2.0 * (0.4 + 0.15 * f.frame);
        for (int y = 0; y < f.side; ++y)
            for (int x = 0; x < f.side; ++x) {
                const double d = std::hypot(x - middle, y - middle) / radius;
                dat.u8(d >= 1 ? 0 : static_cast<uint8_t>(255 * (1 - d)));
            }
        out.push_back({palette, texel_at, f.side, f.side});
    }
    return out;
}

void blob(ByteWriter& out, uint64_t count, Random& random) {
    for (uint64_t i = 0; i < count; ++i)
        out.u8(random.below(4) == 0 ? static_cast<uint8_t>(random.below(256)) : static_cast<uint8_t>(i / 16));
}

// §8.1 occlusion grid: a root, z nodes, y nodes of mask indices, then masks.
void occlusion_grid(ByteWriter& out, Random& random) {
    const uint64_t start = out.size();
    const int z_count = 2, y_count = 2, x_count = 3;
    // Node sizes in bytes, each 4-aligned: root 8 + 2*z, z node 4 + 2*y, y node 4 + 2*x.
    const uint64_t root_size = align_up(8 + 2 * z_count, 4);
    const uint64_t z_size = align_up(4 + 2 * y_count, 4);
    const uint64_t y_size = align_up(4 + 2 * x_count, 4);
    const uint64_t masks_at = align_up(root_size + z_count * z_size + z_count * y_count * y_size, 0x10);
    out.s32(static_cast<int32_t>(masks_at));
    out.u16(12);  // z_coord
    out.u16(z_count);
    for (int z = 0; z < z_count; ++z) out.u16(static_cast<uint16_t>((root_size + z * z_size) / 4));
    out.pad_to(4);
    for (int z = 0; z < z_count; ++z) {
        out.u16(7);  // y_coord
        out.u16(y_count);
        for (int y = 0; y < y_count; ++y)
            out.u16(static_cast<uint16_t>((root_size + z_count * z_size + (z * y_count + y) * y_size) / 4));
        while ((out.size() - start) % 4) out.u8(0);
    }
    int mask = 0;
    for (int i = 0; i < z_count * y_count; ++i) {
        out.u16(3);  // x_coord
        out.u16(x_count);
        for (int x = 0; x < x_count; ++x) out.u16(x == 1 ? 0xFFFF : static_cast<uint16_t>(mask++ % 4));
        while ((out.size() - start) % 4) out.u8(0);
    }
    while (out.size() - start < masks_at) out.u8(0);
    for (int m = 0; m < 4; ++m)
        for (int b = 0; b < 128; ++b) out.u8(static_cast<uint8_t>(random.below(256)));
}

// The particle bank's frames and the particles made of them (formats-globals.md
// §13): a four-frame puff, a two-frame one at 32, a single frame at 8, rows
// reused by a later particle, and one mixing sides; most of the GC's 0x6f
// slots empty, as in Wrench's output.
const std::vector<ParticleFrameSpec> kParticleFrames = {{16, 0, -1}, {16, 1, 0}, {16, 2, 0}, {16, 3, 0},
                                                        {32, 0, -1}, {32, 2, 4}, {8, 1, -1},  {16, 4, -1}};
std::vector<std::vector<uint8_t>> particle_slots() {
    std::vector<std::vector<uint8_t>> slots(21);
    slots[0] = {0, 1, 2, 3};
    slots[3] = {4, 5};
    slots[7] = {6};
    slots[10] = {0, 7, 2, 7};
    slots[20] = {4, 6};
    return slots;
}

// Words of an unknown meaning (formats-globals.md §13: "meaning unknown").
std::vector<uint32_t> words(Random& random, int count) {
    std::vector<uint32_t> out;
    for (int i = 0; i < count; ++i) out.push_back(static_cast<uint32_t>(random.next()));
    return out;
}

struct Core {
    LevelCoreHeader header;  // compressed size filled in once the stream exists
    Bytes dat;
    Bytes idx;
    Bytes gs_ram;
    Terrain terrain;                                        // what the gameplay instances stand on
    std::vector<int32_t> moby_classes, tie_classes, shrub_classes;  // o_class ids of the class tables
};

struct ClassTexture {
    std::string table;    // "moby", "tie", "shrub"
    int32_t data_offset;  // from textures_base_offset, or from the GS-RAM stash when stashed
    bool stashed;
};
// A class's bytes follow from the disc's seed and its id alone: a real disc
// stores one class per id, the same in every level that uses it (Wrench's
// unpacker keeps each class once, by id).
Random class_random(uint64_t disc_seed, int32_t o_class) { return Random(disc_seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(o_class)); }

// Moby class ids: 100-103 for the first four designs (the tests and damage
// kinds name them), then ids past 255, as retail class ids run.
int32_t moby_class_id(int m) { return m < 4 ? 100 + m : 0x100 + 8 * m; }

Core build_core(const ScaleSizes& sizes, Random& random, uint64_t disc_seed, const std::string& marker, const std::vector<Damage>& damage,
                int& patch_count) {
    LevelCoreHeader h;
    ByteWriter dat;

    // §6.2 DAT order: tfrags, occlusion, sky, collision (each 0x40-aligned), textures, banks, classes.
    const Terrain terrain = make_terrain({sizes.patches, sizes.textures}, random);
    patch_count = static_cast<int>(terrain.patches.size());
    TfragWriteOptions tfrag_options;
    tfrag_options.exotic_vif_codes = true;
    Bytes tfrags = write_tfrags(terrain.patches, tfrag_options);
    for (Damage kind : damage) damage_tfrags(tfrags, kind);
    dat.append(tfrags);
    h.tfrags = 0;
    dat.pad_to(0x40);
    h.occlusion = static_cast<int32_t>(dat.size());
    occlusion_grid(dat, random);
    dat.pad_to(0x40);
    h.sky = static_cast<int32_t>(dat.size());
    Bytes sky = write_sky(make_sky(random));
    for (Damage kind : damage) damage_sky(sky, kind);
    dat.append(sky);
    dat.pad_to(0x40);
    h.collision = static_cast<int32_t>(dat.size());
    Bytes collision = write_collision(make_collision(terrain, sizes.collision_cell, random));
    for (Damage kind : damage) damage_collision(collision, kind);
    dat.append(collision);
    dat.pad_to(0x40);

    h.textures_base_offset = static_cast<int32_t>(dat.size());
    const uint64_t texture_bytes = static_cast<uint64_t>(sizes.texture_edge) * sizes.texture_edge;
    std::vector<int32_t> texture_offsets;
    for (int t = 0; t < sizes.textures; ++t) {
        texture_offsets.push_back(static_cast<int32_t>(dat.size() - h.textures_base_offset));
        texels(dat, texture_bytes, random);
    }
    // Class textures after tfrag's (A.6 step 3, shrub §1.10): each table's rows,
    // texels in the pool, a palette of its own in GS RAM. The stashed moby
    // row's texels go to GS RAM instead (formats-moby.md §10.2); its
    // data_offset counts from the stash's start there.
    const uint64_t class_texture_bytes = static_cast<uint64_t>(sizes.class_texture_edge) * sizes.class_texture_edge;
    std::vector<ClassTexture> class_textures;
    for (auto [table, count] : {std::pair{"moby", kMobyTextureCount}, std::pair{"tie", kTieTextureCount}, std::pair{"shrub", kShrubTextureCount}})
        for (int t = 0; t < count; ++t) {
            const bool stashed = std::string(table) == "moby" && t == kStashedMobyRow;
            class_textures.push_back({table, stashed ? 0 : static_cast<int32_t>(dat.size() - h.textures_base_offset), stashed});
            if (!stashed) texels(dat, class_texture_bytes, random);
        }
    // The rest of the pool: other classes' textures in a real level.
    const uint64_t pool_end = h.textures_base_offset + sizes.texture_pool;
    if (dat.size() < pool_end) texels(dat, pool_end - dat.size(), random);
    dat.pad_to(0x100);  // Wrench's pack_particle_textures: the particle bank starts 0x100-aligned
    // The marker's prefix appears first in the particle bank, so the compressor
    // encodes the full marker in the fx bank partly as a match: the whole
    // string exists only in the decompressed core, never in the stream.
    // The banks hold the particle and fx textures, palettes beside their texels
    // (fields as Wrench reads them; formats.md §6.1 only sizes the records).
    h.part_bank_offset = static_cast<int32_t>(dat.size());
    const std::string prefix = marker.substr(0, marker.size() - 4);
    dat.append(ByteSpan(reinterpret_cast<const uint8_t*>(prefix.data()), prefix.size()));
    const std::vector<BankTextureSpec> particles = particle_textures(dat, static_cast<uint64_t>(h.part_bank_offset), kParticleFrames);
    dat.pad_to(0x10);
    h.fx_bank_offset = static_cast<int32_t>(dat.size());
    dat.append(ByteSpan(reinterpret_cast<const uint8_t*>(marker.data()), marker.size()));
    const std::vector<BankTextureSpec> fx = bank_textures(dat, static_cast<uint64_t>(h.fx_bank_offset), {{32, 16}, {16, 32}}, random);

    // formats-moby.md §1.2: moby classes first, each 0x40-aligned; every fifth has no model (offset 0).
    std::vector<int32_t> moby_offsets;
    std::vector<ClassBlob> mobies;
    for (int m = 0; m < sizes.moby_classes; ++m) {
        dat.pad_to(0x40);
        Random shape = class_random(disc_seed, moby_class_id(m));
        mobies.push_back(make_moby(moby_class_id(m), m, shape));
        for (Damage kind : damage) damage_moby_class(mobies.back().bytes, moby_class_id(m), kind);
        moby_offsets.push_back(m % 5 == 4 ? 0 : static_cast<int32_t>(dat.size()));
        if (m % 5 != 4) dat.append(mobies.back().bytes);
    }
    // A.1 / shrub §1.13: tie classes, then shrub classes, each 0x40-aligned.
    Random tie_shapes = class_random(disc_seed, 500), shrub_shapes = class_random(disc_seed, 700);
    std::vector<ClassBlob> ties = make_ties(tie_shapes);
    std::vector<ShrubBlob> shrubs = make_shrubs(shrub_shapes, sizes.class_texture_edge);
    for (Damage kind : damage) damage_tie_class(ties.front().bytes, kind);
    for (Damage kind : damage) damage_shrub_class(shrubs.front().blob.bytes, kind);
    std::vector<int32_t> tie_offsets, shrub_offsets;
    for (const ClassBlob& tie : ties) {
        dat.pad_to(0x40);
        tie_offsets.push_back(static_cast<int32_t>(dat.size()));
        dat.append(tie.bytes);
    }
    for (const ShrubBlob& shrub : shrubs) {
        dat.pad_to(0x40);
        shrub_offsets.push_back(static_cast<int32_t>(dat.size()));
        dat.append(shrub.blob.bytes);
    }
    dat.pad_to(0x10);
    h.scene_view_size = static_cast<int32_t>(dat.size());  // §6.1 0x7C: the DAT size after the classes, 16-aligned

    // §6.2 item 8: Ratchet's sequences after the classes, each 0x10-aligned,
    // in some of the 256 slots (formats-globals.md §13; their bytes are unpublished).
    std::vector<int32_t> seq_offsets(kRatchetSeqSlots, 0);
    for (int i = 0; i < sizes.ratchet_seqs; ++i) {
        const auto slot = static_cast<size_t>(i * 37) % kRatchetSeqSlots;  // 37 is prime to 256: distinct slots
        dat.pad_to(0x10);
        seq_offsets[slot] = static_cast<int32_t>(dat.size());
        blob(dat, 0x30 + 0x10 * uint64_t{random.below(sizes.ratchet_seq_steps)}, random);
    }
    dat.pad_to(0x10);

    // IDX (§6.2 "IDX order for GC"): header, pad 0x40, class tables, texture
    // tables, gs_ram table.
    ByteWriter idx;
    idx.zeros(kLevelCoreHeaderSize);
    idx.pad_to(0x40);
    h.moby_classes = {static_cast<int32_t>(moby_offsets.size()), static_cast<int32_t>(idx.size())};
    for (size_t m = 0; m < moby_offsets.size(); ++m) {
        idx.s32(moby_offsets[m]);
        idx.s32(mobies[m].o_class);
        idx.zeros(8);  // unknown_8, unknown_c (formats-moby.md §1.1)
        std::array<uint8_t, 16> rows = mobies[m].textures;
        if (m == 0 && wants(damage, Damage::stash_row_unlisted)) rows[15] = kStashedMobyRow;
        for (uint8_t row : rows) idx.u8(row);
    }
    h.tie_classes = {static_cast<int32_t>(ties.size()), static_cast<int32_t>(idx.size())};
    for (size_t t = 0; t < ties.size(); ++t) {
        idx.s32(tie_offsets[t]);
        idx.s32(ties[t].o_class);
        idx.zeros(8);  // unknown_8, unknown_c: 0 (A.1)
        for (uint8_t row : ties[t].textures) idx.u8(row);
    }
    // gs_ram after the palettes: each shrub's billboard palette and texels,
    // 0x100-aligned (shrub §4 item 14; Wrench never writes them).
    const int palettes = sizes.textures + static_cast<int>(class_textures.size());
    uint64_t gs_end = static_cast<uint64_t>(palettes) * kPaletteBytes;
    h.shrub_classes = {static_cast<int32_t>(shrubs.size()), static_cast<int32_t>(idx.size())};
    std::vector<std::array<uint64_t, 2>> billboards;  // palette and texel offsets in gs_ram
    for (size_t t = 0; t < shrubs.size(); ++t) {
        idx.s32(shrub_offsets[t]);
        idx.s32(shrubs[t].blob.o_class);
        idx.zeros(8);  // pad_8, pad_c (§1.1)
        for (uint8_t row : shrubs[t].blob.textures) idx.u8(row);
        const uint64_t edge = static_cast<uint64_t>(shrubs[t].billboard_edge);
        billboards.push_back({gs_end, gs_end + kPaletteBytes});
        // §1.11 (b): width, height, max mip, palette, texels (0x100 units), mips 1-3 unused.
        for (uint64_t v : {edge, edge, uint64_t{0}, gs_end / kPaletteUnit, (gs_end + kPaletteBytes) / kPaletteUnit, uint64_t{0},
                           uint64_t{0}, uint64_t{0}})
            idx.s16(static_cast<int16_t>(v));
        gs_end = align_up(gs_end + kPaletteBytes + edge * edge, kPaletteUnit);
    }
    h.tfrag_textures = {sizes.textures, static_cast<int32_t>(idx.size())};
    for (int t = 0; t < sizes.textures; ++t) {
        idx.s32(texture_offsets[t]);
        idx.s16(static_cast<int16_t>(sizes.texture_edge));
        idx.s16(static_cast<int16_t>(sizes.texture_edge));
        idx.s16(0x13);                    // type
        idx.s16(static_cast<int16_t>(4 * t));  // §6.3: gs_ram + palette × 0x100; palettes are 0x400 apart
        idx.s16(-1);
        idx.s16(-1);
    }
    // §6.2 IDX order: tfrag, moby, tie, shrub, part, fx texture tables.
    for (auto [table, range] : {std::pair{"moby", &h.moby_textures}, std::pair{"tie", &h.tie_textures}, std::pair{"shrub", &h.shrub_textures}}) {
        *range = {0, static_cast<int32_t>(idx.size())};
        for (size_t c = 0; c < class_textures.size(); ++c) {
            if (class_textures[c].table != std::string(table)) continue;
            ++range->count;
            idx.s32(class_textures[c].data_offset);
            idx.s16(static_cast<int16_t>(sizes.class_texture_edge));
            idx.s16(static_cast<int16_t>(sizes.class_texture_edge));
            idx.s16(class_textures[c].stashed ? 0 : 3);  // A.6 step 5, shrub §1.10, moby §10.2: type 3, or 0 when stashed
            idx.s16(static_cast<int16_t>(4 * (sizes.textures + static_cast<int>(c))));
            idx.s16(-1);  // no mip (the references' mip rows point at GS RAM copies we do not write)
            idx.s16(-1);
        }
    }
    // Particle records {palette, unknown (0 here), texels, side}; fx records {palette, texels, width, height}.
    h.part_textures = {static_cast<int32_t>(particles.size()), static_cast<int32_t>(idx.size())};
    for (const BankTextureSpec& t : particles) idx.s32(t.palette), idx.s32(0), idx.s32(t.texels), idx.s32(t.width);
    h.fx_textures = {static_cast<int32_t>(fx.size()), static_cast<int32_t>(idx.size())};
    for (const BankTextureSpec& t : fx) idx.s32(t.palette), idx.s32(t.texels), idx.s32(t.width), idx.s32(t.height);
    // The GS-RAM lump's layout: palettes, billboard images, then the moby stash.
    const uint64_t stash_at = gs_end;
    idx.pad_to(0x10);
    h.gs_ram = {palettes, static_cast<int32_t>(idx.size())};
    for (int t = 0; t < palettes; ++t) {
        idx.s32(0);  // psm 0: RGBA32 palette
        idx.s16(16);
        idx.s16(16);
        idx.s32(0x1000 + t * 0x40);
        idx.s32(t * 0x400);  // byte offset of the palette in the gs_ram lump
    }
    // formats-moby.md §10.2: the stashed texture's entry follows the regular ones, not
    // counted in gs_ram.count; its address is where the stash starts in the lump.
    idx.s32(0x13);  // IDTEX8
    idx.s16(static_cast<int16_t>(sizes.class_texture_edge));
    idx.s16(static_cast<int16_t>(sizes.class_texture_edge));
    idx.s32(static_cast<int32_t>(stash_at));
    idx.s32(0);
    h.moby_gs_stash_count = 1;
    // §6.2 IDX order after the gs_ram table, each 0x10-aligned as Wrench's
    // pack_level_core writes them: particle definitions, the sound remap, the
    // moby stash list (s16 ids ending at a negative one), Ratchet's sequence table.
    idx.pad_to(0x10);
    h.part_defs_offset = static_cast<int32_t>(idx.size());
    Bytes defs = particles::write_particle_defs(particles::kGcParticleSlots, particle_slots());
    for (Damage kind : damage) damage_particle_defs(defs, kind);
    idx.append(defs);
    idx.pad_to(0x10);
    h.sound_remap_offset = static_cast<int32_t>(idx.size());
    std::vector<std::vector<uint32_t>> remap_parts;
    for (int part = 0; part < 3 + static_cast<int>(random.below(4)); ++part) remap_parts.push_back(words(random, 1 + static_cast<int>(random.below(6))));
    Bytes remap = write_sound_remap(remap_parts, words(random, 4));
    for (Damage kind : damage) damage_sound_remap(remap, kind);
    idx.append(remap);
    idx.pad_to(0x10);
    h.moby_gs_stash_list = static_cast<int32_t>(idx.size());
    // formats-moby.md §10.2: a class on the list reads every row it names from
    // the stash, one off it from the core; so every class naming the stashed
    // row is listed, model-less ones too (the references are silent on
    // whether a real model-less class names texture rows at all).
    for (size_t m = 0; m < moby_offsets.size(); ++m)
        if (static_cast<int>(m) % 4 == kStashedMobyDesign) idx.s16(static_cast<int16_t>(mobies[m].o_class));
    idx.s16(-1);
    idx.pad_to(0x10);
    h.ratchet_seqs = static_cast<int32_t>(idx.size());
    for (int32_t offset : seq_offsets) idx.s32(offset);

    // gs_ram lump: one 256-colour RGBA32 palette per texture; alpha 0x80 =
    // opaque; stored swizzled, so colour c sits in slot ps2_palette_slot(c).
    ByteWriter gs;
    auto palette = [&](int t) { write_palette(gs, t); };
    for (int t = 0; t < palettes; ++t) palette(t);
    for (size_t b = 0; b < billboards.size(); ++b) {
        gs.pad_to(kPaletteUnit);
        palette(palettes + static_cast<int>(b));
        texels(gs, static_cast<uint64_t>(shrubs[b].billboard_edge) * shrubs[b].billboard_edge, random);
    }
    gs.pad_to(kPaletteUnit);
    if (gs.size() != stash_at) throw std::logic_error("level builder: the GS-RAM stash is not where its table entry says");
    texels(gs, class_texture_bytes, random);  // the stashed moby texture
    gs.pad_to(kPaletteUnit);

    h.glass_map_texture = 0x4000;  // §6.1: what Wrench writes
    h.glass_map_palette = 0x400;
    h.assets_decompressed_size = static_cast<int32_t>(dat.size());
    std::vector<int32_t> moby_ids;
    for (const ClassBlob& moby : mobies) moby_ids.push_back(moby.o_class);
    std::vector<int32_t> tie_ids, shrub_ids;
    for (const ClassBlob& tie : ties) tie_ids.push_back(tie.o_class);
    for (const ShrubBlob& shrub : shrubs) shrub_ids.push_back(shrub.blob.o_class);
    return {h, std::move(dat.bytes()), std::move(idx.bytes()), std::move(gs.bytes()), terrain, moby_ids, tie_ids, shrub_ids};
}

// 989snd bank stand-in: the seed saw "SBlk" at +0x18 and "DAW" at +0x24.
Bytes sound_bank(Random& random, uint64_t size) {
    ByteWriter out;
    blob(out, size, random);
    std::memcpy(out.bytes().data() + 0x18, "SBlk", 4);
    std::memcpy(out.bytes().data() + 0x24, "DAW", 3);
    return std::move(out.bytes());
}

// The retail tag bytes are zero (the seed's gameplay dump: +8 and +9 read as
// "00 00"); the decoder ignores them either way (§5.1).
Bytes compressed(const Bytes& data) { return wad_lz::compress(data, ""); }

// The level's code overlay, a ratchet executable (formats-globals.md §8) in
// the level overlay's shape: .lit, .bss (NOBITS), .data, lvl.vtbl,
// lvl.camvtbl, lvl.sndvtbl, .text, entered at .text. The load address is
// gcfs's choice (the references give none); the bytes are filler.
Bytes overlay_executable(Random& random) {
    const uint64_t sizes[7] = {0x80, 0x400, 0x200 + 0x10 * uint64_t{random.below(32)}, 0x40, 0x20, 0x30, 0x800 + 0x10 * uint64_t{random.below(64)}};
    std::vector<executable::BlockSpec> blocks;
    int32_t address = 0x00400000;
    for (int b = 0; b < 7; ++b) {
        ByteWriter bytes;
        blob(bytes, sizes[b], random);
        blocks.push_back({address, b == 1 ? executable::kNoBits : executable::kProgBits, std::move(bytes.bytes())});
        address += static_cast<int32_t>(align_up(sizes[b], 0x40));
    }
    return executable::write_executable(blocks, blocks.back().address);
}

// The transition (loading screen) textures: a texture list of 8-bit PIFs
// (formats-globals.md §5), compressed in the data lump (formats.md §4.1); the
// first with a mip level, as some PIFs have.
Bytes transition_textures(int index) {
    std::vector<Bytes> textures;
    const uint32_t sides[3][2] = {{64, 32}, {32, 32}, {16, 48}};
    for (int t = 0; t < 3; ++t) {
        const Picture8 p = picture8(sides[t][0], sides[t][1], 200 + 10 * index + t);
        textures.push_back(pif::write_pif8(p.width, p.height, p.palette, p.indices, t == 0 ? 2 : 1));
    }
    return pif::write_texture_list(textures);
}

Bytes data_lump(const Core& core, const Bytes& core_stream, Random& random, int index) {
    DataLumpHeader h;
    ByteWriter out;
    out.zeros(kDataLumpHeaderSize);
    auto section = [&](const Bytes& bytes) {
        out.pad_to(0x40);  // §4.1: Wrench aligns every section to 0x40
        const ByteRange range{static_cast<int32_t>(out.size()), static_cast<int32_t>(bytes.size())};
        out.append(bytes);
        return range;
    };
    h.overlay = section(overlay_executable(random));
    h.core_index = section(core.idx);
    h.gs_ram = section(core.gs_ram);
    ByteWriter hud;
    blob(hud, 0x200, random);
    h.hud_header = section(hud.bytes());
    for (int i = 0; i < 5; ++i) {
        if (i >= 2) {
            h.hud_banks[i] = {0, 0};
            continue;
        }
        ByteWriter bank;
        texels(bank, 0x3000, random);
        h.hud_banks[i] = section(compressed(bank.bytes()));
    }
    h.core_data = section(core_stream);
    if (index % 2 == 0) {
        h.transition_textures = section(compressed(transition_textures(index)));
    } else {
        h.transition_textures = {-1, 0};  // §4.1: absent
    }
    ByteWriter header;
    write_data_lump_header(header, h);
    std::copy(header.bytes().begin(), header.bytes().end(), out.bytes().begin());
    return std::move(out.bytes());
}

// Lays sections out after the header sector, each sector-aligned (§3.1).
class LevelFile {
public:
    LevelFile() { out_.zeros(kSectorSize); }
    SectorRange add(const Bytes& section) {
        const SectorRange range{static_cast<int32_t>(out_.size() / kSectorSize),
                                static_cast<int32_t>(sectors_for(section.size()))};
        out_.append(section);
        out_.pad_to(kSectorSize);
        return range;
    }
    Bytes finish(const LevelHeader& header) {
        ByteWriter h;
        write_level_header(h, header);
        std::copy(h.bytes().begin(), h.bytes().end(), out_.bytes().begin());
        return std::move(out_.bytes());
    }

private:
    ByteWriter out_;
};

Bytes scene_wad(Random& random) {
    ByteWriter out;
    out.s32(kLevelSceneHeaderSize);  // opaque to Wrench too (§3.4)
    out.s32(0);
    out.zeros(kLevelSceneHeaderSize - 8);
    out.pad_to(kSectorSize);
    blob(out, kSectorSize, random);
    return std::move(out.bytes());
}

}  // namespace

Bytes wad_header_prefix(const Bytes& file, int32_t header_size) {
    return Bytes(file.begin(), file.begin() + header_size);
}

LevelImage build_level(const LevelSpec& spec) {
    Random random(spec.seed * 1000003 + static_cast<uint64_t>(spec.index));
    const ScaleSizes sizes = sizes_for(spec.scale);
    LevelImage level;
    level.marker = fmt::format("GCFS-MARKER level {:02d} id {}", spec.index, spec.id);

    Core core = build_core(sizes, random, spec.seed, level.marker, spec.damage, level.patch_count);
    Bytes core_stream = compressed(core.dat);
    for (Damage kind : spec.damage) damage_core_stream(core_stream, kind);
    core.header.assets_compressed_size = static_cast<int32_t>(core_stream.size());  // §6.1 0x88
    ByteWriter core_header;
    write_level_core_header(core_header, core.header);
    std::copy(core_header.bytes().begin(), core_header.bytes().end(), core.idx.begin());

    Bytes occlusion_copy;  // formats.md §3.1 0x28: a copy of the occlusion mappings
    level.gameplay = build_gameplay({spec.index, spec.scale == Scale::full, core.terrain.height, core.terrain.extent,
                                     core.moby_classes, core.tie_classes, core.shrub_classes, level.patch_count},
                                    random, &occlusion_copy);
    for (Damage kind : spec.damage) damage_gameplay(level.gameplay, kind);
    const Bytes data = data_lump(core, core_stream, random, spec.index);
    Bytes gameplay = compressed(level.gameplay);
    for (Damage kind : spec.damage) damage_gameplay_stream(gameplay, kind);
    const Bytes bank = sound_bank(random, spec.scale == Scale::full ? (1u << 20) + random.below(1u << 19) : 0x1800);

    level.header.id = spec.id;
    level.header.reverb = static_cast<int32_t>(random.below(8));
    LevelFile file;
    // Wrench packs sound_bank, data, gameplay, occlusion; odd levels use
    // another order so that readers must follow the offsets (§3.1).
    if (spec.index % 2 == 0) {
        level.header.sound_bank = file.add(bank);
        level.header.data = file.add(data);
        level.header.gameplay = file.add(gameplay);
    } else {
        level.header.data = file.add(data);
        level.header.gameplay = file.add(gameplay);
        level.header.sound_bank = file.add(bank);
    }
    level.header.occlusion = file.add(occlusion_copy);
    for (Damage kind : spec.damage) damage_level_header(level.header, kind);
    level.level_wad = file.finish(level.header);
    level.audio_wad = level_audio_wad(spec.index, spec.scale, spec.damage);
    level.scene_wad = scene_wad(random);
    level.core_data = std::move(core.dat);
    return level;
}

}  // namespace gcfs::mkdisc
