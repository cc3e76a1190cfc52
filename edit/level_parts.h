// One level container's parts as edits see them (formats.md §3.1, §4.1):
// each decoded on first use from the container's bytes, replaced by edits in
// their order, and encoded again once, into a container that keeps every
// part no edit replaced byte for byte (formats/disc/level_rewrite.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "edit/containers.h"
#include "formats/common/bytes.h"
#include "formats/disc/data_lump.h"
#include "formats/disc/level_wad.h"

namespace gcfs::edit {

class LevelParts final : public ContainerParts {
public:
    // `container` is the LEVEL WAD as recorded, whole sectors.
    explicit LevelParts(formats::Bytes container);

    // The decoded content of a part: a WAD-LZ one ("core_data", "gameplay",
    // "hud_bank_N", "transition_textures") decompressed, a raw data-lump
    // section ("gs_ram", "core_index", ...) as stored. The current content
    // once an edit replaced it.
    formats::Result<formats::Bytes> content(const std::string& part);
    void replace(const std::string& part, formats::Bytes content);
    bool changed() const override { return !replaced_.empty(); }

    // The container with each replaced part encoded again (a WAD-LZ part
    // compressed under its old tag, only around what changed, its other
    // packets kept; core_data's two sizes in the core header, formats.md
    // §6.1 0x88 and 0x8C, follow it).
    formats::Result<formats::Bytes> rebuild() override;
    std::unique_ptr<ContainerParts> clone() const override { return std::make_unique<LevelParts>(*this); }

    // Whether `part` names a WAD-LZ stream of the container (§4.1, §3.1).
    static bool compressed(const std::string& part);

private:
    formats::Result<formats::Bytes> stored(const std::string& part) const;  // the recorded bytes of a part
    // A part decoded as recorded, edits or not: held here, decoded once.
    formats::Result<const formats::Bytes*> recorded(const std::string& part);

    formats::Bytes container_;
    std::map<std::string, formats::Bytes> decoded_;   // parts read so far, as recorded
    std::map<std::string, formats::Bytes> replaced_;  // parts edits replaced
};

}  // namespace gcfs::edit
