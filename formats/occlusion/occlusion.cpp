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

namespace gcfs::formats {

Result<OcclusionGrid> read_occlusion_grid(ByteSpan block) {
    auto summary = parse_occlusion(block);
    if (!summary.ok()) return summary.error();
    return capture([&] {
        // parse_occlusion has checked every node, entry and mask against the block.
        OcclusionGrid grid;
        const uint16_t z_coord = u16_at(block, 4), z_count = u16_at(block, 6);
        for (uint16_t i = 0; i < z_count; ++i) {
            const uint64_t z = 4ull * u16_at(block, 8 + 2ull * i);
            if (z == 0) continue;
            const uint16_t y_coord = u16_at(block, z), y_count = u16_at(block, z + 2);
            for (uint16_t j = 0; j < y_count; ++j) {
                const uint64_t y = 4ull * u16_at(block, z + 4 + 2ull * j);
                if (y == 0) continue;
                const uint16_t x_coord = u16_at(block, y), x_count = u16_at(block, y + 2);
                for (uint16_t k = 0; k < x_count; ++k) {
                    const uint16_t mask = u16_at(block, y + 4 + 2ull * k);
                    if (mask == 0xFFFF) continue;
                    grid.octants[{static_cast<uint16_t>(x_coord + k), static_cast<uint16_t>(y_coord + j), static_cast<uint16_t>(z_coord + i)}] = mask;
                }
            }
        }
        grid.masks.resize(summary->masks);
        for (uint64_t m = 0; m < summary->masks; ++m) {
            const ByteSpan mask = slice(block, static_cast<uint64_t>(summary->masks_offset) + m * kOcclusionMaskSize, kOcclusionMaskSize, "mask");
            std::copy(mask.begin(), mask.end(), grid.masks[m].begin());
        }
        return grid;
    });
}

Result<Bytes> write_occlusion_grid(const OcclusionGrid& grid) {
    return capture([&] {
        std::map<uint16_t, std::map<uint16_t, std::map<uint16_t, uint16_t>>> by_z;  // z -> y -> x -> mask
        for (const auto& [octant, mask] : grid.octants) {
            if (mask >= grid.masks.size()) fail(Errc::out_of_range, 0, fmt::format("an octant names mask {} of {}", mask, grid.masks.size()));
            by_z[octant[2]][octant[1]][octant[0]] = mask;
        }
        ByteWriter out;
        auto node_offset = [&](const char* what) {
            out.pad_to(4);
            if (out.size() / 4 > 0xFFFF) fail(Errc::too_large, out.size(), fmt::format("a {} node at byte 0x{:x} passes the u16 offset (x 4) that names it", what, out.size()));
            return static_cast<uint16_t>(out.size() / 4);
        };
        auto span = [](uint32_t first, uint32_t last, const char* what) {
            if (last - first + 1 > 0xFFFF) fail(Errc::too_large, 0, fmt::format("octants span {} {} coordinates; a node counts them in a u16", last - first + 1, what));
            return static_cast<uint16_t>(last - first + 1);
        };
        const uint16_t z_coord = by_z.empty() ? 0 : by_z.begin()->first;
        const uint16_t z_count = by_z.empty() ? 0 : span(z_coord, by_z.rbegin()->first, "z");
        out.s32(0);  // masks_offset, filled in below
        out.u16(z_coord);
        out.u16(z_count);
        out.zeros(2ull * z_count);
        std::map<uint16_t, uint64_t> z_nodes;  // z -> byte offset of its node
        for (const auto& [z, rows] : by_z) {
            const uint16_t at = node_offset("z");
            out.patch_u16(8 + 2ull * (z - z_coord), at);
            z_nodes[z] = 4ull * at;
            const uint16_t y_coord = rows.begin()->first, y_count = span(y_coord, rows.rbegin()->first, "y");
            out.u16(y_coord);
            out.u16(y_count);
            out.zeros(2ull * y_count);
        }
        for (const auto& [z, rows] : by_z) {
            const uint16_t y_coord = rows.begin()->first;
            for (const auto& [y, row] : rows) {
                const uint16_t at = node_offset("y");
                out.patch_u16(z_nodes[z] + 4 + 2ull * (y - y_coord), at);
                const uint16_t x_coord = row.begin()->first;
                const uint16_t x_count = span(x_coord, row.rbegin()->first, "x");
                out.u16(x_coord);
                out.u16(x_count);
                for (uint32_t k = 0; k < x_count; ++k) {
                    const auto it = row.find(static_cast<uint16_t>(x_coord + k));
                    out.u16(it == row.end() ? 0xFFFF : it->second);
                }
            }
        }
        out.pad_to(0x10);
        const uint64_t masks_offset = out.size();
        for (const auto& mask : grid.masks) out.append(ByteSpan(mask.data(), mask.size()));
        out.patch_u32(0, static_cast<uint32_t>(masks_offset));
        return std::move(out.bytes());
    });
}

}  // namespace gcfs::formats
