// One moby packet (formats-moby.md §5-§9): its VIF list and vertex table,
// decoded against the state a packet list carries (texture, vertex cache,
// VU0 matrix slots, §7.5). Internal to formats/moby.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "formats/moby/moby.h"

namespace gcfs::formats::moby {

// What carries from packet to packet within one list (§7.5).
struct ListState {
    int texture = 0;  // Wrench starts each list with slot 0
    std::array<std::optional<Vertex>, kCacheSlots> cache{};
    // VU0 slots (index = address / 4) and the matrix each holds (§8.7).
    std::array<std::optional<Skin>, 64> slots{};
    bool animated = false;  // a pre-loop joint 0 is a joint, not the identity (§8.7)
    uint32_t joints = 0;    // the skeleton's joints, when there is one
    std::optional<FormatError> rig_error;  // the first transfer of a joint past them
};

struct PacketEntry {
    uint64_t at = 0;  // of the entry, for errors
    uint32_t vif_list_offset = 0;
    uint16_t vif_list_qwords = 0, texture_unpack_offset = 0;
    uint32_t vertex_offset = 0;
    uint8_t vertex_qwords = 0, unknown_d = 0, unknown_e = 0, transfer_vertices = 0;
};

PacketEntry read_packet_entry(ByteSpan cls, uint64_t at);

struct PacketResult {
    int ad_gifs = 0;
    std::vector<int> ad_gif_textures;  // TEX0 data_lo of each block, in order
    uint64_t ad_gif_payload = 0;       // class offset of the ad-gif payload (when ad_gifs > 0)
};

// A regular packet (§6.2): appends its VU1 vertices and kicked triangles to `lod`.
PacketResult read_regular_packet(ByteSpan cls, const PacketEntry& entry, bool rac1_layout, ListState& state, Lod& lod);
// A metal packet (§9): checked and counted; returns its vertex count.
int read_metal_packet(ByteSpan cls, const PacketEntry& entry, PacketResult& result);

}  // namespace gcfs::formats::moby
