// The images a model's materials carry, as rows of one of the level's
// texture tables: an image whose pixels equal a row's (its PNG in textures/)
// reuses that row; any other is coded as a texture edit codes a picture with
// a palette of its own (formats/core/texture_encode.h: its colours, or
// libimagequant's 256 when it has more) and added to the table
// (formats/core/texture_rows.h). The images are read from the model file
// itself (a .glb, a glTF data URI), never from a path it names.
#pragma once

#include <map>
#include <string>

#include "edit/level_parts.h"
#include "formats/core/texture_rows.h"
#include "formats/export/png_read.h"
#include "formats/import/model_read.h"

namespace gcfs::edit {

// A material's image packed in the model file, as pixels; throws
// EditRefused naming the material when it has none, names a file outside
// the model, is not a PNG or is larger than a new texture may be.
// `textures` names what the material could have named instead ("tfrag
// textures").
formats::png::RgbaImage material_picture(const formats::ModelMesh::Image& image, const std::string& material, const std::string& textures);

class TableImages {
public:
    // `name` as textures/ names the table ("tfrag", "tie", ...).
    TableImages(LevelParts& parts, formats::TextureTable table, std::string name);

    // The row for material `material`'s image; throws EditRefused naming the
    // material when it has no image in the file, or one that cannot be a row.
    size_t row_for(const formats::ModelMesh::Image& image, const std::string& material);
    // The table's rows, the added ones included.
    size_t rows() const { return rows_; }
    // Writes the grown core_index, core_data and gs_ram into the parts when a row was added.
    void commit();
    // "" when no image was met; else how many were reused and added.
    std::string status() const;

private:
    LevelParts& parts_;
    formats::TextureTable table_;
    std::string name_;
    formats::Bytes index_, core_, gs_;
    size_t rows_ = 0;
    size_t reused_ = 0, added_ = 0;
    std::map<formats::Bytes, size_t> by_file_;  // image files met, by their bytes
};

}  // namespace gcfs::edit
