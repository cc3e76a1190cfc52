// Two mods that changed one file, merged at the finest grain the file has
// (issue 57): a table's cells, a help file's messages, a subtitle file's
// cues, settings.json's keys. Each side is a whole file as a mod folder
// stores it, saved over `base` (the file as the image shows it); a part
// both changed, to different values, is a conflict, and the later side
// (`theirs`) wins it. Any other file (a texture, a sound, a stream) is one
// item: two mods that changed it conflict as a whole.
//
// Pure text in, text out: the result is encoded by the file's own edit
// decoder (edit/edit_kinds.h), which refuses what does not encode.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gcfs::edit::mods {

enum class Grain {
    whole,          // one item: the later file wins
    table_cells,    // LEVELnn/gameplay/*.csv: rows by their key cells (or uid), then cells
    help_messages,  // LEVELnn/gameplay/help/<language>.txt: lines by message id
    subtitle_cues,  // global/mpeg/NN.<lang>.srt: cues by their times or text
    settings_keys,  // LEVELnn/gameplay/settings.json: top-level keys
};
Grain grain_of(const std::string& mount_path);

struct Merged {
    std::string text;
    std::vector<std::string> conflicts;  // each part both sides changed: "row index 3 (uid 1000), column bolts"
};

// Throws std::runtime_error when a side does not parse as its grain says
// (the caller then takes `theirs` whole, as for Grain::whole).
Merged merge3(Grain grain, std::string_view base, std::string_view current, std::string_view theirs);

// One part of a file at its grain: `key` names it across versions of the
// file; `fields` are what a version may change.
struct Part {
    std::string key;
    std::vector<std::string> fields;
};
struct KeyedParts {
    std::vector<std::string> field_names;
    std::vector<Part> base, other;  // a part of `other` with no base key is an added one
    std::function<std::string(const std::string&)> describe;  // a key in words: "row index 3 (uid 1000)"
};
// `base` and `other` cut into parts as merge3 cuts them; `by_uid` keys a
// table's rows by their uid where it has one (a file as the mount reads it
// back, whose rows are numbered again), not by their index. Throws as merge3.
KeyedParts keyed_parts(Grain grain, std::string_view base, std::string_view other, bool by_uid);

}  // namespace gcfs::edit::mods
