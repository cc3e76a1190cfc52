// A VCDIFF delta (RFC 3284) from one file to another: what `xdelta3 -d -s
// SOURCE PATCH OUT` turns back into the target with no gcfs on the player's
// machine (gcfs pack --vcdiff). Debian ships no VCDIFF library (xdelta3 and
// open-vcdiff only as tools), so the RFC's format is written here: no
// secondary compressor, no application header, the default code table
// (RFC 3284 §5.6), ADD and COPY in mode VCD_SELF only.
//
// Target windows of kWindowBytes; each window's source segment is the source
// around where the caller says that window's bytes came from (`origin`), so
// an unchanged range is one COPY, and bytes that moved a little (a
// recompressed stream after a changed part) are found by a rolling hash
// over that segment. A patch is about the changed bytes, not the file.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::vcdiff {

inline constexpr uint64_t kWindowBytes = 1 << 20;
inline constexpr uint64_t kSearchMargin = 2 << 20;  // source bytes searched either side of a window's origin

struct Files {
    uint64_t source_size = 0, target_size = 0;
    // Fill `out` with the bytes at `offset` (always inside the file); false on a read error.
    std::function<bool(uint64_t offset, std::span<uint8_t> out)> read_source, read_target;
    // Where the target's byte at `offset` is expected in the source (its
    // container's old place); the same offset when nothing moved.
    std::function<uint64_t(uint64_t offset)> origin;
    // The target offsets where `origin` jumps (a moved container's ends), in
    // order: a window ends at each, so that all of it has one origin.
    std::vector<uint64_t> breaks;
    // Takes each piece of the delta in order; false on a write error.
    std::function<bool(ByteSpan piece)> write;
};

struct Written {
    uint64_t bytes = 0;      // of the delta
    uint64_t windows = 0;
    uint64_t added = 0;      // target bytes carried as ADD (not found in the source)
};

// Throws std::runtime_error when a read or write fails.
Written write_delta(const Files& files);

}  // namespace gcfs::formats::vcdiff
