// Which files of the mount can be written under -o edits, and how each one's
// bytes become its container's parts (edit/containers.h): a level's WAD-LZ
// streams as they are, textures through formats/core/texture_encode.h,
// gameplay tables and texts through formats/gameplay/import.h, sounds
// through formats/audio/wav_read.h and the PS-ADPCM encoder into an AUDIO WAD.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "edit/containers.h"
#include "edit/edit_refused.h"
#include "edit/level_parts.h"
#include "formats/common/bytes.h"
#include "tree/disc_scan.h"

namespace gcfs::edit {

// The container a mount path's edit rewrites, and the path inside its folder
// ("textures/tfrag_000.png" of LEVEL00, "vendor/005.wav" of global/audio);
// nullopt when gcfs encodes no file of that kind (the container's own tables
// decide whether the file exists).
struct EditTarget {
    ContainerKey key;
    std::string inside;
};
std::optional<EditTarget> edit_target(const tree::DiscScan& scan, const std::string& path);

// The container's parts for edits (a LevelParts, or a WadFile).
std::unique_ptr<ContainerParts> open_parts(ContainerKey key, formats::Bytes container);

// Encodes `content` as the file `target` into `parts`; returns the edit's
// status (how it was encoded) or throws EditRefused.
std::string apply_edit(ContainerParts& parts, tree::Disc& original, const EditTarget& target, formats::ByteSpan content);

// A save of `target` as it is applied and stored: where a file shows one
// value twice (ties.csv, shrubs.csv's positions), the copy the save did not
// change follows the one it did, judged against `shown`, what the file
// showed before the save. Throws EditRefused when a save changed both.
// `shown` is asked only for the files that need it.
formats::Bytes prepare_edit(const EditTarget& target, formats::ByteSpan content, const std::function<formats::Bytes()>& shown);

// `content`, a save of `target` made over what `earlier` (the file's applied
// edit) showed, as an edit of the file without `earlier`, over `parts` (the
// container with every other edit): formats/gameplay/rebase.h for a
// level's gameplay tables; any other file as it is. Throws EditRefused.
formats::Bytes rebase_edit(ContainerParts& parts, tree::Disc& original, const EditTarget& target, formats::ByteSpan earlier,
                           formats::ByteSpan content);

// `content`, a save of `target` over what the mount showed (`shown`), with
// the cells edits made after its earlier one (`followers`, applied after it
// again) set put back as `earlier`, that edit's content, had them
// (formats/gameplay/rebase.h cells_as_earlier, settings_as_earlier).
// Throws EditRefused.
formats::Bytes before_followers(const EditTarget& target, formats::ByteSpan shown, formats::ByteSpan earlier, formats::ByteSpan content,
                                const std::vector<EditTarget>& followers);

// The content of `follower`, an edit made after `target`'s, once `target`'s
// file numbers its rows as `to` shows them instead of as `from` did: the
// numbers it names of those rows followed (formats/gameplay/rebase.h
// follow_rows). Empty when it stays as it is; EditRefused when it cannot
// follow (areas.csv's and settings.json's links, under a save that adds or
// removes paths or volumes).
std::optional<formats::Bytes> follow_edit(const EditTarget& target, formats::ByteSpan from, formats::ByteSpan to, const EditTarget& follower,
                                          formats::ByteSpan content);

// Whether a save of `target` is read as edits of other files
// (LEVELnn/level.glb: its instance tables) rather than applied itself.
bool translated(const EditTarget& target);

// A translated save: the files it edits (paths inside the container's
// folder, "gameplay/mobies.csv") with their new content, in the order they
// are applied, and what was read (formats/gltf/level_import.h).
struct Translation {
    std::vector<std::pair<std::string, formats::Bytes>> files;
    std::string status;
};
// `content`, a save of `target` over the level whose gameplay.bin the mount
// shows as `gameplay_bin`, as the edits it makes. Throws EditRefused.
Translation translate_edit(const EditTarget& target, formats::ByteSpan gameplay_bin, formats::ByteSpan content);

// The most bytes a draft of the writable file `path` may hold, from what it
// shows (`shown`): a PNG at most twice a 16-bit RGBA picture of the shown
// picture's size plus 4 MiB of other chunks; a WAV ten minutes of 48 kHz
// stereo 32-bit samples; a VAG ten minutes of 48 kHz PS-ADPCM; any other
// file four times its shown size plus 64 KiB (plus 32 MiB for a CSV or a
// text: rows up to the formats' limits); a scene eight times plus 64 MiB.
// Throws EditRefused when the shown file cannot be read.
uint64_t edit_size_limit(const std::string& path, const tree::Source& shown);

// Why a rewritten container would not read (its reader's checks on the new
// bytes), or "" when it reads. Level containers are checked by the session
// through the whole level scan.
std::string container_problem(ContainerKey key, formats::ByteSpan bytes);

}  // namespace gcfs::edit
