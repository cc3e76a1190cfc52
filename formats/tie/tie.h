// Tie classes (formats-tie-sky.md Part A): a level's instanced structures,
// three LODs of textured triangle strips rebuilt from each packet's GS-slot
// walk (A.5). The reader takes the class's bytes as far as the block-boundary
// rule of A.1 gives them; every offset inside is relative to the class start.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/export/class_mesh.h"

namespace gcfs::formats::tie {

constexpr uint64_t kHeaderSize = 0x80;        // A.2, GC layout
constexpr uint64_t kPacketHeaderSize = 0x10;  // A.3 TiePacketHeader
constexpr uint64_t kAdGifSize = 0x50;         // A.6: five 16-byte A+D entries
constexpr uint64_t kStripsAt = 0x2c;          // A.4: after ad_gif_dest, ad_gif_src and the unpack header
constexpr uint64_t kDinkySize = 0x10, kFatSize = 0x18;
constexpr int kLods = 3;
constexpr int kMaxBlocksPerPacket = 4;  // A.5 step 4.3: ad_gif_dest[3] is never consulted
constexpr uint32_t kAdGifSlots = 6, kStripTagSlots = 1, kVertexSlots = 3;  // A.5 GS-slot model
constexpr std::array<uint8_t, 5> kAdGifRegisters = {0x06, 0x14, 0x34, 0x08, 0x36};  // A.6 step 4

// A vertex as stored (dinky, or fat with its first three words dropped, A.4).
struct Vertex {
    int16_t x = 0, y = 0, z = 0;
    int16_t s = 0, t = 0;  // 4.12 fixed point, signed (A.5)
    uint16_t q = 0;        // carried, unused (A.4)
    bool operator==(const Vertex&) const = default;
};

struct Strip {
    int material = 0;      // class texture slot = ad-gif record index (A.6 steps 1-2)
    bool flip = false;     // rc34_winding_order != 0 (A.4)
    std::vector<Vertex> vertices;  // in GS order
};

struct Lod {
    int packets = 0;
    // Packets whose header names the colour-index and slot-step regions
    // (bytes 0xa-0xd non-zero, A.3): [ext-RAC1] hints, unverified for GC,
    // so they are counted and not read or checked, as Wrench leaves them.
    int packets_with_rac1_regions = 0;
    int stored_dinky = 0, stored_fat = 0;
    std::vector<Strip> strips;
    std::array<int16_t, 4> declared{};  // header lods[i]: vert_count, tri_count, strip_count, pad (A.2)
    // Decoded totals in the words of `declared` (A.8 "Declared counts").
    int vertices() const;
    int triangles() const;
};

struct Header {
    std::array<int32_t, 3> packets{};
    std::array<uint8_t, 3> packet_count{};
    uint8_t texture_count = 0;
    float near_dist = 0, mid_dist = 0, far_dist = 0;
    int32_t ad_gif_ofs = 0;
    float scale = 0;
    int16_t o_class = 0;
    std::array<float, 4> bsphere{};
    std::array<std::array<int16_t, 4>, 3> lods{};
};

struct TieClass {
    Header header;
    std::array<Lod, kLods> lods;
    std::vector<int> materials;  // class texture slots used by any LOD, ascending
    uint64_t end = 0;            // one past the last byte the header's structures reach
    // Declared per-LOD totals that differ from the decode: reported, not
    // rejected, because A.8 marks that equation unverified for GC.
    std::vector<std::string> notes;
};

// Decodes a class and checks everything A.8 lists: bounds, the dinky count,
// the walk, strip vertex counts, shader counts, materials < texture_count
// (which Wrench misses) and positions that fit the OBJ column widths.
// Error offsets are relative to the class start.
Result<TieClass> read_tie_class(ByteSpan range);

// Class-space position of a stored vertex: s16 × scale / 1024 (A.5).
std::array<double, 3> position(const Vertex& v, float scale);
// (u, v) = (s, t) / 4096, unflipped (A.5).
std::array<double, 2> texcoord(const Vertex& v);
// A strip's triangles as vertex numbers within the strip, by the parity rule of A.5.
std::vector<std::array<uint32_t, 3>> strip_triangles(const Strip& strip);
// One LOD as a mesh: every strip's vertices in order (none merged, as Wrench
// exports them), triangles by the parity rule, degenerate ones kept (A.5).
ClassMesh lod_mesh(const TieClass& cls, int lod);
// Triangles with two equal positions, counted for ties.csv (A.5: Wrench keeps them).
uint64_t degenerate_triangles(const ClassMesh& mesh);

// ---- writer (A.10) ----

struct StripSpec {
    int material = 0;
    std::vector<Vertex> vertices;
    bool flip = false;  // rc34_winding_order = 1 (A.4): the reader's parity swaps; the caller orders the vertices to suit
};
struct PacketSpec {
    std::vector<StripSpec> strips;  // ≤ 4 materials in a row, GS slots < 256
    int fat_vertices = 0;           // the last n stored vertices are written fat (A.4)
    bool reverse_dinky = false;     // store dinky vertices out of GS order (A.5 step 2)
    // A.10 item 11: after the vertex region, a colour-index region and a
    // slot-step table as [ext-RAC1] describes them (A.3 bytes 0xa-0xd). Their
    // element sizes are unpublished: the writer gives each stored vertex one
    // byte in each, its own choice.
    bool rac1_regions = false;
};
struct ClassSpec {
    int16_t o_class = 0;
    float scale = 1;
    int texture_count = 1;
    float near_dist = 0, mid_dist = 0, far_dist = 0;
    std::array<float, 4> bsphere{};
    std::array<std::vector<PacketSpec>, kLods> lods;
};

// A class laid out as A.9 shows: header, each LOD's table followed by its
// packets, the ad-gif table; padded to 0x40 (A.1). A vertex repeated at the
// head of the next strip is stored once with a second GS slot (A.5 step 1).
Bytes write_tie_class(const ClassSpec& spec);
// Whether write_tie_class takes `packet` (its GS slots, materials and region offsets within A.8's ranges).
bool packet_fits(const PacketSpec& packet);

}  // namespace gcfs::formats::tie
