// Deliberate damage for the corrupt-disc corpus: each kind breaks one named
// invariant of formats.md inside otherwise valid data, so a reader can be
// shown to report exactly that damage and still read everything else.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/disc/level_wad.h"

namespace gcfs::mkdisc {

enum class Damage {
    tfrag_count,         // patch 1's header vert_count is one more than its lists hold (§7.2)
    vif_desync,          // patch 2's common list has an unknown VIF command where its vi1 STROW was (§7.4)
    core_lookback,       // the core stream opens with a match reaching before the output's start (§5.2)
    gameplay_double_literal,  // a literal packet of the gameplay stream is followed by a flag < 0x10 (§5.2)
    gameplay_size,       // the gameplay stream declares more bytes than its extent holds (§5.1)
    extents_in_bytes,    // the level header's extent sizes are byte counts, not sectors (the seed's unit error, §3.1)
    extents_overlap,     // the gameplay extent starts where the data extent does (§3.1)
    toc_past_end,        // the TOC's header copy puts the level file past the image's end (§2.3)
    truncated,           // the image ends halfway through the level's file
    collision_size,      // the first collision octant's x entry declares one qword more than its counts need (§8.3)
    sky_shells,          // the sky header declares 9 shells, one more than a sky may have (§8.2)
    sky_face_index,      // a sky face names a vertex past its cluster (formats-tie-sky.md B.5)
    tie_strip_slot,      // tie class 500's first strip tag sits at GS slot 255, where the walk never arrives (A.5, A.8)
    shrub_packet_size,   // shrub class 700's first packet declares a size that overruns the class (formats-shrub.md §2 item 6)
    moby_cache_index,    // moby class 100's first strip names a VU1 vertex past its packet's vertices (formats-moby.md §14)
    moby_packet_count,   // moby class 100 declares more high-LOD packets than its packet table holds before the class ends (§2, §14)
    moby_joint_parent,   // moby class 101's (the worm's) third joint names itself as its parent in common_trans (§11)
    gameplay_moby_count,   // the moby block's count runs past the block (formats-gameplay.md §3.1, §6.2)
    gameplay_help_offset,  // a French help message's string offset lies outside its block (§3.4, §6.11)
    gameplay_path_count,   // the first path's point count overruns the path data (§3.6, §6.13)
    vag_size,        // global AUDIO vendor[1]'s VAG declares more data than its sector span holds (formats-globals.md §1)
    vag_predictor,   // the level AUDIO's sfx_001 has a frame with predictor 5 (§1: 0…4)
    audio_extent,    // global AUDIO help_french[5] starts past the WAD's end (§2)
    subtitle_offset, // MPEG slot 0's second subtitle has a German offset past its blob (§4)
    video_extent,    // MPEG slot 1's video range runs past the WAD's end (§4)
    pif_magic,       // BONUS sketchbook[0]'s PIF says "PIF2", not "2FIP" (formats-globals.md §5)
    pif_size,        // BONUS character_sketches[0]'s PIF claims twice its height in pixels it does not hold (§5)
    texlist_count,   // ARMOR armor_0's texture list counts 0x800 textures, more offsets than the list holds (§5)
    armor_packets,   // ARMOR armor_0's mesh-only class declares more high-LOD packets than its table holds (§6)
    exe_block,       // MISC frontbin's third block claims more bytes than the executable holds (§8)
    particle_frame_row,  // particle 10's third frame names part_textures row 200, past the table (formats-globals.md §13)
    sound_remap_end,     // the sound remap's last element runs its block past core_index's end (§13)
    stash_row_unlisted,  // moby class 100 names the stashed texture row without being on the stash list (formats-moby.md §10.2)
};

struct DamageSpec {
    Damage kind;
    int level = 1;  // table index of the level to damage
};

// Whether a build was asked for this kind of damage.
inline bool wants(const std::vector<Damage>& damage, Damage kind) { return std::find(damage.begin(), damage.end(), kind) != damage.end(); }

// "tfrag-count" or "tfrag-count:3" (level 3); nullopt for an unknown name.
std::optional<DamageSpec> parse_damage(const std::string& text);
std::vector<std::string> damage_names();

// Each applies the kinds that belong to its stage of the build and ignores the rest.
void damage_tfrags(formats::Bytes& block, Damage kind);
void damage_collision(formats::Bytes& block, Damage kind);
void damage_sky(formats::Bytes& block, Damage kind);
void damage_tie_class(formats::Bytes& tie, Damage kind);
void damage_shrub_class(formats::Bytes& shrub, Damage kind);
void damage_moby_class(formats::Bytes& moby, int32_t o_class, Damage kind);
void damage_core_stream(formats::Bytes& stream, Damage kind);
void damage_particle_defs(formats::Bytes& defs, Damage kind);  // the block as write_particle_defs made it
void damage_sound_remap(formats::Bytes& remap, Damage kind);   // the block as write_sound_remap made it
void damage_gameplay(formats::Bytes& gameplay, Damage kind);  // the decompressed file
void damage_gameplay_stream(formats::Bytes& stream, Damage kind);
void damage_level_header(formats::LevelHeader& header, Damage kind);

}  // namespace gcfs::mkdisc
