// Each global WAD that gcfs opens adds its folder under global/ through one
// unit here (design.md: one tree unit per WAD kind), beside the raw .wad.
// A unit reads only its WAD's header when the folder is first listed; the
// items are read or decoded when their files are.
#pragma once

#include <string_view>

#include "tree/globals/global_folder.h"

namespace gcfs::tree::globals {

void audio(GlobalFolder& folder);  // global/audio/: vendor and help VAGs, as .vag and .wav (formats-globals.md §2)
void mpeg(GlobalFolder& folder);   // global/mpeg/: cutscenes as .pss, subtitles as SubRip (§4)
void armor(GlobalFolder& folder);  // global/armor/: armor sets and wrenches as OBJ and glb, textures as PNG (§6)
void bonus(GlobalFolder& folder);  // global/bonus/: the bonus gallery's images as PNG, the credits' parts (§7)
void misc(GlobalFolder& folder);   // global/misc/: debug font, IOP modules, the front end as ELF (§8)
void hud(GlobalFolder& folder);    // global/hud/: every range raw, decoded where its bytes prove the type (§9)

struct Unit {
    std::string_view wad;  // the TOC's name for the WAD kind (formats/disc/toc.h)
    void (*add)(GlobalFolder&);
};
inline constexpr Unit kGlobalUnits[] = {{"audio", audio}, {"mpeg", mpeg}, {"armor", armor}, {"bonus", bonus}, {"misc", misc}, {"hud", hud}};

}  // namespace gcfs::tree::globals
