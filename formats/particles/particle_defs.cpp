#include "formats/particles/particle_defs.h"

#include <fmt/format.h>

#include <stdexcept>

#include "formats/core/level_core.h"

namespace gcfs::formats::particles {

Result<ParticleDefs> parse_particle_defs(ByteSpan idx, int32_t offset, size_t texture_count) {
    return capture([&] {
        const ByteSpan block = core_index_block(idx, offset, 0x6c, "part_defs_offset", kDefsHeaderSize, "particle definitions header");
        const auto base = static_cast<uint64_t>(offset);
        ParticleDefs defs;
        defs.particle_count = s32_at(block, 0);
        defs.unknown_4 = s32_at(block, 4);
        defs.indices_offset = s32_at(block, 8);
        defs.indices_size = s32_at(block, 12);
        if (defs.particle_count < 0) fail(Errc::bad_value, base, fmt::format("particle count {} is negative", defs.particle_count));
        const auto count = static_cast<uint64_t>(defs.particle_count);
        require(block, kDefsHeaderSize, 4 * count, "particle offsets", base);
        if (defs.indices_offset < 0 || defs.indices_size < 0)
            fail(Errc::bad_value, base + 8, fmt::format("index bytes at {} of size {}", defs.indices_offset, defs.indices_size));
        const auto indices_at = static_cast<uint64_t>(defs.indices_offset), indices_size = static_cast<uint64_t>(defs.indices_size);
        if (indices_at < kDefsHeaderSize + 4 * count)
            fail(Errc::bad_value, base + 8, fmt::format("index bytes at {} overlap the {} offsets", indices_at, count));
        require(block, indices_at, indices_size, "particle index bytes", base);
        defs.size = indices_at + indices_size;

        std::vector<int32_t> offsets;
        for (uint64_t p = 0; p < count; ++p)
            if (const int32_t at = s32_at(block, kDefsHeaderSize + 4 * p); at != 0) offsets.push_back(at), defs.particles.push_back({static_cast<int32_t>(p)});
        for (size_t i = 0; i < defs.particles.size(); ++i) {
            Particle& particle = defs.particles[i];
            // §13: from this offset to the next non-zero one, the last to indices_size.
            const int64_t begin = int64_t{offsets[i]} - defs.indices_offset;
            const int64_t end = i + 1 < offsets.size() ? int64_t{offsets[i + 1]} - defs.indices_offset : defs.indices_size;
            if (begin < 0 || end < begin || end > defs.indices_size) {
                particle.error = fmt::format("particle {}: index bytes [{}, {}) outside the block's [0, {})", particle.slot, begin, end,
                                             defs.indices_size);
                continue;
            }
            particle.first_index = indices_at + static_cast<uint64_t>(begin);
            for (int64_t k = begin; k < end; ++k) {
                const uint8_t row = block[indices_at + static_cast<uint64_t>(k)];
                if (row >= texture_count && particle.error.empty()) {
                    particle.bad_frame = static_cast<int>(k - begin);
                    particle.error = fmt::format("particle {} frame {}: index byte at core_index 0x{:x} names part_textures row {} of {}",
                                                 particle.slot, k - begin, base + indices_at + static_cast<uint64_t>(k), row,
                                                 texture_count);
                }
                particle.frames.push_back(row);
            }
        }
        return defs;
    });
}

Bytes write_particle_defs(int32_t particle_count, const std::vector<std::vector<uint8_t>>& particles) {
    if (particles.size() > static_cast<size_t>(particle_count)) throw std::invalid_argument("particle defs: more particles than slots");
    ByteWriter out;
    out.zeros(kDefsHeaderSize + 4 * static_cast<uint64_t>(particle_count));
    out.pad_to(0x10);
    const uint64_t indices_at = out.size();
    for (size_t p = 0; p < particles.size(); ++p) {
        if (particles[p].empty()) continue;
        out.patch_u32(kDefsHeaderSize + 4 * p, static_cast<uint32_t>(out.size()));
        for (uint8_t row : particles[p]) out.u8(row);
    }
    out.patch_u32(0, static_cast<uint32_t>(particle_count));
    out.patch_u32(8, static_cast<uint32_t>(indices_at));
    out.patch_u32(12, static_cast<uint32_t>(out.size() - indices_at));
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::particles
