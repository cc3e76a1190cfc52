// The primitive range types of formats.md §1. Three units live on one disc:
// level headers count sectors, data lumps and cores count bytes.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"

namespace gcfs::formats {

// §1 SectorRange: offset and size both in 2048-byte sectors.
struct SectorRange {
    int32_t offset = 0;
    int32_t size = 0;

    bool empty() const { return size <= 0; }
    uint64_t byte_offset() const { return static_cast<uint64_t>(offset) * kSectorSize; }
    uint64_t byte_size() const { return empty() ? 0 : static_cast<uint64_t>(size) * kSectorSize; }
    int64_t end() const { return static_cast<int64_t>(offset) + size; }
};

// §1 SectorByteRange: offset in sectors, size in bytes (one VAG, one PSS).
struct SectorByteRange {
    int32_t offset = 0;
    int32_t size_bytes = 0;

    bool empty() const { return size_bytes <= 0; }
    uint64_t byte_offset() const { return static_cast<uint64_t>(offset) * kSectorSize; }
    uint64_t byte_size() const { return empty() ? 0 : static_cast<uint64_t>(size_bytes); }
};

// §1 ByteRange: offset and size in bytes; {-1, 0} means absent.
struct ByteRange {
    int32_t offset = 0;
    int32_t size = 0;

    bool empty() const { return size <= 0; }
    int64_t end() const { return static_cast<int64_t>(offset) + size; }
};

// §1 ArrayRange: the count comes first, then a byte offset.
struct ArrayRange {
    int32_t count = 0;
    int32_t offset = 0;
};

inline SectorRange sector_range_at(ByteSpan d, uint64_t o) { return {s32_at(d, o), s32_at(d, o + 4)}; }
inline SectorByteRange sector_byte_range_at(ByteSpan d, uint64_t o) { return {s32_at(d, o), s32_at(d, o + 4)}; }
inline ByteRange byte_range_at(ByteSpan d, uint64_t o) { return {s32_at(d, o), s32_at(d, o + 4)}; }
inline ArrayRange array_range_at(ByteSpan d, uint64_t o) { return {s32_at(d, o), s32_at(d, o + 4)}; }

inline void put(ByteWriter& w, SectorRange r) { w.s32(r.offset); w.s32(r.size); }
inline void put(ByteWriter& w, SectorByteRange r) { w.s32(r.offset); w.s32(r.size_bytes); }
inline void put(ByteWriter& w, ByteRange r) { w.s32(r.offset); w.s32(r.size); }
inline void put(ByteWriter& w, ArrayRange r) { w.s32(r.count); w.s32(r.offset); }

}  // namespace gcfs::formats
