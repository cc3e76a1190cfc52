#include "edit/texture_import.h"

#include <fmt/format.h>

#include <utility>

#include "edit/edit_refused.h"
#include "formats/core/core_tables.h"
#include "formats/core/level_core.h"
#include "formats/core/texture_encode.h"
#include "formats/export/png_read.h"
#include "formats/export/texture_png.h"

namespace gcfs::edit {
namespace {

formats::LevelCoreHeader core_header(formats::ByteSpan index) {
    auto header = formats::parse_level_core_header(index);
    if (!header.ok()) throw EditRefused(fmt::format("the level's core header does not read: {}", header.error().describe()));
    return *header;
}

formats::ArrayRange table_range(formats::ByteSpan index, formats::TextureTable table) {
    return formats::array_range_at(index, formats::texture_table_field(table));
}

}  // namespace

TableImages::TableImages(LevelParts& parts, formats::TextureTable table, std::string name)
    : parts_(parts), table_(table), name_(std::move(name)), index_(level_part(parts, "core_index")) {
    core_header(index_);
    rows_ = static_cast<size_t>(std::max(table_range(index_, table_).count, 0));
}

formats::png::RgbaImage material_picture(const formats::ModelMesh::Image& image, const std::string& material, const std::string& textures) {
    if (image.embedded.empty())
        throw EditRefused(image.path.empty()
                              ? fmt::format("the material \"{}\" names none of the level's {} and has no image", material, textures)
                              : fmt::format("the material \"{}\" names the image \"{}\", which is not inside the model file: save it with the "
                                            "images packed in (a .glb), or name one of the level's {}",
                                            material, image.path, textures));
    auto picture = formats::png::read_rgba_within(image.embedded, formats::kNewTextureMaxSide);
    if (!picture.ok()) throw EditRefused(fmt::format("the material \"{}\"'s image: {}", material, picture.error().message));
    return std::move(*picture);
}

size_t TableImages::row_for(const formats::ModelMesh::Image& image, const std::string& material) {
    if (const auto known = by_file_.find(image.embedded); known != by_file_.end() && !image.embedded.empty()) return known->second;
    const auto picture = material_picture(image, material, name_ + " textures");
    if (core_.empty()) {
        core_ = level_part(parts_, "core_data");
        gs_ = level_part(parts_, "gs_ram");
    }

    // A row showing the same pixels is reused (rows whose bytes lie outside the buffers are skipped).
    const formats::LevelCoreHeader header = core_header(index_);
    const auto entries = formats::parse_texture_table(index_, table_range(index_, table_));
    if (entries.ok())
        for (size_t row = 0; row < entries->size(); ++row) {
            const formats::TextureEntry& t = (*entries)[row];
            if (static_cast<uint32_t>(t.width) != picture.width || static_cast<uint32_t>(t.height) != picture.height ||
                !formats::texture_problem(t, header.textures_base_offset, core_.size(), gs_.size()).empty())
                continue;
            const auto shown = formats::indexed_texture_rgba(
                picture.width, picture.height,
                formats::ByteSpan(core_).subspan(static_cast<uint64_t>(int64_t{header.textures_base_offset} + t.data_offset),
                                                 uint64_t{picture.width} * picture.height),
                formats::ByteSpan(gs_).subspan(static_cast<uint64_t>(t.palette) * formats::kPaletteUnit, formats::kPaletteBytes));
            if (shown.rgba == picture.rgba) {
                ++reused_;
                return by_file_[image.embedded] = row;
            }
        }

    const formats::IndexedPicture coded = formats::encode_indexed(picture, {}, formats::Palette{}, true);
    formats::NewTextureRow row{picture.width, picture.height, coded.texels, formats::ps2_palette_bytes(coded.palette)};
    const auto added = formats::add_texture_row(index_, core_, gs_, table_, row);
    if (!added.ok()) throw EditRefused(fmt::format("the material \"{}\"'s image cannot be added to the {} textures: {}", material, name_, added.error().message));
    ++added_;
    rows_ = *added + 1;
    return by_file_[image.embedded] = *added;
}

void TableImages::commit() {
    if (added_ == 0) return;
    parts_.replace("core_index", std::move(index_));
    parts_.replace("core_data", std::move(core_));
    parts_.replace("gs_ram", std::move(gs_));
}

std::string TableImages::status() const {
    if (reused_ + added_ == 0) return {};
    return fmt::format("{} image{} from the file: {} the same as a {} texture, {} added to the table (now {} rows)", reused_ + added_,
                       reused_ + added_ == 1 ? "" : "s", reused_, name_, added_, rows_);
}

}  // namespace gcfs::edit
