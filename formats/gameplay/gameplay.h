// The GC gameplay file (formats-gameplay.md): a 39-slot block table and the
// blocks it points at, each decoded on its own so a damaged block fails alone.
// Records stay raw (records.h); variable blocks keep their bytes too, so a
// file read and written back is byte-identical, while encode_* build each
// block from its parts the way §8 says a writer must.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/gameplay/records.h"

namespace gcfs::formats::gameplay {

// §2.1: the slots, in header order (slot offset = 4 × the enum value).
enum class Block : uint8_t {
    level_settings, dir_lights, cameras, sounds,
    help_us, help_uk, help_fr, help_de, help_es, help_it, help_jp, help_kr,
    tie_classes, ties, tie_groups, shrub_classes, shrubs, shrub_groups,
    moby_classes, mobies, moby_groups, shared_data, moby_link_fixups, pvar_table, pvar_data,
    pointer_fixups, cuboids, spheres, cylinders, pills, paths, grind_paths, point_lights,
    env_transitions, cam_coll_grid, env_samples, occlusion, tie_ambient, areas,
};
constexpr size_t kBlockCount = 39;
constexpr uint32_t kHeaderSize = 0x9c;  // §2: 39 s32 offsets
constexpr uint32_t kFirstBlock = 0xa0;  // §2: zero padding to 16

struct BlockInfo {
    Block block;
    const char* name;   // "moby instances"
    uint32_t align;     // §2.2: padding before the block (1: none)
};
// §2.2: the blocks in the order Wrench writes them (and a reader must read
// them: later counts derive from earlier blocks).
extern const std::array<BlockInfo, kBlockCount> kWriteOrder;
const BlockInfo& info(Block block);
constexpr uint32_t slot_offset(Block b) { return 4u * static_cast<uint32_t>(b); }

constexpr int kLanguageCount = 8;
extern const std::array<const char*, kLanguageCount> kLanguages;  // "us_english", ... (§2.1 slots 0x10-0x2c)
constexpr Block help_block(int language) { return static_cast<Block>(static_cast<int>(Block::help_us) + language); }

struct LevelSettings {
    RecordTable first;       // one kSettingsSchema record (§3.5 part 1)
    RecordTable planes;      // kChunkPlaneSchema; empty: the zero terminator
    Bytes terminator;        // the 0x20-byte terminator as found (empty when planes exist)
    int32_t core_sounds_count = 0;
};

struct HelpMessage {
    int32_t offset = 0;      // from the block start; 0: no string (§3.4)
    std::array<int16_t, 6> ids{};  // id, short_id, third_person_id, coop_id, vag, character
    Bytes text;              // the bytes up to the NUL
};
struct HelpMessages {
    int32_t size = 0;        // the block's length, header included (GC)
    std::vector<HelpMessage> messages;
};
constexpr std::array<const char*, 6> kHelpIdNames = {"id", "short_id", "third_person_id", "coop_id", "vag", "character"};

struct Group {
    int32_t pointer = -1;              // byte offset into the member area, -1: empty (§3.11)
    std::vector<uint16_t> members;     // instance indices (bit 15 cleared)
};
struct Groups {
    int32_t data_size = 0;
    std::vector<Group> groups;
};

struct PvarEntry { int32_t offset = 0, size = 0; };
// §3.1 mode_bits 0x20: the moby's pvars open with GC's 0x20-byte sub-vars
// header of eight s32 offsets (§3.13, Wrench's pvar.cpp).
constexpr int32_t kSubVarsBit = 0x20;
constexpr int32_t kSubVarsHeader = 0x20;
struct Fixup { int32_t pvar_index = -1; uint32_t offset = 0; };
struct SharedPointer { uint16_t pvar_index = 0, pointer_offset = 0; int32_t shared_offset = 0; };
struct SharedData {
    int32_t data_size = 0;
    std::array<int32_t, 2> unused{};
    Bytes data;
    std::vector<SharedPointer> pointers;
};

struct Vec4 { float x = 0, y = 0, z = 0, w = 0; };
struct Spline {
    int32_t offset = 0;               // from the data start
    std::array<int32_t, 3> header{};  // the spline's TableHeader words 1..3
    std::vector<Vec4> vertices;
};
struct Paths {
    int32_t data_offset = 0, data_size = 0, pad = 0;
    RecordTable grind;                // kGrindDataSchema, grind paths only
    std::vector<Spline> splines;
};

struct PointLights {
    Bytes masks;                      // 64 X-column + 64 Y-row masks, 0x800 bytes (§3.10)
    RecordTable lights;               // kPointLightSchema
};

struct EnvTransitions {
    RecordTable spheres;              // kSphereSchema, one per transition
    RecordTable transitions;          // kEnvTransitionSchema
};

struct CamCollCell {
    int cell = 0;                     // y * 64 + x
    int32_t offset = 0;               // relative to block + 0x10
    RecordTable prims;                // kCamCollPrimSchema
};
struct CamCollGrid {
    int32_t length_field = 0;         // block length - 4 (§3.16)
    std::vector<CamCollCell> cells;   // non-empty cells, in cell order
};

struct OcclusionMapping { int32_t bit_index = 0, id = 0; };
struct OcclusionMappings {
    std::array<std::vector<OcclusionMapping>, 3> kinds;  // tfrag, tie, moby (§3.17)
    int32_t pad = 0;
};

struct TieAmbient {
    int16_t tie_index = 0;
    Bytes data;                       // 2 × halfword count bytes, opaque (§3.18)
};

constexpr int kAreaParts = 5;         // paths, cuboids, spheres, cylinders, negative cuboids (§3.14)
extern const std::array<const char*, kAreaParts> kAreaPartNames;
struct Areas {
    std::array<int32_t, kAreaParts> part_offsets{};
    std::array<int32_t, 2> unused{};
    RecordTable records;              // kAreaSchema
    std::vector<std::array<std::vector<int32_t>, kAreaParts>> links;  // per area, per part
};

// One block as found: where, how long, its bytes, and its value or error.
template <class T>
struct Decoded {
    uint32_t offset = 0;              // 0: the slot is empty
    uint64_t length = 0;              // bytes the block's own counts cover (§2.3)
    Bytes bytes;                      // [offset, offset + length) of the file
    std::optional<T> value;
    std::string error;                // non-empty: the block is rejected whole

    bool present() const { return offset != 0; }
    bool ok() const { return present() && value.has_value(); }
};

struct Gameplay {
    std::array<int32_t, kBlockCount> slots{};
    Decoded<LevelSettings> level_settings;
    std::array<Decoded<HelpMessages>, kLanguageCount> help;
    Decoded<RecordTable> dir_lights, cameras, sounds, ties, shrubs, mobies, env_samples;
    Decoded<RecordTable> cuboids, spheres, cylinders, pills;
    Decoded<std::vector<int32_t>> tie_classes, shrub_classes, moby_classes;
    Decoded<Groups> tie_groups, shrub_groups, moby_groups;
    Decoded<SharedData> shared_data;
    Decoded<std::vector<Fixup>> moby_link_fixups, pointer_fixups;
    Decoded<std::vector<PvarEntry>> pvar_table;
    Decoded<Bytes> pvar_data;
    Decoded<Paths> paths, grind_paths;
    Decoded<PointLights> point_lights;
    Decoded<EnvTransitions> env_transitions;
    Decoded<CamCollGrid> cam_coll_grid;
    Decoded<OcclusionMappings> occlusion;
    Decoded<std::vector<TieAmbient>> tie_ambient;
    Decoded<Areas> areas;
    std::string file_error;           // the header itself is unusable: nothing decoded

    // The volume table of §3.7 for kind 0..3 (cuboids, spheres, cylinders, pills).
    const Decoded<RecordTable>& volumes(int kind) const;
    // One block as found: where, how long, its error, and how many records
    // (entries, paths, groups, messages, bytes of pvar data) it holds when it decoded.
    struct Status {
        uint32_t offset = 0;
        uint64_t length = 0;
        bool present = false;
        std::string error;
        size_t records = 0;
    };
    Status status(Block block) const;
};

// Decodes every block of a decompressed gameplay file; every error names its
// byte offset in the file (gameplay.bin).
Gameplay read_gameplay(ByteSpan file);

// Encoders for the variable blocks (§8); fixed-record tables are written as
// TableHeader + records by encode_table.
Bytes encode_table(const RecordTable& table);
Bytes encode_level_settings(const LevelSettings& settings);
Bytes encode_help(const std::vector<HelpMessage>& messages);  // offsets and size computed (§3.4, §8.7)
Bytes encode_class_list(const std::vector<int32_t>& classes);
// §3.12: the tie or shrub class list Wrench's writer makes, the distinct
// o_class values (offset 0) of the instances in first-appearance order.
std::vector<int32_t> first_appearance_classes(const RecordTable& instances);
Bytes encode_groups(const std::vector<std::vector<uint16_t>>& members);  // §3.11, §8.10
constexpr size_t kMaxGroupMember = 0x7fff;  // §3.11: 15 bits of index, bit 15 ends the list
Bytes encode_pvar_table(const std::vector<PvarEntry>& entries);
Bytes encode_fixups(const std::vector<Fixup>& fixups);  // terminated by {-1, -1}
Bytes encode_shared_data(const SharedData& shared);
Bytes encode_paths(const std::vector<std::vector<Vec4>>& splines);
Bytes encode_grind_paths(const RecordTable& grind, const std::vector<std::vector<Vec4>>& splines);
Bytes encode_point_lights(const RecordTable& lights);   // masks computed (§3.10)
Bytes encode_env_transitions(const EnvTransitions& transitions);
Bytes encode_cam_coll_grid(const std::vector<CamCollCell>& cells);
Bytes encode_occlusion(const OcclusionMappings& mappings);
Bytes encode_tie_ambient(const std::vector<TieAmbient>& ambient);
Bytes encode_areas(const Areas& areas);  // part offsets and relative offsets computed

// §2.2: the header and the blocks in write order with their padding; an
// empty optional leaves the slot 0.
Bytes assemble(const std::array<std::optional<Bytes>, kBlockCount>& blocks);
// The bytes each present block of `g` was read from, by slot: assemble() of
// this gives the file back.
std::array<std::optional<Bytes>, kBlockCount> raw_blocks(const Gameplay& g);

// §3.6: Wrench's bounding sphere (AABB centre, the FLT_MIN seed of its max).
Vec4 bounding_sphere(std::span<const Vec4> points);
// The unit-cube corners of a volume matrix (§3.7), transformed to world.
std::array<Vec4, 8> unit_cube_corners(std::span<const float, 16> matrix);

}  // namespace gcfs::formats::gameplay
