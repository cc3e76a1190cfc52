// Ratchet's sequences (formats-globals.md §13, formats.md §6.1 0x78): a table
// of 256 s32 offsets into the decompressed core in core_index, 0 = none. Each
// sequence is a block of DAT ending at the next block boundary (formats.md
// §6.2). What a block holds is not published: gcfs serves each raw.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/core/level_core.h"

namespace gcfs::formats {

struct RatchetSeq {
    int slot = 0;
    CoreRegion extent;  // in DAT; empty when the offset lies outside it
};

// The table at `table_offset` (it must lie whole in core_index) and each
// non-zero entry's extent by the block-boundary rule; an entry outside DAT
// (negative, or at or past its end) fails the table.
Result<std::vector<RatchetSeq>> parse_ratchet_seqs(ByteSpan core_index, int32_t table_offset, const std::set<uint64_t>& boundaries,
                                                   uint64_t dat_size);

}  // namespace gcfs::formats
