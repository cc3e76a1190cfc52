#include "formats/tfrag_export.h"

#include <fmt/format.h>

#include "formats/obj.h"
#include "formats/tfrag_mesh.h"

namespace gcfs::formats {
namespace {

constexpr const char* kUnitsLine = "# world units: (origin + s16) / 1024 on the game's own axes (formats.md 7.6)\n";

uint64_t lod_vertices(const TfragPatchSummary& p, int lod) { return p.ok ? p.vertices[lod] : p.vert_count; }
uint64_t lod_triangles(const TfragPatchSummary& p, int lod) { return p.ok ? p.triangles[lod] : p.tri_count; }

std::string patch_preamble(const TfragSourceInfo& s, const TfragPatchSummary& p, int lod) {
    return fmt::format(
        "# gcfs: tfrag patch {} of {} (level id {}), LOD {}\n"
        "# source: core_data.bin, patch header at 0x{:x}, data at 0x{:x} (formats.md 7.2)\n"
        "# {} vertices, {} triangles; header vert_count {} (all LODs), tri_count {} (LOD 0)\n"
        "{}o {}\n",
        p.index, s.level, s.level_id, lod, s.block_offset + p.header_offset, s.block_offset + p.data_offset,
        lod_vertices(p, lod), lod_triangles(p, lod), p.vert_count, p.tri_count, kUnitsLine, tfrag_patch_name(p.index));
}

std::string terrain_preamble(const TfragSourceInfo& s, const TfragBlockSummary& b) {
    return fmt::format(
        "# gcfs: tfrag terrain of {} (level id {}), LOD 0: {} of {} patches, one group each\n"
        "# {} vertices, {} triangles; patches.csv lists any rejected patch and why\n"
        "{}o terrain\n",
        s.level, s.level_id, b.good_patches(), b.patches.size(), b.lod0_vertices(), b.lod0_triangles(), kUnitsLine);
}

// Writes one LOD mesh of a patch into `writer`.
Result<uint64_t> emit_patch(ByteSpan block, const TfragsHeader& header, const TfragPatchSummary& p, int lod,
                            obj::Writer& writer) {
    return capture([&] {
        if (!p.ok) fail(Errc::bad_value, p.header_offset, fmt::format("patch {} was rejected: {}", p.index, p.error));
        const TfragPatch patch = read_tfrag_patch(block, header, p.index).value();
        const TfragMesh mesh = tfrag_lod_mesh(patch, lod).value();
        for (const auto& v : mesh.positions) writer.vertex(v);
        for (const auto& t : mesh.triangles) writer.face(t);
        return static_cast<uint64_t>(mesh.positions.size());
    });
}

Result<std::string> checked(std::string text, uint64_t declared, const char* what) {
    // The size stat reported was computed from counts; the text must match it.
    if (text.size() != declared)
        return FormatError{Errc::size_mismatch, 0,
                           fmt::format("{} rendered to {} bytes, {} were declared", what, text.size(), declared)};
    return text;
}

}  // namespace

uint64_t TfragBlockSummary::good_patches() const {
    uint64_t n = 0;
    for (const auto& p : patches) n += p.ok;
    return n;
}
uint64_t TfragBlockSummary::lod0_vertices() const {
    uint64_t n = 0;
    for (const auto& p : patches) n += p.ok ? p.vertices[0] : 0;
    return n;
}
uint64_t TfragBlockSummary::lod0_triangles() const {
    uint64_t n = 0;
    for (const auto& p : patches) n += p.ok ? p.triangles[0] : 0;
    return n;
}

std::string tfrag_patch_name(uint32_t index) {
    // Called for every patch file at mount: plain digits, no format parsing.
    std::string digits = std::to_string(index);
    if (digits.size() < 4) digits.insert(0, 4 - digits.size(), '0');
    return "patch_" + digits;
}

Result<TfragBlockSummary> summarize_tfrags(ByteSpan block) {
    auto header = parse_tfrags_header(block);
    if (!header.ok()) return header.error();
    TfragBlockSummary summary;
    summary.header = *header;
    summary.patches.resize(static_cast<size_t>(header->tfrag_count));
    for (uint32_t i = 0; i < summary.patches.size(); ++i) {
        TfragPatchSummary& s = summary.patches[i];
        s.index = i;
        s.header_offset = tfrag_patch_header_offset(*header, i);
        const TfragPatchHeader h = parse_tfrag_patch_header(block, *header, i).value();  // the table was bounds-checked
        s.data_offset = static_cast<uint64_t>(header->table_offset) + static_cast<uint64_t>(std::max(h.data, 0));
        s.vert_count = h.vert_count;
        s.tri_count = h.tri_count;
        auto patch = read_tfrag_patch(block, *header, i);
        if (!patch.ok()) {
            s.error = "core/tfrag.bin " + patch.error().describe();  // offsets are in the block
            continue;
        }
        s.ok = true;
        s.textures = static_cast<uint32_t>(patch->textures.size());
        for (int lod = 0; lod < 3 && s.ok; ++lod) {
            auto mesh = tfrag_lod_mesh(*patch, lod);
            if (!mesh.ok()) {
                s.ok = false;
                s.error = "mesh " + mesh.error().describe();  // the offset is the strip record
                break;
            }
            s.vertices[lod] = static_cast<uint32_t>(mesh->positions.size());
            s.triangles[lod] = static_cast<uint32_t>(mesh->triangles.size());
        }
    }
    return summary;
}

uint64_t tfrag_patch_obj_size(const TfragSourceInfo& source, const TfragPatchSummary& p, int lod) {
    return obj::file_size(patch_preamble(source, p, lod).size(), {{"", lod_vertices(p, lod), lod_triangles(p, lod)}});
}

Result<std::string> render_tfrag_patch_obj(ByteSpan block, const TfragsHeader& header, const TfragSourceInfo& source,
                                           const TfragPatchSummary& p, int lod) {
    std::string text = patch_preamble(source, p, lod);
    obj::Writer writer(text, lod_vertices(p, lod));
    auto emitted = emit_patch(block, header, p, lod, writer);
    if (!emitted.ok()) return emitted.error();
    return checked(std::move(text), tfrag_patch_obj_size(source, p, lod), "patch OBJ");
}

uint64_t tfrag_terrain_obj_size(const TfragSourceInfo& source, const TfragBlockSummary& summary) {
    std::vector<obj::Group> groups;
    for (const auto& p : summary.patches)
        if (p.ok) groups.push_back({tfrag_patch_name(p.index), p.vertices[0], p.triangles[0]});
    return obj::file_size(terrain_preamble(source, summary).size(), groups);
}

Result<std::string> render_tfrag_terrain_obj(ByteSpan block, const TfragSourceInfo& source,
                                             const TfragBlockSummary& summary) {
    std::string text = terrain_preamble(source, summary);
    obj::Writer writer(text, summary.lod0_vertices());
    for (const auto& p : summary.patches) {
        if (!p.ok) continue;
        writer.group(tfrag_patch_name(p.index));
        auto emitted = emit_patch(block, summary.header, p, 0, writer);
        if (!emitted.ok()) return emitted.error();
    }
    return checked(std::move(text), tfrag_terrain_obj_size(source, summary), "terrain OBJ");
}

std::string tfrag_patches_csv(const TfragSourceInfo& source, const TfragBlockSummary& summary) {
    std::string out =
        "index,header_offset,data_offset,vert_count,tri_count,lod0_vertices,lod0_triangles,lod1_vertices,"
        "lod1_triangles,lod2_vertices,lod2_triangles,textures,status,error\n";
    for (const auto& p : summary.patches) {
        std::string error;  // CSV quoting: a quote inside a field is doubled
        for (char c : p.error) error += c == '"' ? std::string("\"\"") : std::string(1, c);
        fmt::format_to(std::back_inserter(out), "{},0x{:x},0x{:x},{},{},{},{},{},{},{},{},{},{},\"{}\"\n", p.index,
                       source.block_offset + p.header_offset, source.block_offset + p.data_offset, p.vert_count,
                       p.tri_count, p.vertices[0], p.triangles[0], p.vertices[1], p.triangles[1], p.vertices[2],
                       p.triangles[2], p.textures, p.ok ? "ok" : "rejected", error);
    }
    return out;
}

}  // namespace gcfs::formats
