// Fixed-size gameplay records described as field tables (formats-gameplay.md
// §3): a record is kept as its raw bytes, so a re-write is byte-exact, and
// every field is read, checked and exported through its table entry.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "formats/common/bytes.h"

namespace gcfs::formats::gameplay {

enum class FieldType : uint8_t { u8, s16, u16, s32, hex32, f32 };

struct Field {
    std::string_view name;
    uint16_t offset;
    FieldType type;
};

struct RecordSchema {
    std::string_view name;
    uint32_t size;
    std::span<const Field> fields;
};

uint32_t field_width(FieldType type);

// The schemas of §3, by record kind.
extern const RecordSchema kMobySchema;          // §3.1, 0x88
extern const RecordSchema kTieSchema;           // §3.2, 0x60
extern const RecordSchema kShrubSchema;         // §3.3, 0x70
extern const RecordSchema kSettingsSchema;      // §3.5 part 1, 0x5c
extern const RecordSchema kChunkPlaneSchema;    // §3.5 part 2, 0x20
extern const RecordSchema kVolumeSchema;        // §3.7, 0x80 (all four kinds)
extern const RecordSchema kCameraSchema;        // §3.8, 0x20
extern const RecordSchema kSoundSchema;         // §3.9, 0x90
extern const RecordSchema kDirLightSchema;      // §3.10, 0x40
extern const RecordSchema kPointLightSchema;    // §3.10, 0x10
extern const RecordSchema kEnvSampleSchema;     // §3.15, 0x20
extern const RecordSchema kEnvTransitionSchema; // §3.15, 0x80
extern const RecordSchema kSphereSchema;        // Vec4f bounding sphere, 0x10
extern const RecordSchema kCamCollPrimSchema;   // §3.16, 0x30
extern const RecordSchema kGrindDataSchema;     // §3.6, 0x20
extern const RecordSchema kAreaSchema;          // §3.14, 0x30

// n records of one schema, raw. `header` holds the TableHeader's words 1..3
// (§0: written 0; the moby block keeps its spawnable count in word 1, §3.1).
struct RecordTable {
    const RecordSchema* schema = nullptr;
    std::array<int32_t, 3> header{};
    Bytes bytes;

    size_t count() const { return schema && schema->size ? bytes.size() / schema->size : 0; }
    ByteSpan record(size_t i) const { return ByteSpan(bytes).subspan(i * schema->size, schema->size); }
    int32_t s32(size_t i, uint16_t offset) const { return s32_at(record(i), offset); }
    float f32(size_t i, uint16_t offset) const { return f32_at(record(i), offset); }
    // N consecutive f32 fields from `offset` (a Vec3f, a Mat4, §0).
    template <size_t N>
    std::array<float, N> floats(size_t i, uint16_t offset) const {
        std::array<float, N> out{};
        for (size_t k = 0; k < N; ++k) out[k] = f32_at(record(i), offset + 4 * k);
        return out;
    }
    // One field as CSV text: integers in decimal, hex32 as 0x…, floats in
    // the shortest form that reads back to the same bits.
    std::string text(size_t i, const Field& field) const;
};

// Shortest decimal text that parses back to exactly `value` (std::to_chars).
std::string shortest(float value);

// Appends a record to `table`, its fields set by name-offset through `set`.
class RecordBuilder {
public:
    explicit RecordBuilder(const RecordSchema& schema) : bytes_(schema.size, 0) {}
    RecordBuilder& s32(uint16_t offset, int32_t v) { put(offset, static_cast<uint32_t>(v), 4); return *this; }
    RecordBuilder& u16(uint16_t offset, uint16_t v) { put(offset, v, 2); return *this; }
    RecordBuilder& s16(uint16_t offset, int16_t v) { put(offset, static_cast<uint16_t>(v), 2); return *this; }
    RecordBuilder& u8(uint16_t offset, uint8_t v) { put(offset, v, 1); return *this; }
    RecordBuilder& f32(uint16_t offset, float v);
    RecordBuilder& floats(uint16_t offset, std::span<const float> values);
    void append_to(RecordTable& table) const { table.bytes.insert(table.bytes.end(), bytes_.begin(), bytes_.end()); }

private:
    void put(uint16_t offset, uint32_t v, int width);
    Bytes bytes_;
};

}  // namespace gcfs::formats::gameplay
