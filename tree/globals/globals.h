// Each global WAD that gcfs opens adds its folder under global/ through one
// unit here (design.md: one tree unit per WAD kind), beside the raw .wad.
// A unit reads only its WAD's header when the folder is first listed; the
// items are read or decoded when their files are.
#pragma once

#include <string_view>

#include "tree/global_folder.h"

namespace gcfs::tree::globals {

void audio(GlobalFolder& folder);  // global/audio/: vendor and help VAGs, as .vag and .wav (formats-globals.md §2)
void mpeg(GlobalFolder& folder);   // global/mpeg/: cutscenes as .pss, subtitles as SubRip (§4)

struct Unit {
    std::string_view wad;  // the TOC's name for the WAD kind (formats/disc/toc.h)
    void (*add)(GlobalFolder&);
};
inline constexpr Unit kGlobalUnits[] = {{"audio", audio}, {"mpeg", mpeg}};

}  // namespace gcfs::tree::globals
