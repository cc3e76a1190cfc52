// Particle definitions (formats-globals.md §13; Wrench's level_textures.cpp
// for the GC count): which entries of the core's part_textures table make
// each particle's animation. The block sits in core_index at
// part_defs_offset: {s32 particle_count, s32 unknown_4, s32 indices_offset,
// s32 indices_size}, s32 offsets[particle_count] at +0x10, then the index
// bytes at indices_offset; every offset counts from the block's start.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::particles {

constexpr uint64_t kDefsHeaderSize = 0x10;
// Wrench writes 0x6f particle slots for GC whatever a level uses (level_textures.cpp).
constexpr int32_t kGcParticleSlots = 0x6f;

struct Particle {
    int32_t slot = 0;             // its index in offsets[]
    uint64_t first_index = 0;     // where its index bytes start in the block
    std::vector<uint8_t> frames;  // part_textures rows, in playing order
    // Why the particle cannot be shown ("" when fine): its index bytes run
    // outside the block's, or frame `bad_frame` names a row past part_textures.
    std::string error;
    int bad_frame = -1;
};

struct ParticleDefs {
    int32_t particle_count = 0, unknown_4 = 0, indices_offset = 0, indices_size = 0;
    uint64_t size = 0;                // bytes of core_index the block covers
    std::vector<Particle> particles;  // the slots whose offset is not 0, in slot order
};

// The block at `offset` of core_index, every count checked against the bytes
// before it sizes anything. A particle owns index bytes from its offset up to
// the next non-zero offset (the last: to indices_size); frames naming a row at
// or past `texture_count` make that particle's error, not the block's.
Result<ParticleDefs> parse_particle_defs(ByteSpan core_index, int32_t offset, size_t texture_count);

// ---- writer (the disc builder) ----
// `particles[slot]` lists slot's rows (empty: offset 0, no particle). Written
// as Wrench packs them: the offsets, pad 0x10, then each particle's bytes.
Bytes write_particle_defs(int32_t particle_count, const std::vector<std::vector<uint8_t>>& particles);

}  // namespace gcfs::formats::particles
