// The images a sky model's materials carry, as the sky block's own texture
// defs (formats-tie-sky.md B.2): an image whose pixels equal a def's (its
// sky/sky_NNN.png) reuses it; any other becomes a new def with a palette
// of its own, coded as texture edits code pictures
// (formats/core/texture_encode.h). The sides are held to the bound of a new
// level texture (formats/core/texture_rows.h); B.2 gives none of its own.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "formats/import/model_read.h"
#include "formats/sky/sky.h"

namespace gcfs::edit {

class SkyImages {
public:
    explicit SkyImages(formats::SkyContent& sky) : sky_(sky) {}
    // The def for material `material`'s image; throws EditRefused naming it.
    uint8_t def_for(const formats::ModelMesh::Image& image, const std::string& material);
    // "" when no image was met; else how many were reused and added.
    std::string status() const;

private:
    formats::SkyContent& sky_;
    size_t reused_ = 0, added_ = 0;
    std::map<formats::Bytes, uint8_t> by_file_;
};

}  // namespace gcfs::edit
