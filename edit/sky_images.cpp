#include "edit/sky_images.h"

#include <fmt/format.h>

#include "edit/edit_refused.h"
#include "edit/texture_import.h"
#include "formats/core/texture_encode.h"
#include "formats/core/texture_rows.h"
#include "formats/export/texture_png.h"

namespace gcfs::edit {
namespace {

// B.4: a face's u8 texture index; 0xFF is what the gradient shells' faces hold.
constexpr size_t kMostSkyTextures = 0xFF;

formats::Bytes palette_bytes(const std::array<uint32_t, 256>& palette) {
    formats::ByteWriter out;
    for (uint32_t colour : palette) out.u32(colour);
    return std::move(out.bytes());
}

std::array<uint32_t, 256> palette_words(formats::ByteSpan stored) {
    std::array<uint32_t, 256> words{};
    for (size_t i = 0; i < words.size(); ++i) words[i] = formats::u32_at(stored, 4 * i);
    return words;
}

bool power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

}  // namespace

uint8_t SkyImages::def_for(const formats::ModelMesh::Image& image, const std::string& material) {
    if (const auto known = by_file_.find(image.embedded); known != by_file_.end() && !image.embedded.empty()) return known->second;
    const formats::png::RgbaImage picture = material_picture(image, material, "sky textures (sky.mtl's sky_000 …)");
    for (size_t def = 0; def < sky_.textures.size(); ++def) {
        const formats::SkyTextureContent& t = sky_.textures[def];
        if (static_cast<uint32_t>(t.width) != picture.width || static_cast<uint32_t>(t.height) != picture.height || def >= kMostSkyTextures) continue;
        if (formats::indexed_texture_rgba(picture.width, picture.height, t.texels, palette_bytes(t.palette)).rgba == picture.rgba) {
            ++reused_;
            return by_file_[image.embedded] = static_cast<uint8_t>(def);
        }
    }
    for (uint32_t side : {picture.width, picture.height})
        if (!power_of_two(side) || side < formats::kNewTextureMinSide)
            throw EditRefused(fmt::format("the material \"{}\"'s image is {}x{}; a new sky texture's sides must be powers of two from {} to {}", material,
                                          picture.width, picture.height, formats::kNewTextureMinSide, formats::kNewTextureMaxSide));
    if (sky_.textures.size() >= kMostSkyTextures)
        throw EditRefused(fmt::format("the sky has {} texture defs, the most a face's u8 texture index names below 0xFF (formats-tie-sky.md B.4)",
                                      sky_.textures.size()));
    const formats::IndexedPicture coded = formats::encode_indexed(picture, {}, formats::Palette{}, true);
    formats::SkyTextureContent added;
    added.width = static_cast<int32_t>(picture.width);
    added.height = static_cast<int32_t>(picture.height);
    added.texels = coded.texels;
    added.palette = palette_words(formats::ps2_palette_bytes(coded.palette));
    sky_.textures.push_back(std::move(added));
    ++added_;
    return by_file_[image.embedded] = static_cast<uint8_t>(sky_.textures.size() - 1);
}

std::string SkyImages::status() const {
    if (reused_ + added_ == 0) return {};
    return fmt::format("{} image{} from the file: {} the same as a sky texture, {} added (now {} texture defs)", reused_ + added_,
                       reused_ + added_ == 1 ? "" : "s", reused_, added_, sky_.textures.size());
}

}  // namespace gcfs::edit
