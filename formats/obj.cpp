#include "formats/obj.h"

#include <fmt/format.h>

namespace gcfs::formats::obj {

uint32_t index_width(uint64_t vertex_count) {
    uint32_t digits = 1;
    for (uint64_t v = vertex_count; v >= 10; v /= 10) ++digits;
    return digits;
}

uint64_t file_size(uint64_t preamble_bytes, const std::vector<Group>& groups) {
    uint64_t vertices = 0;
    for (const auto& g : groups) vertices += g.vertices;
    const uint64_t face_line = face_line_bytes(index_width(vertices));
    uint64_t size = preamble_bytes;
    for (const auto& g : groups) {
        if (!g.name.empty()) size += 2 + g.name.size() + 1;  // "g NAME\n"
        size += g.vertices * kVertexLineBytes + g.faces * face_line;
    }
    return size;
}

Writer::Writer(std::string& out, uint64_t total_vertices) : out_(out), width_(index_width(total_vertices)) {}

void Writer::text(const std::string& line) { out_ += line; }

void Writer::group(const std::string& name) {
    fmt::format_to(std::back_inserter(out_), "g {}\n", name);
    begin_group_vertices();
}

void Writer::vertex(const std::array<double, 3>& v) {
    fmt::format_to(std::back_inserter(out_), "v {:15.6f} {:15.6f} {:15.6f}\n", v[0], v[1], v[2]);
    ++written_vertices_;
}

void Writer::face(const std::array<uint32_t, 3>& f) {
    fmt::format_to(std::back_inserter(out_), "f {:>{}} {:>{}} {:>{}}\n", group_base_ + f[0] + 1, width_,
                   group_base_ + f[1] + 1, width_, group_base_ + f[2] + 1, width_);
}

}  // namespace gcfs::formats::obj
