// How the mesh compilers' fuzz targets read their input: bytes and
// little-endian s16s in order, zeros past the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "formats/import/class_mesh_in.h"

struct FuzzBytes {
    const uint8_t* data;
    size_t size;
    size_t at = 0;

    uint8_t byte() { return at < size ? data[at++] : 0; }
    int16_t s16() { return static_cast<int16_t>(byte() | byte() << 8); }
    size_t left() const { return at < size ? size - at : 0; }
};

// A class mesh's positions and UVs: a count byte, then per position three
// s16 corners at 1/64 units (up to ±512) and two s8 UVs at 1/15 (up to ±8.5,
// now and then past 4.12's range).
inline gcfs::formats::ClassMeshIn class_mesh_positions(FuzzBytes& in) {
    gcfs::formats::ClassMeshIn mesh;
    const size_t positions = in.byte();
    for (size_t i = 0; i < positions; ++i) {
        mesh.positions.push_back({in.s16() / 64.0, in.s16() / 64.0, in.s16() / 64.0});
        mesh.uvs.push_back({static_cast<int8_t>(in.byte()) / 15.0, static_cast<int8_t>(in.byte()) / 15.0});
    }
    return mesh;
}
