// Shrub classes (formats-shrub.md): a level's plants and small props. A class
// is a 0x40-byte header, a packet table, VIF packets of three UNPACKs each
// (§1.4), an optional billboard record and a 24-entry normal table. Offsets
// inside are relative to the class start.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/export/class_mesh.h"

namespace gcfs::formats::shrub {

constexpr uint64_t kHeaderSize = 0x40;          // §1.2
constexpr uint64_t kPacketEntrySize = 8;        // §1.3 {offset, size}
constexpr uint64_t kNormalCount = 24;           // §1.9
constexpr uint64_t kNormalTableSize = 0xC0;
constexpr uint64_t kBillboardSize = 0x40;       // §1.11 (a)
constexpr uint64_t kTexturePrimitiveQwords = 4; // §1.5 ShrubTexturePrimitive
constexpr uint32_t kGifTagSlots = 1, kTextureSlots = 5, kVertexSlots = 3;  // §1.7 GS-offset walk
constexpr int kMinStoredVertices = 6;           // §1.6 padding
constexpr std::array<uint8_t, 4> kAdRegisters = {0x14, 0x08, 0x34, 0x06};  // §1.5 TEX1, CLAMP, MIPTBP1, TEX0
constexpr uint32_t kGifRegs = 0x412;            // §1.5 ST, RGBAQ, XYZF2

struct Vertex {
    int16_t x = 0, y = 0, z = 0;
    int16_t s = 0, t = 0, h = 0;  // 4.12; t's origin at the top (§1.6)
    uint8_t normal = 0;           // 0..23 into the class normal table
    bool operator==(const Vertex&) const = default;
};

struct Primitive {
    bool strip = true;  // PRIM type 4; false: a list (type 3)
    int texture = -1;   // class texture slot in effect (TEX0.data_lo, §1.10); -1 before any
    bool clamp_s = false, clamp_t = false;  // that texture record's CLAMP words (§1.5)
    std::vector<Vertex> vertices;
};

struct Billboard {
    float fade_distance = 0, width = 0, height = 0, z_ofs = 0;
    std::array<uint8_t, 0x30> ad{};  // the three A+D slots, kept raw (§1.11 (a))
};

struct Header {
    std::array<float, 4> bounding_sphere{};  // ÷ scale units (§1.6)
    float mip_distance = 0;
    int32_t billboard_offset = 0;
    float scale = 0;
    int16_t o_class = 0;
    int16_t packet_count = 0;
    int32_t normals_offset = 0;
};

struct ShrubClass {
    Header header;
    std::vector<Primitive> primitives;  // in draw order across packets
    std::vector<size_t> packet_starts;  // each packet's first primitive
    std::array<std::array<int16_t, 3>, kNormalCount> normals{};
    std::optional<Billboard> billboard;
    int stored_vertices = 0;  // Σ vertex_count over packets, padding included
    int gif_tags = 0, texture_changes = 0;
    std::vector<int> textures;  // class texture slots used, ascending
    uint64_t end = 0;           // normals_offset + 0xC0 (§1.1 self-contained extent)
};

// Decodes a class and checks §2 items 5-17 and 20: packet table and sizes,
// the VIF list (exactly 3 UNPACKs with the counts and addresses of items 8-9),
// GIF tags, the GS-offset walk, padding and the stop flag, normal indices,
// AD addresses, billboard and normal table placement, and positions that fit
// the OBJ columns. Error offsets are relative to the class start.
Result<ShrubClass> read_shrub_class(ByteSpan range);

// The class as Wrench's recover_shrub_class builds it (§1.8): vertices merged
// when position, texture coordinates and normal agree, triangles with two
// equal vertices dropped, each triangle turned to face its vertex normals.
// Positions are s16 × scale / 1024 in class space (§1.6).
ClassMesh shrub_mesh(const ShrubClass& cls);
// Raw triangles before the merge (strip n − 2, list n / 3), for shrubs.csv.
uint64_t raw_triangles(const ShrubClass& cls);

// ---- writer (§4) ----

struct PacketSpec {
    struct Strip {
        int texture = 0;  // class texture slot; a change emits a texture record
        bool clamp_s = false, clamp_t = false;
        std::vector<Vertex> vertices;
        bool list = false;  // PRIM type 3: the vertices are triangles, three by three (§1.5)
    };
    std::vector<Strip> strips;
};

struct ClassSpec {
    int16_t o_class = 0;
    float scale = 1;
    float mip_distance = 30;
    std::array<float, 4> bounding_sphere{};  // ÷ scale units
    std::vector<PacketSpec> packets;         // each within the limits of §1.7
    std::optional<Billboard> billboard;
    std::array<std::array<int16_t, 3>, kNormalCount> normals{};
};

// Wrench's layout byte for byte (§1.3-§1.6, §4): every packet opens with a
// texture record, padding to 6 vertices, the stop flag on vertex V − 4.
Bytes write_shrub_class(const ClassSpec& spec);
// Whether write_shrub_class takes `packet` (§1.7's GS and VU limits, whole lists, strips of 3 or more).
bool packet_fits(const PacketSpec& packet);
// §1.5: the 16-bit LOD K of a distance, as Wrench's builder computes it.
uint32_t lod_k(float distance);
// The 24 directions the builder always writes (§1.9): index 0 up, 23 down.
std::array<std::array<int16_t, 3>, kNormalCount> standard_normals();

}  // namespace gcfs::formats::shrub
