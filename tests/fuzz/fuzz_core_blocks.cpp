// libFuzzer: the level-core blocks of formats-globals.md §13 over a
// core_index: particle definitions (and each particle's animation, made from
// the input itself standing in for the decompressed core), the sound remap
// and Ratchet's sequence table, each found through the core header.
#include "formats/core/bank_textures.h"
#include "formats/core/ratchet_seqs.h"
#include "formats/core/sound_remap.h"
#include "formats/particles/particle_animation.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan idx(data, size);
    auto header = parse_level_core_header(idx);
    if (!header.ok()) return 0;
    auto textures = parse_bank_textures(idx, header->part_textures, true);
    if (textures.ok()) {
        auto defs = particles::parse_particle_defs(idx, header->part_defs_offset, textures->size());
        if (defs.ok())
            for (const auto& p : defs->particles) {
                const uint64_t expected = particles::animation_size(p, *textures);
                auto png = particles::animation_png(p, *textures, idx, header->part_bank_offset);
                if (png.ok() && png->size() != expected) __builtin_trap();  // the size stat gives is the size read
            }
    }
    auto remap = parse_sound_remap(idx, header->sound_remap_offset);
    if (remap.ok()) (void)sound_remap_csv(*remap);
    const std::set<uint64_t> boundaries = {0, size / 2, size};
    (void)parse_ratchet_seqs(idx, header->ratchet_seqs, boundaries, size);
    return 0;
}
