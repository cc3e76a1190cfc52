#include "edit/sky_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "edit/core_region.h"
#include "edit/edit_refused.h"
#include "edit/sky_images.h"
#include "formats/core/texture_encode.h"
#include "formats/export/texture_png.h"
#include "formats/import/model_read.h"
#include "formats/sky/sky.h"
#include "formats/sky/sky_compile.h"

namespace gcfs::edit {
namespace {

// "sky_003" -> 3, as sky.mtl names the texture defs; nullopt for any other name.
std::optional<uint8_t> sky_texture(const std::string& material, int16_t defs) {
    unsigned value = 0;
    if (material.size() != 7 || !material.starts_with("sky_")) return std::nullopt;
    const char* end = material.data() + material.size();
    const auto [at, ec] = std::from_chars(material.data() + 4, end, value);
    if (ec != std::errc() || at != end || value >= static_cast<unsigned>(std::max<int16_t>(defs, 0)) || value >= 0xff) return std::nullopt;
    return static_cast<uint8_t>(value);
}

// What the old block keeps: everything but its shells (B.2), the textures as stored.
formats::SkyContent kept_content(formats::ByteSpan block, const formats::Sky& sky) {
    formats::SkyContent content;
    content.rgba = sky.header.rgba;
    content.clear_screen = sky.header.clear_screen;
    content.maximum_sprite_count = sky.header.maximum_sprite_count;
    for (int16_t i = 0; i < sky.header.fx_count; ++i) content.fx.push_back(formats::u8_at(block, static_cast<uint64_t>(sky.header.fx_list) + static_cast<uint64_t>(i)));
    for (const auto& def : sky.textures) {  // parse_sky checked the texels and palette of each lie in the block
        formats::SkyTextureContent t;
        t.width = def.width;
        t.height = def.height;
        const uint64_t texels = static_cast<uint64_t>(int64_t{sky.header.texture_data} + def.texture_offset);
        const uint64_t palette = static_cast<uint64_t>(int64_t{sky.header.texture_data} + def.palette_offset);
        const formats::ByteSpan bytes = formats::slice(block, texels, static_cast<uint64_t>(def.width) * static_cast<uint64_t>(def.height), "texels");
        t.texels.assign(bytes.begin(), bytes.end());
        for (size_t i = 0; i < t.palette.size(); ++i) t.palette[i] = formats::u32_at(block, palette + 4 * i);
        content.textures.push_back(std::move(t));
    }
    return content;
}

// B.4: sky.obj shows a gradient vertex as the header colour × alpha; alpha
// is read back from the channel where the header colour is largest.
uint8_t gradient_alpha(const std::array<double, 3>& colour, const std::array<uint8_t, 4>& header) {
    const int k = static_cast<int>(std::max_element(header.begin(), header.begin() + 3) - header.begin());
    if (header[k] == 0) return 255;
    return static_cast<uint8_t>(std::clamp(std::lround(colour[k] * 255.0 * 255.0 / header[k]), 0L, 255L));
}

std::vector<formats::SkyShellIn> shells_of(const formats::ModelMesh& model, const formats::SkyHeader& header, SkyImages& images) {
    std::vector<formats::SkyShellIn> shells(model.objects.size());
    std::vector<int> kind(model.objects.size(), -1);  // -1 none yet, 0 gradient, 1 textured
    std::vector<std::array<double, 3>> positions;
    for (const auto& p : model.positions) positions.push_back({p[0], 0.0 - p[2], p[1]});  // y up -> the game's z up (formats/export/axes.h)
    for (size_t n = 0; n < model.faces.size(); ++n) {
        const auto& face = model.faces[n];
        const std::string& material = model.materials.at(face.material);
        const formats::ModelMesh::Image& image = model.material_images.at(face.material);
        std::optional<uint8_t> texture = sky_texture(material, header.texture_count);
        if (!texture && !image.path.empty()) texture = images.def_for(image, material);  // a textured face: its image as a def (edit/sky_images.h)
        int& k = kind[face.object];
        if (k >= 0 && k != (texture ? 1 : 0))
            throw EditRefused(fmt::format("object \"{}\" mixes textured faces (sky_000 …) and untextured ones (face {}, material \"{}\"): a shell is one "
                                          "or the other (formats-tie-sky.md B.4)", model.objects[face.object], n + 1, material));
        k = texture ? 1 : 0;
        for (size_t c = 1; c + 1 < face.corners.size(); ++c)  // polygons as fans
            shells[face.object].faces.push_back({{face.corners[0], face.corners[c], face.corners[c + 1]}, texture ? *texture : uint8_t{0xff}});
    }
    std::vector<formats::SkyShellIn> out;
    for (size_t s = 0; s < shells.size(); ++s) {
        if (shells[s].faces.empty()) continue;
        auto& shell = shells[s];
        shell.textured = kind[s] == 1;
        shell.positions = positions;
        for (size_t v = 0; v < positions.size(); ++v) {
            shell.uvs.push_back(shell.textured && !model.uvs.empty() ? std::array<double, 2>{model.uvs[v][0], 1.0 - model.uvs[v][1]} : std::array<double, 2>{0, 0});
            shell.alpha.push_back(shell.textured || model.colours.empty() ? 255 : gradient_alpha(model.colours[v], header.rgba));
        }
        out.push_back(std::move(shell));
    }
    return out;
}

}  // namespace

std::string apply_sky(LevelParts& parts, const tree::LevelScan& level, formats::ByteSpan content) {
    const formats::CoreRegion* region = level.region("sky");
    if (!region) throw EditRefused("the level's core has no sky region (formats.md 6.1 0x10)");
    const auto model = formats::read_model(content);
    if (!model.ok()) throw EditRefused(model.error().message);
    formats::Bytes core = level_part(parts, "core_data");
    if (region->offset + region->size > core.size()) throw EditRefused("the level's sky region lies past its core_data");
    const formats::ByteSpan old_block = formats::ByteSpan(core).subspan(region->offset, region->size);
    const auto old = formats::parse_sky(old_block);
    if (!old.ok()) throw EditRefused(fmt::format("the level's sky block does not read ({}), so its textures cannot be kept", old.error().describe()));
    formats::SkyContent sky = kept_content(old_block, *old);

    SkyImages images(sky);
    const auto shells = shells_of(*model, old->header, images);
    auto clusters = formats::compile_sky_shells(shells);
    if (!clusters.ok()) throw EditRefused(clusters.error().message);
    sky.shells = std::move(*clusters);
    std::string said;
    for (size_t s = 0; s < shells.size(); ++s) {
        sky.shell_flags.push_back(shells[s].textured ? 0 : 1);  // B.3: bit 0 set = untextured
        said += fmt::format("{}shell {} {}, {} faces in {} clusters", s ? "; " : "", s, shells[s].textured ? "textured" : "gradient",
                            shells[s].faces.size(), sky.shells[s].size());
    }
    const formats::Bytes block = formats::write_sky(sky);
    const uint64_t growth = write_core_region(parts, core, region->offset, region->size, block, "sky");
    parts.replace("core_data", std::move(core));
    const std::string pictures = images.status();
    return fmt::format("{} shells ({}); the header's colour, {} textures and {} fx kept; {} of the sky region's {} bytes{}{}", shells.size(), said,
                       old->textures.size(), sky.fx.size(), block.size(), region->size + growth,
                       growth ? fmt::format(" (grown by {}, the core's later blocks moved)", growth) : std::string(),
                       pictures.empty() ? std::string() : "; " + pictures);
}

std::optional<size_t> sky_texture_def(const std::string& inside) {
    constexpr std::string_view kPrefix = "sky/sky_", kSuffix = ".png";
    if (inside.size() != kPrefix.size() + 3 + kSuffix.size() || !inside.starts_with(kPrefix) || !inside.ends_with(kSuffix)) return std::nullopt;
    size_t def = 0;
    const char* digits = inside.data() + kPrefix.size();
    const auto [at, ec] = std::from_chars(digits, digits + 3, def);
    if (ec != std::errc() || at != digits + 3) return std::nullopt;
    return def;
}

std::string apply_sky_texture(LevelParts& parts, const tree::LevelScan& level, size_t def, formats::ByteSpan content) {
    const formats::CoreRegion* region = level.region("sky");
    if (!region) throw EditRefused("the level's core has no sky region (formats.md 6.1 0x10)");
    formats::Bytes core = level_part(parts, "core_data");
    if (region->offset + region->size > core.size()) throw EditRefused("the level's sky region lies past its core_data");
    const formats::ByteSpan block = formats::ByteSpan(core).subspan(region->offset, region->size);
    const auto sky = formats::parse_sky(block);
    if (!sky.ok()) throw EditRefused(fmt::format("the level's sky block does not read: {}", sky.error().describe()));
    if (def >= sky->textures.size()) throw EditRefused(fmt::format("the sky has {} texture defs, not {}", sky->textures.size(), def + 1));
    const formats::SkyTextureDef& t = sky->textures[def];
    const auto picture = formats::png::read_rgba(content, static_cast<uint32_t>(t.width), static_cast<uint32_t>(t.height));
    if (!picture.ok()) throw EditRefused(picture.error().message);
    // parse_sky checked the texels and the 256-entry palette lie in the block (B.5).
    const uint64_t base = region->offset + static_cast<uint64_t>(sky->header.texture_data);
    const uint64_t texels = base + static_cast<uint64_t>(t.texture_offset), palette = base + static_cast<uint64_t>(t.palette_offset);
    const uint64_t count = static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height);
    const bool shared = std::any_of(sky->textures.begin(), sky->textures.end(),
                                    [&](const auto& other) { return &other != &t && other.palette_offset == t.palette_offset; });
    const auto encoded = formats::encode_indexed(*picture, formats::ByteSpan(core).subspan(texels, count),
                                                 formats::ps2_palette(formats::ByteSpan(core).subspan(palette, 1024)), !shared);
    std::copy(encoded.texels.begin(), encoded.texels.end(), core.begin() + static_cast<int64_t>(texels));
    if (encoded.new_palette) {
        const formats::Bytes stored = formats::ps2_palette_bytes(encoded.palette);
        std::copy(stored.begin(), stored.end(), core.begin() + static_cast<int64_t>(palette));
    }
    parts.replace("core_data", std::move(core));
    return fmt::format("{}x{} texels written in place{}", t.width, t.height, encoded.how.empty() ? std::string() : "; " + encoded.how);
}

}  // namespace gcfs::edit
