// The checks an edited level is held to when its edits changed only texels
// and palettes (edit/level_parts.h only_texels_differ). No check a decoder
// makes at index depth reads those bytes: a texture's texels are indexes
// and its palette colours, any byte a valid one, and every table that
// places them lies outside them (formats.md §6.2-6.3; tests/unit/
// test_texel_checks.cpp flips them all on a built disc and finds every
// verdict as it was). So each decoder check is the base level's, carried;
// the scan's checks are the new generation's (the container's layout moved);
// and core_data is decoded from the new container, at the size its core
// header declares, and must be the bytes the edits made. A texture save
// costs one decode of the core instead of every decoder's index.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "tree/verify.h"

namespace gcfs::edit {

// The failing checks by name, as failing_checks (edit/edited_disc.h) gives
// them: `base_decoders` is tree::decoder_checks of the level on the disc
// the edits were made over; `next` the new generation, `container` its
// level container and `core` the core_data the edits made. `scratch` takes
// the decode (its room is used again: a save does not map 28 MB afresh).
std::map<std::string, std::string> texel_edit_failing_checks(const std::vector<tree::Check>& base_decoders, tree::Disc& next, size_t level,
                                                             formats::ByteSpan container, formats::ByteSpan core, formats::Bytes& scratch);

}  // namespace gcfs::edit
