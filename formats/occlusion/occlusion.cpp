// Occlusion grid reader: formats.md §8.1.
#include "formats/occlusion/occlusion.h"

#include <fmt/format.h>

namespace gcfs::formats {
namespace {

class GridReader {
public:
    explicit GridReader(ByteSpan block) : block_(block) {}

    OcclusionSummary read() {
        s_.masks_offset = s32_at(block_, 0);
        if (s_.masks_offset < 8 || static_cast<uint64_t>(s_.masks_offset) > block_.size())
            fail(Errc::out_of_range, 0, fmt::format("masks offset {} outside the {}-byte block", s_.masks_offset, block_.size()));
        nodes_end_ = static_cast<uint64_t>(s_.masks_offset);
        s_.z_coord = u16_at(block_, 4);
        s_.z_count = u16_at(block_, 6);
        for (uint64_t z : children(8, s_.z_count, 6)) {
            ++s_.z_nodes;
            for (uint64_t y : children(z + 4, u16_at(block_, z + 2), z + 2)) {
                ++s_.y_nodes;
                read_x_node(y);
            }
        }
        const uint64_t room = (block_.size() - nodes_end_) / kOcclusionMaskSize;
        if (s_.masks > room)
            fail(Errc::out_of_range, 0,
                 fmt::format("mask index {} needs {} bytes from 0x{:x}; the block ends at 0x{:x}", s_.masks - 1,
                             s_.masks * kOcclusionMaskSize, nodes_end_, block_.size()));
        return s_;
    }

private:
    // Non-zero node offsets of a u16 array (units of 4 bytes, §8.1), each
    // checked to leave room for its 4-byte node head before the masks.
    std::vector<uint64_t> children(uint64_t at, uint16_t count, uint64_t count_at) {
        in_nodes(at, 2ull * count, count_at);
        std::vector<uint64_t> out;
        for (uint16_t i = 0; i < count; ++i) {
            const uint64_t node = 4ull * u16_at(block_, at + 2ull * i);
            if (node == 0) continue;
            in_nodes(node, 4, at + 2ull * i);
            out.push_back(node);
        }
        return out;
    }

    void read_x_node(uint64_t node) {
        const uint16_t count = u16_at(block_, node + 2);
        in_nodes(node + 4, 2ull * count, node + 2);
        // Honest entries are distinct 2-byte slots; shared nodes must not
        // multiply the work beyond what the node area holds.
        entries_ += count;
        if (entries_ > nodes_end_ / 2) fail(Errc::too_large, node, "the grid reaches more entries than its nodes hold");
        for (uint16_t i = 0; i < count; ++i) {
            const uint16_t mask = u16_at(block_, node + 4 + 2ull * i);
            if (mask == 0xFFFF) {  // §8.1: no mask
                ++s_.empty_octants;
                continue;
            }
            ++s_.octants;
            s_.masks = std::max<uint64_t>(s_.masks, mask + 1ull);
        }
    }

    void in_nodes(uint64_t at, uint64_t length, uint64_t named_at) {
        if (at > nodes_end_ || length > nodes_end_ - at)
            fail(Errc::out_of_range, named_at,
                 fmt::format("node bytes [0x{:x}, 0x{:x}) pass the masks at 0x{:x}", at, at + length, nodes_end_));
    }

    ByteSpan block_;
    uint64_t nodes_end_ = 0;
    uint64_t entries_ = 0;
    OcclusionSummary s_;
};

}  // namespace

Result<OcclusionSummary> parse_occlusion(ByteSpan block) {
    return capture([&] { return GridReader(block).read(); });
}

}  // namespace gcfs::formats

namespace gcfs::formats {

Result<Bytes> with_bits_everywhere(ByteSpan grid, const std::set<int32_t>& show, const std::set<int32_t>& clear) {
    auto summary = parse_occlusion(grid);
    if (!summary.ok()) return summary.error();
    for (const auto* bits : {&show, &clear})
        for (int32_t b : *bits)
            if (b < 0 || static_cast<uint64_t>(b) >= kOcclusionMaskSize * 8)
                return FormatError{Errc::out_of_range, 0, fmt::format("visibility bit {} is outside a {}-byte mask", b, kOcclusionMaskSize)};
    Bytes out(grid.begin(), grid.end());
    for (uint64_t m = 0; m < summary->masks; ++m) {
        uint8_t* mask = out.data() + static_cast<uint64_t>(summary->masks_offset) + m * kOcclusionMaskSize;
        for (int32_t b : clear) mask[b >> 3] &= static_cast<uint8_t>(~(1u << (b & 7)));
        for (int32_t b : show) mask[b >> 3] |= static_cast<uint8_t>(1u << (b & 7));
    }
    return out;
}

}  // namespace gcfs::formats
