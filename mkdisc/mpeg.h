// The MPEG WAD the builder writes (formats-globals.md §4, §11): cutscene
// slots with a video, with subtitles in five languages (bytes >= 0x80, an
// empty string, a two-line cue), with both, and the last slot used. Videos
// are small MPEG-2 program streams (formats/mpeg/pss.h): flat-coloured
// macroblocks, a lit block moving one macroblock a frame.
#pragma once

#include <vector>

#include "formats/common/bytes.h"
#include "mkdisc/level_builder.h"

namespace gcfs::mkdisc {

formats::Bytes mpeg_wad(const std::vector<Damage>& damage);

}  // namespace gcfs::mkdisc
