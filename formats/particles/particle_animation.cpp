#include "formats/particles/particle_animation.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/core/core_tables.h"
#include "formats/export/apng.h"
#include "formats/export/texture_png.h"

namespace gcfs::formats::particles {

uint32_t canvas_side(const Particle& particle, const std::vector<BankTexture>& textures) {
    uint32_t side = 0;
    for (uint8_t row : particle.frames) {
        if (row >= textures.size()) return 0;
        side = std::max(side, static_cast<uint32_t>(std::clamp(textures[row].width, 0, 1024)));
    }
    return side;
}

uint64_t animation_size(const Particle& particle, const std::vector<BankTexture>& textures) {
    const uint32_t side = canvas_side(particle, textures);
    return side == 0 ? 0 : png::apng_size(side, side, particle.frames.size());
}

Result<Bytes> animation_png(const Particle& particle, const std::vector<BankTexture>& textures, ByteSpan core, int32_t bank_offset) {
    return capture([&] {
        if (!particle.error.empty()) fail(Errc::bad_value, 0, particle.error);
        const uint32_t side = canvas_side(particle, textures);
        if (side == 0) fail(Errc::bad_value, 0, fmt::format("particle {} has no frame to show", particle.slot));
        std::vector<std::vector<png::Rgba>> frames;
        for (size_t f = 0; f < particle.frames.size(); ++f) {
            const BankTexture& t = textures[particle.frames[f]];
            if (const std::string problem = bank_texture_outside(t, bank_offset, core.size()); !problem.empty())
                fail(Errc::out_of_range, 0, fmt::format("particle {} frame {} (part_textures row {}): {}", particle.slot, f, particle.frames[f], problem));
            if (t.width != t.height) fail(Errc::bad_value, 0, fmt::format("particle {} frame {} is not square", particle.slot, f));
            const auto edge = static_cast<uint32_t>(t.width);
            const auto palette = ps2_palette(core.subspan(static_cast<uint64_t>(int64_t{bank_offset} + t.palette), kPaletteBytes));
            const ByteSpan texels = core.subspan(static_cast<uint64_t>(int64_t{bank_offset} + t.texels), uint64_t{edge} * edge);
            std::vector<png::Rgba>& frame = frames.emplace_back(uint64_t{side} * side);  // transparent black outside the frame
            for (uint32_t y = 0; y < edge; ++y)
                for (uint32_t x = 0; x < edge; ++x) frame[uint64_t{y} * side + x] = palette[texels[uint64_t{y} * edge + x]];
        }
        return png::write_apng(side, side, frames, kFrameDelayNum, kFrameDelayDen);
    });
}

}  // namespace gcfs::formats::particles
