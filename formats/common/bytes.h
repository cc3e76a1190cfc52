// Bounds-checked little-endian access to byte spans (formats.md "Conventions":
// every integer on the disc is little-endian, structs are packed).
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "formats/common/error.h"

namespace gcfs::formats {

using Bytes = std::vector<uint8_t>;
using ByteSpan = std::span<const uint8_t>;

// Bytes read as text (a CSV, JSON or SubRip file an edit wrote), without a copy.
inline std::string_view as_text(ByteSpan bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

constexpr uint64_t kSectorSize = 0x800;  // formats.md §1: a sector is 2048 bytes

constexpr uint64_t sectors_for(uint64_t bytes) { return (bytes + kSectorSize - 1) / kSectorSize; }
constexpr uint64_t align_up(uint64_t value, uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

// Fails with Errc::truncated unless [offset, offset + length) lies inside `data`.
// `base` is added to reported offsets so errors name the position in the
// enclosing structure.
inline void require(ByteSpan data, uint64_t offset, uint64_t length, const char* what, uint64_t base = 0) {
    if (offset > data.size() || length > data.size() - offset)
        fail(Errc::truncated, base + offset,
             std::string(what) + " needs " + std::to_string(length) + " bytes, " +
                 std::to_string(offset > data.size() ? 0 : data.size() - offset) + " left");
}

inline uint8_t u8_at(ByteSpan d, uint64_t o) { require(d, o, 1, "u8"); return d[o]; }
inline uint16_t u16_at(ByteSpan d, uint64_t o) {
    require(d, o, 2, "u16");
    return static_cast<uint16_t>(d[o] | d[o + 1] << 8);
}
inline uint32_t u32_at(ByteSpan d, uint64_t o) {
    require(d, o, 4, "u32");
    return static_cast<uint32_t>(d[o]) | static_cast<uint32_t>(d[o + 1]) << 8 |
           static_cast<uint32_t>(d[o + 2]) << 16 | static_cast<uint32_t>(d[o + 3]) << 24;
}
inline int8_t s8_at(ByteSpan d, uint64_t o) { return static_cast<int8_t>(u8_at(d, o)); }
inline int16_t s16_at(ByteSpan d, uint64_t o) { return static_cast<int16_t>(u16_at(d, o)); }
inline int32_t s32_at(ByteSpan d, uint64_t o) { return static_cast<int32_t>(u32_at(d, o)); }
inline float f32_at(ByteSpan d, uint64_t o) {
    uint32_t bits = u32_at(d, o);
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}
// Overwrites 4 bytes in place, little-endian, as s32_at reads them.
inline void put_u32_at(std::span<uint8_t> d, uint64_t o, uint32_t value) {
    require(d, o, 4, "u32");
    for (int i = 0; i < 4; ++i) d[o + i] = static_cast<uint8_t>(value >> (8 * i));
}
inline ByteSpan slice(ByteSpan d, uint64_t offset, uint64_t length, const char* what) {
    require(d, offset, length, what);
    return d.subspan(offset, length);
}

// Appends little-endian values; the writers' counterpart of the readers above.
class ByteWriter {
public:
    Bytes& bytes() { return out_; }
    const Bytes& bytes() const { return out_; }
    uint64_t size() const { return out_.size(); }

    void u8(uint8_t v) { out_.push_back(v); }
    void u16(uint16_t v) { u8(v & 0xff); u8(v >> 8); }
    void u32(uint32_t v) { u16(v & 0xffff); u16(v >> 16); }
    void s8(int8_t v) { u8(static_cast<uint8_t>(v)); }
    void s16(int16_t v) { u16(static_cast<uint16_t>(v)); }
    void s32(int32_t v) { u32(static_cast<uint32_t>(v)); }
    void f32(float v) { uint32_t bits; std::memcpy(&bits, &v, 4); u32(bits); }
    void append(ByteSpan data) { out_.insert(out_.end(), data.begin(), data.end()); }
    void zeros(uint64_t count) { out_.resize(out_.size() + count, 0); }
    void pad_to(uint64_t alignment, uint8_t fill = 0) {
        out_.resize(align_up(out_.size(), alignment), fill);
    }
    // Overwrite already written little-endian values (back-patching sizes and offsets).
    void patch_u16(uint64_t offset, uint16_t v) {
        for (int i = 0; i < 2; ++i) out_.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
    }
    void patch_u32(uint64_t offset, uint32_t v) {
        for (int i = 0; i < 4; ++i) out_.at(offset + i) = static_cast<uint8_t>(v >> (8 * i));
    }

private:
    Bytes out_;
};

}  // namespace gcfs::formats
