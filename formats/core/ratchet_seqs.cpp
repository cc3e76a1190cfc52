#include "formats/core/ratchet_seqs.h"

#include <fmt/format.h>

namespace gcfs::formats {

Result<std::vector<RatchetSeq>> parse_ratchet_seqs(ByteSpan idx, int32_t table_offset, const std::set<uint64_t>& boundaries,
                                                   uint64_t dat_size) {
    return capture([&] {
        const ByteSpan table = core_index_block(idx, table_offset, 0x78, "ratchet_seqs", 4 * kRatchetSeqSlots, "ratchet sequence table");
        const auto base = static_cast<uint64_t>(table_offset);
        std::vector<RatchetSeq> seqs;
        for (uint64_t i = 0; i < kRatchetSeqSlots; ++i) {
            const int32_t offset = s32_at(table, 4 * i);
            if (offset == 0) continue;
            if (offset < 0 || static_cast<uint64_t>(offset) >= dat_size)
                fail(Errc::out_of_range, base + 4 * i, fmt::format("sequence {} at {} outside the {}-byte core", i, offset, dat_size));
            seqs.push_back({static_cast<int>(i), class_extent(boundaries, offset, dat_size, fmt::format("seq_{:03d}", i))});
        }
        return seqs;
    });
}

}  // namespace gcfs::formats
