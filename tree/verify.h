// Whole-disc verification: every invariant of design.md on every level, the
// mount-time checks plus the ones that need decoding (core and gameplay
// streams, every tfrag patch's counts and index ranges, every gameplay block).
#pragma once

#include <string>
#include <vector>

#include "tree/disc_scan.h"
#include "tree/tree_builder.h"

namespace gcfs::tree {

struct LevelVerdict {
    std::string folder;
    std::string id;  // "?" when the header did not parse
    std::vector<Check> checks;
    uint64_t patches = 0;
    uint64_t rejected = 0;
    uint64_t vertices = 0;   // LOD 0, over good patches
    uint64_t triangles = 0;  // LOD 0, over good patches
    uint64_t mobies = 0, ties = 0, shrubs = 0;  // gameplay instances, when their block decoded
    bool ok() const;
};

// disc/, global/'s raw WADs or a folder of global/ that gcfs opens
// (global/audio, ...): every file read whole through its source, at the size
// stat gives; for disc/, also each problem of the ISO9660 tree.
struct FolderVerdict {
    std::string folder;  // "global/audio"
    uint64_t files = 0, bytes = 0;
    std::vector<Check> failures;  // one per file that did not read
    bool ok() const { return failures.empty(); }
};

struct DiscVerdict {
    std::vector<LevelVerdict> levels;
    std::vector<FolderVerdict> globals;
    bool ok() const;
};

// One level's checks. `indexes`: what every decoder's index checks (both
// streams decoded whole, the tfrag patches, the occlusion, sky and collision
// regions, every gameplay block with its class references and links and
// every gameplay file rendered, each class model's counts), as an edit is
// held to (edit/session.h); `decoders` also renders every class model, the
// sky and collision OBJs and both scenes; `every_file` also reads every file
// of the folder whole (gcfs verify). The level's folder is built first.
enum class LevelDepth { indexes, decoders, every_file };
LevelVerdict verify_level(const Disc& disc, size_t index, LevelDepth depth);
// The checks verify_level adds to the scan's (LevelScan::checks): those the
// decoders make, and at every_file the folder read whole. Appended to `v`.
void decoder_checks(const Disc& disc, size_t index, LevelDepth depth, LevelVerdict& v);
// The name of the check that core_data's stream decodes to the size its core
// header declares (formats.md §6.1 0x8C).
inline constexpr const char* kCoreDecodesCheck = "core_data decodes";

// Decodes everything the tree can decode, level by level, through the same
// sources a mount reads.
DiscVerdict verify_disc(const Disc& disc);

// The verdict as a table, one row per level, then totals and each failure.
std::string render_verdict(const DiscVerdict& verdict);

// Every check of every level, one line each: "LEVEL00 ok     name: detail".
std::string render_checks(const DiscVerdict& verdict);

}  // namespace gcfs::tree
