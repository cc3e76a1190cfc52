#include "formats/export/obj.h"

#include <fmt/format.h>

#include "formats/export/axes.h"

namespace gcfs::formats::obj {

uint32_t index_width(uint64_t count) {
    uint32_t digits = 1;
    for (uint64_t v = count; v >= 10; v /= 10) ++digits;
    return digits;
}

uint64_t file_size(uint64_t preamble_bytes, const std::vector<Group>& groups) {
    preamble_bytes += kObjAxesLine.size();
    uint64_t vertices = 0, uvs = 0;
    for (const auto& g : groups) {
        vertices += g.vertices;
        uvs += g.uvs;
    }
    const uint64_t face_line = face_line_bytes(index_width(vertices), index_width(uvs));
    uint64_t size = preamble_bytes;
    for (const auto& g : groups) {
        if (!g.name.empty()) size += 2 + g.name.size() + 1;  // "g NAME\n"
        size += g.vertices * kVertexLineBytes + g.uvs * kUvLineBytes + g.material_bytes + g.faces * face_line;
    }
    return size;
}

Writer::Writer(std::string& out, std::string_view preamble, uint64_t total_vertices, uint64_t total_uvs)
    : out_(out), v_width_(index_width(total_vertices)), vt_width_(index_width(total_uvs)) {
    out_ += kObjAxesLine;
    out_ += preamble;
}

void Writer::group(const std::string& name) {
    if (!name.empty()) fmt::format_to(std::back_inserter(out_), "g {}\n", name);
    group_vertices_ = vertices_;
    group_uvs_ = uvs_;
    material_.clear();
}

void Writer::vertex(const std::array<double, 3>& game, const std::array<double, 3>& rgb) {
    const auto v = obj_axes(game);
    fmt::format_to(std::back_inserter(out_), "v {:15.6f} {:15.6f} {:15.6f} {:5.3f} {:5.3f} {:5.3f}\n", v[0], v[1], v[2], rgb[0],
                   rgb[1], rgb[2]);
    ++vertices_;
}

void Writer::uv(double u, double v) {
    fmt::format_to(std::back_inserter(out_), "vt {:10.6f} {:10.6f}\n", u, v);
    ++uvs_;
}

void Writer::material(const std::string& name) {
    if (name == material_) return;
    fmt::format_to(std::back_inserter(out_), "usemtl {}\n", name);
    material_ = name;
}

void Writer::face(const std::array<uint32_t, 3>& v, const std::array<uint32_t, 3>& vt) {
    auto w = std::back_inserter(out_);
    fmt::format_to(w, "f");
    // Each "v/vt" token is padded after its end: a space inside one would split it.
    for (int i = 0; i < 3; ++i)
        fmt::format_to(w, " {:<{}}", fmt::format("{}/{}", group_vertices_ + v[i] + 1, group_uvs_ + vt[i] + 1),
                       v_width_ + 1 + vt_width_);
    fmt::format_to(w, "\n");
}

}  // namespace gcfs::formats::obj
