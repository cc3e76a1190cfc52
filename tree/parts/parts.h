// Each subsystem adds its part of a level folder through one unit here, so a
// new subsystem adds a unit (and a line in kLevelParts) instead of growing
// tree_builder.cpp. A part checks what it needs and adds nothing without it.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "tree/level/level_folder.h"

namespace gcfs::tree::parts {

void classes(LevelFolder& folder);    // classes/: the core's class and texture tables (formats.md 6.3)
void textures(LevelFolder& folder);   // textures/: texture tables as PNG (6.3)
void particles(LevelFolder& folder);  // particles/ and particles.csv (formats-globals.md 13); after textures: shares its texel region
void core_blocks(LevelFolder& folder);  // sound_remap.bin/.csv, ratchet_seqs/ (formats-globals.md 13)
void overlay(LevelFolder& folder);    // overlay.elf: the level's code overlay (formats-globals.md 8)
void transition(LevelFolder& folder); // transition/: the transition textures as PNG (formats-globals.md 5)
void regions(LevelFolder& folder);    // core/: the core's regions, raw (6.2)
void geometry(LevelFolder& folder);   // collision.obj; occlusion and sky for info.json (8)
void tfrag(LevelFolder& folder);      // tfrag/ (7)
void sky(LevelFolder& folder);        // sky/ (formats-tie-sky.md Part B)
void gameplay(LevelFolder& folder);   // gameplay/ (formats-gameplay.md)
void mobies(LevelFolder& folder);     // mobies/ (formats-moby.md)
void ties(LevelFolder& folder);       // ties/ (formats-tie-sky.md Part A)
void shrubs(LevelFolder& folder);     // shrubs/ (formats-shrub.md)
void audio(LevelFolder& folder);      // audio/: the level AUDIO WAD's sounds as .vag and .wav (formats-globals.md 3)
void scene(LevelFolder& folder);      // level.glb and preview.png: every part above in one scene (last: it reads them)

// The files textures/ lists, by name ("moby_003.png"), for the parts that embed them (after textures).
std::map<std::string, std::shared_ptr<const Source>> texture_files(LevelFolder& folder);

using Part = void (*)(LevelFolder&);
inline constexpr Part kLevelParts[] = {classes, textures, particles, core_blocks, overlay, transition, regions, geometry, sky, tfrag, mobies, ties, shrubs, gameplay, audio, scene};

}  // namespace gcfs::tree::parts
