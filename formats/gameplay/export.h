// The files of a level's gameplay/ folder (formats-gameplay.md §3), rendered
// from a decoded Gameplay: CSV tables, settings.json, paths and volumes as
// OBJ in terrain.obj's world units and axes, help text, raw pvars.
#pragma once

#include <string>
#include <vector>

#include "formats/gameplay/gameplay.h"

namespace gcfs::formats::gameplay {

struct ExportFile {
    std::string name;     // relative to gameplay/: "mobies.csv", "help/french.txt", "pvars/moby_7.bin"
    std::string content;  // empty with `error` set when a block it is made from failed
    std::string error;
};

// The files whose names do not depend on the content, in this order.
extern const std::vector<std::string> kFixedFiles;

// Every file: the fixed ones, then help/<language>.txt for each language
// slot that is set, then pvars/moby_<uid>.bin for each moby with pvars.
std::vector<ExportFile> export_gameplay(const Gameplay& g);

// §3.13: each moby with pvars (pvar_index >= 0), in moby order, and the
// name of its file: pvars/moby_<uid>.bin, or pvars/moby_<uid>-<index>.bin
// for a uid met before.
std::vector<std::pair<size_t, std::string>> pvar_files(const RecordTable& mobies);

// The content export_gameplay gives the file `name` ("" when it has none):
// what the mount shows, which an edit of that file is read against.
std::string shown_file(const Gameplay& g, std::string_view name);

// §3.4: help bytes as UTF-8 text, decoded as the subtitles are
// (formats/common/game_text.h: ASCII, then Windows-1252), so one search finds
// both. '\' is written "\\", and a byte that shows no character (a control
// byte, 0x7F, an undefined one) "\xNN": nothing is dropped and the bytes
// can be recovered.
std::string help_text(ByteSpan bytes);

}  // namespace gcfs::formats::gameplay
