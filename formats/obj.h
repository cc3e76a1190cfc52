// Wavefront OBJ text for triangle meshes. Lines have fixed widths so that a
// file's size is arithmetic on its vertex and face counts: the filesystem can
// answer stat without rendering, and a rendered file is checked against it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gcfs::formats::obj {

// "v" and three coordinates of width 15, 6 decimals: any (s32 + s16) / 1024
// value (|x| <= 2097184) fits, so the line is always 50 bytes.
constexpr uint64_t kVertexLineBytes = 50;

// Digits needed for 1-based indices up to `vertex_count`.
uint32_t index_width(uint64_t vertex_count);
// "f a b c\n" with indices right-aligned to `width`.
constexpr uint64_t face_line_bytes(uint32_t width) { return 2 + 3ull * width + 2 + 1; }

struct Group {
    std::string name;  // "g" line; empty for none
    uint64_t vertices = 0;
    uint64_t faces = 0;
};

// Exact byte size of a file: `preamble` verbatim, then for each group its
// "g" line, vertex lines and face lines; indices are 1-based over the file.
uint64_t file_size(uint64_t preamble_bytes, const std::vector<Group>& groups);

class Writer {
public:
    // `total_vertices` fixes the face index width for the whole file.
    Writer(std::string& out, uint64_t total_vertices);
    void text(const std::string& line);  // copied verbatim (comments, "o", "g")
    void group(const std::string& name);
    void vertex(const std::array<double, 3>& v);
    // Indices are 0-based within the current group's vertices.
    void face(const std::array<uint32_t, 3>& f);
    void begin_group_vertices() { group_base_ = written_vertices_; }

private:
    std::string& out_;
    uint32_t width_;
    uint64_t written_vertices_ = 0;
    uint64_t group_base_ = 0;
};

}  // namespace gcfs::formats::obj
