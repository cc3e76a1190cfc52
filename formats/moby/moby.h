// Moby classes (formats-moby.md): the game's actors. A class is a 0x48-byte
// header, a packet table of high-LOD, low-LOD and metal packets, and per
// packet a VIF list (texture coordinates, strip indices, ad-gif blocks) and a
// vertex table in the GC (R&C2) layout or the older R&C1 one (§1.4). Offsets
// inside are relative to the class start. Positions are the bind pose (§11).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/export/class_mesh.h"

namespace gcfs::formats::moby {

constexpr uint64_t kHeaderSize = 0x48;        // §2
constexpr uint64_t kPacketEntrySize = 0x10;   // §5
constexpr uint64_t kRecordSize = 0x10;        // §8.2
constexpr uint64_t kAdGifSize = 0x40;         // §10.1
constexpr uint32_t kCacheSlots = 512;         // §8.4: 9-bit cache IDs
constexpr uint8_t kMaxJoints = 0x6f;          // §14
constexpr uint8_t kDiscardSlot = 0xf4;        // §8.2: VU0 "don't keep"
constexpr uint32_t kIndexVuAddress = 0x12d;   // §6.2: where the index UNPACK lands in VU memory
constexpr int kBangleEntries = 15;            // §12: {high begin, count, low begin, count} × 15
constexpr uint64_t kBangleVectorsAt = 0x40;   // §12: then two MobyVec4 per bangle

struct Header {
    int32_t packet_table = 0;
    uint8_t high_count = 0, low_count = 0, metal_count = 0, metal_begin = 0, joint_count = 0;
    uint8_t rac1_layout_byte = 0;  // 0x0b: non-zero selects the R&C1 vertex tables (§1.4)
    uint8_t sequence_count = 0;
    uint8_t bangles = 0;  // 0x2c: the bangle block's offset in quadwords (§12), 0 for none
    int32_t skeleton = 0, common_trans = 0, joints = 0, gif_usage = 0;
    float scale = 0;
    std::array<float, 4> bounding_sphere{};
};

// The matrix a VU0 slot holds (§8.7), followed back to its joints
// (formats/export/class_mesh.h's VertexSkin).
using Skin = VertexSkin;

// One VU1 vertex as the index bytes address it: a table vertex, or a
// duplicate copied from the cache with its own texture coordinates (§8.5).
struct Vertex {
    int16_t x = 0, y = 0, z = 0;
    uint8_t azimuth = 0, elevation = 0;  // the normal (§8.5)
    int16_t s = 0, t = 0;                // 4.12 (§6.3)
    Skin skin;                           // the matrix its record uses (§8.7); a duplicate keeps its original's
};

struct Triangle {
    std::array<uint32_t, 3> v{};  // into Lod::vertices
    int texture = 0;              // class texture slot (§10.1); -1: none
};

struct Lod {
    int packets = 0;
    int two_way = 0, three_way = 0, main = 0, duplicates = 0, matrix_transfers = 0;
    std::vector<Vertex> vertices;  // every packet's VU1 vertices, in order
    std::vector<Triangle> triangles;
    int strips = 0;  // runs opened by two no-kick indices (§7.4)
};

struct Joint {
    int parent = -1;                 // common_trans parent_offset / 0x40; joint 0 is the root (§11)
    std::array<float, 3> translation{};
    std::array<float, 16> matrix{};  // the skeleton's Mat4 as stored (§11: its convention is unconfirmed)
};

// §12: one bangle of the class, its entry number of the 15 and its packets
// decoded as LODs of their own (each list's state reset, as for high and low).
struct Bangle {
    int entry = 0;
    Lod high, low;
    std::array<int16_t, 8> vectors{};  // two MobyVec4, meaning unknown
};

// §4: the class's non-mesh sections, whose meanings are unknown beyond their
// sizes (Wrench copies them through): checked against the class's bytes and
// counted for mobies.csv.
struct Sections {
    bool collision = false;                       // §4.2: header 0x10
    uint64_t collision_first = 0, collision_points = 0, collision_third = 0;  // bytes, s16 × 4 points, bytes
    int sound_defs = 0;                           // §4.4: header 0x0d records of 0x20 bytes at 0x28
    int corncob_kernels = 0, corncob_vertices = 0;  // §4.5: header 0x2e
    int shadows = 0;                              // §2 0x0f: 16-byte records just before the skeleton
};
constexpr uint64_t kSoundDefSize = 0x20;      // §4.4
constexpr uint64_t kShadowRecordSize = 0x10;  // §2 0x0f
constexpr int kCornCobKernels = 16;           // §4.5

struct MobyClass {
    Header header;
    Sections sections;
    bool rac1_layout = false;
    bool animated = false;           // §4.6: a joint list count > 0 (the ARMOR WAD's classes: always)
    Lod high, low;
    int metal_packets = 0, metal_vertices = 0;
    std::vector<Bangle> bangles;
    std::vector<Joint> joints;       // joint_count of them when skeleton and common_trans are set
    // Why the rig cannot be used, though the bind-pose mesh can (§11: the
    // mesh needs no joint transform): a skeleton, common_trans or parent that
    // fails its checks, or a record naming a joint past the skeleton.
    std::optional<FormatError> rig_error;
    std::vector<int> textures;       // class texture slots the two LODs use, ascending
    int gif_usage_entries = 0;
};

// Decodes the high and low LODs, counts the metal packets, reads the
// skeleton, and checks every row of §14 (plus the VU0 slot rules of §8.7).
// Error offsets are relative to the class start.
Result<MobyClass> read_moby_class(ByteSpan range);

// Where a header keeps the fields of its mesh section, for error offsets:
// the class header (§2) or another that names a packet table the same way
// (the ARMOR WAD's mesh-only classes, formats-globals.md §6).
struct MeshFields {
    uint64_t packet_table, metal_begin, gif_usage;
};
inline constexpr MeshFields kClassMeshFields{0x00, 0x07, 0x20};
// The packet table, packets (high, low, metal) and GIF usage table that
// `header` names, checked as read_moby_class checks them; no skeleton.
// `animated`: whether a pre-loop joint 0 is a joint (§8.7).
Result<MobyClass> read_mesh_section(ByteSpan range, const Header& header, const MeshFields& fields, bool animated);

// The ARMOR WAD's "mesh-only" class (formats-globals.md §6): a 0x10-byte
// header {u8 high, u8 low, u8 metal count, u8 metal begin, s32 packet table,
// s32 GIF usage, s32 pad}, then the packet table and packets as a class has
// them. The WAD, not the class, gives the scale (Wrench: 0.145833328 for
// armors, 1 for wrenches); the vertices are read with the skinned (animated)
// layout, as Wrench reads them, and there is no skeleton.
constexpr uint64_t kMeshOnlyHeaderSize = 0x10;
inline constexpr MeshFields kMeshOnlyFields{0x04, 0x03, 0x08};
Result<MobyClass> read_mesh_only_class(ByteSpan range, float scale);

// A LOD as a mesh in class space: s16 × scale / 1024, (s, t) / 4096, each
// triangle turned to face the sum of its vertex normals (§7.6).
ClassMesh lod_mesh(const MobyClass& cls, const Lod& lod);

}  // namespace gcfs::formats::moby

namespace gcfs::formats::moby {

// ---- writer (§15, §17) ----

// One vertex record (§8.2): its kind, skin bytes and cache ID, and the VU1
// vertex it becomes.
struct RecordSpec {
    enum class Kind { two_way, three_way, main } kind = Kind::main;
    uint8_t joint_field = 0;              // bits 9..15
    std::array<uint8_t, 6> skin{0x00, kDiscardSlot, 0, 0, 0, 0};  // bytes 2..7; the default is §15's static main record
    uint16_t id = 0;                      // cache slot, 9 bits (§8.4)
    Vertex vertex;
};

struct StripSpec {
    int texture = 0;               // class slot; a change emits an ad-gif block (§7.2)
    std::vector<uint8_t> vertices; // VU1 vertex numbers, 0-based: records first, then duplicates
};

struct PacketSpec {
    std::vector<std::pair<uint8_t, uint8_t>> transfers = {{0, 0x00}};  // {SPR joint, VU0 address} (§8.1)
    std::vector<RecordSpec> records;  // two-way, then three-way, then main (§8.1 order)
    struct Duplicate {
        uint16_t slot;
        int16_t s, t;
    };
    std::vector<Duplicate> duplicates;
    std::vector<StripSpec> strips;
};

struct MetalPacketSpec {
    std::vector<std::array<int16_t, 3>> vertices;
    std::vector<uint8_t> strip;  // vertex numbers, 0-based
    int texture = -2;            // -2 chrome, -3 glass (§9)
};

// §12: a bangle, an optional sub-mesh: its own high and low LOD packets
// (after the metal packets in the table) and two MobyVec4 of unknown meaning.
struct BangleSpec {
    std::vector<PacketSpec> high, low;
    std::array<int16_t, 8> vectors{};
};

// §4.5: a corncob kernel, a Vec4f and MobyVec4 vertices (the count is
// written over the first vertex's fourth s16, as Wrench writes it).
struct CornCobKernel {
    std::array<float, 4> vec{};
    std::vector<std::array<int16_t, 4>> vertices;
};

// §4.2: {u16, u16, first-part bytes, s16 x,y,z,pad points, third-part bytes}.
struct CollisionSpec {
    uint16_t unknown_0 = 0, unknown_2 = 0;
    Bytes first, third;
    std::vector<std::array<int16_t, 3>> points;
};

struct ClassSpec {
    float scale = 0.25f;
    bool rac1_layout = false;     // header byte 0x0b = 1 and the R&C1 vertex tables (§1.4)
    bool dummy_sequence = false;  // Wrench's build_moby_class adds one (§16.4); static classes only
    std::array<float, 4> bounding_sphere{0, 0, 0, 10};
    std::vector<Joint> joints;    // skeleton, common_trans and a one-entry joint list when not empty
    std::vector<PacketSpec> high, low;
    std::vector<MetalPacketSpec> metal;
    std::vector<BangleSpec> bangles;  // at most 15 (§12)
    // §4's non-mesh sections, each absent when empty.
    std::optional<CollisionSpec> collision;
    std::vector<std::array<uint8_t, 0x20>> sound_defs;     // §4.4, kept as bytes
    std::vector<std::array<uint8_t, 0x10>> shadows;        // §2 0x0f: only with joints (they precede the skeleton)
    std::array<std::optional<CornCobKernel>, 16> corncob;  // §4.5: entry 0xff when absent
};

// The §3 order: header, sequences, packet table, skeleton, common_trans,
// joint list, packets (high, low, metal), GIF usage table; every packet as
// §17 lists it (index bytes padded to 4, ad-gif code at 0xc mod 16).
Bytes write_moby_class(const ClassSpec& spec);
// A mesh-only class of `spec`'s packets (its joints, sequence and scale are
// not written: the header has no room for them).
Bytes write_mesh_only_class(const ClassSpec& spec);

}  // namespace gcfs::formats::moby
