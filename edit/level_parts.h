// One level container's parts as edits see them (formats.md §3.1, §4.1):
// each decoded on first use from the container's bytes, replaced by edits in
// their order, and encoded again once, into a container that keeps every
// part no edit replaced byte for byte (formats/disc/level_rewrite.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "edit/containers.h"
#include "edit/edit_refused.h"
#include "formats/common/bytes.h"
#include "formats/core/level_core.h"
#include "formats/disc/data_lump.h"
#include "formats/disc/level_wad.h"
#include "formats/wad_lz/wad_lz.h"

namespace gcfs::edit {

class LevelParts final : public ContainerParts {
public:
    // `container` is the LEVEL WAD as recorded, whole sectors.
    explicit LevelParts(formats::Bytes container);
    // A clone shares what its source decoded of the recorded container (and
    // what either decodes later): an edit's replay starts from a level's
    // parts decoded once, not from its bytes. Clones are not for two threads.

    // The decoded content of a part: a WAD-LZ one ("core_data", "gameplay",
    // "hud_bank_N", "transition_textures") decompressed, a raw data-lump
    // section ("gs_ram", "core_index", ...) as stored. The current content
    // once an edit replaced it.
    formats::Result<formats::Bytes> content(const std::string& part);
    // The same content without a copy, valid while this is unchanged.
    formats::Result<formats::ByteSpan> view(const std::string& part);
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
    // The recorded bytes of `part` in `container` (a WAD-LZ part as its
    // stream, undecoded), as a view into it.
    static formats::Result<formats::ByteSpan> stored_in(formats::ByteSpan container, const std::string& part);
    // A WAD-LZ part of `container` decoded into `out` (core_data at the size
    // its core header declares, §6.1 0x8C): `out`'s room is used again.
    static formats::Result<uint64_t> decode_in(formats::ByteSpan container, const std::string& part, formats::Bytes& out);

    // Whether the parts edits replaced differ from the recorded ones only in
    // texels and palettes, each at its recorded size: core_data's bytes
    // inside `textures` (formats.md §6.2's textures region: texture data
    // alone, up to the next block or class) and gs_ram's bytes (palettes,
    // stashed texels, billboards: formats.md §6.3, formats-moby.md §10.2).
    // No check an edit is held to reads those bytes (edit/texel_checks.h).
    bool only_texels_differ(const formats::CoreRegion& textures);

private:
    // A part decoded as recorded, edits or not: held here, decoded once.
    formats::Result<const formats::Bytes*> recorded(const std::string& part);
    // Where a recorded WAD-LZ part's pads end blocks (wad_lz.h block_starts),
    // found once: a re-compression takes the stream up again there.
    const std::vector<formats::wad_lz::StepDecoder::Cursor>* block_starts(const std::string& part, formats::ByteSpan stream);

    // The recorded container and what was decoded of it, shared by clones;
    // a map's entries stay where they are, so pointers into it hold.
    struct Recorded {
        formats::Bytes container;
        std::map<std::string, formats::Bytes> decoded;  // parts read so far, as recorded
        std::map<std::string, std::optional<std::vector<formats::wad_lz::StepDecoder::Cursor>>> blocks;
    };
    std::shared_ptr<Recorded> recorded_;
    std::map<std::string, formats::Bytes> replaced_;  // parts edits replaced
};

// A level part's current content; throws EditRefused naming it when it does not decode.
formats::Bytes level_part(LevelParts& parts, const std::string& part);

}  // namespace gcfs::edit
