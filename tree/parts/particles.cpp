#include <fmt/format.h>

#include "formats/particles/particle_animation.h"
#include "tree/parts/parts.h"
#include "tree/level/texture_file.h"

namespace gcfs::tree::parts {
namespace {

using formats::particles::Particle;

// particle, frames, side (the canvas: the largest frame's), frame_sides,
// texture_entries (part_textures rows in playing order), status.
std::string particles_csv(const formats::particles::ParticleDefs& defs, const std::vector<formats::BankTexture>& textures) {
    std::string out = "particle,frames,side,frame_sides,texture_entries,status\n";
    for (const Particle& p : defs.particles) {
        std::string rows, sides;
        for (uint8_t row : p.frames) {
            rows += (rows.empty() ? "" : " ") + std::to_string(row);
            sides += (sides.empty() ? "" : " ") + (row < textures.size() ? std::to_string(textures[row].width) : std::string("?"));
        }
        const std::string status = !p.error.empty() ? p.error : p.frames.empty() ? "no frames" : "ok";
        fmt::format_to(std::back_inserter(out), "{},{},{},\"{}\",\"{}\",\"{}\"\n", p.slot, p.frames.size(),
                       formats::particles::canvas_side(p, textures), sides, rows, status);
    }
    return out;
}

}  // namespace

// particles/NNN/frame_MM.png and particles/NNN.png (an animated PNG) for
// each particle of the core's definitions, particles.csv beside them
// (formats-globals.md 13). Frames are part_textures entries, read from the
// particle bank like textures/part_NNN.png.
void particles(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!f.core || !level.core) return;
    if (!level.particle_defs_error.empty())
        f.file(f.dir, "particles.csv", std::make_shared<Unreadable>(level.particle_defs_error), f.decoded(0, 0, "none", level.particle_defs_error));
    if (!level.particle_defs) return;
    const auto& defs = *level.particle_defs;
    const int32_t bank = level.core->part_bank_offset;
    f.file(f.dir, "particles.csv", std::make_shared<StaticText>(particles_csv(defs, level.particle_textures)),
           f.decoded(f.core_index_offset, f.core_index_length, "CSV written by gcfs",
                     fmt::format("the particle definitions at core_index.bin 0x{:x} (formats-globals.md 13)", level.core->part_defs_offset)));
    if (defs.particles.empty()) return;
    const uint64_t dir = f.directory(f.dir, "particles");
    for (const Particle& p : defs.particles) {
        const std::string stem = fmt::format("{:03d}", p.slot);
        const std::string what = fmt::format("particle {}: part_textures rows at core_index.bin 0x{:x} (formats-globals.md 13)", p.slot,
                                             static_cast<uint64_t>(level.core->part_defs_offset) + p.first_index);
        if (p.frames.empty()) continue;  // nothing to show; particles.csv says so
        // Every frame's texels and palette (the bank's region holds them all when they check out).
        uint64_t from = UINT64_MAX, to = 0;
        for (const uint8_t row : p.frames)
            if (row < level.particle_textures.size()) {
                const auto [first, end] = formats::bank_texture_span(level.particle_textures[row], bank);
                from = std::min(from, first);
                to = std::max(to, end);
            }
        f.file(dir, stem + ".png",
               std::make_shared<ParticleAnimationFile>(f.cache(), f.core, f.texel_region(from, to), p, level.particle_textures, bank),
               f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then animated PNG"),
                         what + fmt::format("; {} frames, 1/{} s each (gcfs's choice: the references give no rate)", p.frames.size(),
                                            formats::particles::kFrameDelayDen)));
        const uint64_t frames = f.directory(dir, stem);
        for (size_t k = 0; k < p.frames.size(); ++k) {
            const std::string name = fmt::format("frame_{:02d}.png", k);
            const uint8_t row = p.frames[k];
            if (row >= level.particle_textures.size()) {
                f.file(frames, name, std::make_shared<Unreadable>(p.error), f.decoded(0, 0, "none", p.error));
                continue;
            }
            const formats::BankTexture& t = level.particle_textures[row];
            f.file(frames, name, std::make_shared<BankTextureFile>(f.cache(), f.core, f.texel_region(formats::bank_texture_span(t, bank)), t, bank),
                   f.decoded(f.core_stream.offset, f.core_stream.available, LevelFolder::kWadLz + std::string(", then 8-bit indexed PNG"),
                             fmt::format("{}; frame {}: part_textures row {}, core_data.bin [0x{:x}, +{}) with its palette at 0x{:x}", what, k,
                                         row, int64_t{bank} + t.texels, int64_t{t.width} * t.height, int64_t{bank} + t.palette)));
        }
    }
}

}  // namespace gcfs::tree::parts
