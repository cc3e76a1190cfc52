// Wavefront OBJ text for textured triangle meshes. Lines have fixed widths so
// that a file's size is arithmetic on its counts: the filesystem can answer
// stat without rendering, and a rendered file is checked against it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gcfs::formats::obj {

// "v x y z r g b": coordinates of width 15 with 6 decimals (any (s32 + s16) /
// 1024, |x| <= 2097184, fits), colour components of width 5 with 3 decimals.
constexpr uint64_t kVertexLineBytes = 2 + 3 * 15 + 2 + 3 * 6 + 1;
// "vt u v": width 10 with 6 decimals; §7.6 texture coordinates lie in [-4, 8).
constexpr uint64_t kUvLineBytes = 3 + 10 + 1 + 10 + 1;

// Digits needed for 1-based indices up to `count`.
uint32_t index_width(uint64_t count);
// "f a/ta b/tb c/tc\n", each token padded with trailing spaces to the file's widths.
constexpr uint64_t face_line_bytes(uint32_t v_width, uint32_t vt_width) { return 2 + 3ull * (v_width + 1 + vt_width) + 2 + 1; }
constexpr uint64_t material_line_bytes(uint64_t name_size) { return 7 + name_size + 1; }  // "usemtl NAME\n"

struct Group {
    std::string name;  // "g" line; empty for none
    uint64_t vertices = 0;
    uint64_t uvs = 0;
    uint64_t faces = 0;
    uint64_t material_bytes = 0;  // the group's "usemtl" lines
};

// Every file starts with kObjAxesLine (formats/export/axes.h): vertices are
// given in the game's axes and written y-up.
// Exact byte size of a file: the axes line, `preamble` verbatim, then for each group its
// "g" line, vertex, texture-coordinate, material and face lines.
uint64_t file_size(uint64_t preamble_bytes, const std::vector<Group>& groups);

class Writer {
public:
    // The totals fix the face index widths for the whole file.
    // Starts `out` with kObjAxesLine, then `preamble` verbatim (comments, "mtllib", "o").
    Writer(std::string& out, std::string_view preamble, uint64_t total_vertices, uint64_t total_uvs);
    // Starts a group (named, or anonymous when `name` is empty): face indices
    // given afterwards are 0-based within the group's own vertices and uvs.
    void group(const std::string& name);
    void vertex(const std::array<double, 3>& game, const std::array<double, 3>& rgb);  // written y-up
    void uv(double u, double v);
    void material(const std::string& name);  // "usemtl" when it changes within the group
    void face(const std::array<uint32_t, 3>& v, const std::array<uint32_t, 3>& vt);

private:
    std::string& out_;
    uint32_t v_width_, vt_width_;
    uint64_t vertices_ = 0, uvs_ = 0;
    uint64_t group_vertices_ = 0, group_uvs_ = 0;
    std::string material_;
};

}  // namespace gcfs::formats::obj
