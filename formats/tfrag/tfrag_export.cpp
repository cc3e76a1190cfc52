#include "formats/tfrag/tfrag_export.h"

#include <fmt/format.h>

#include <algorithm>

#include "formats/export/obj.h"
#include "formats/tfrag/tfrag_mesh.h"

namespace gcfs::formats {
namespace {

constexpr const char* kUnitsLines =
    "# world units: (origin + s16) / 1024 (formats.md 7.6), turned y-up; vertex colours are the\n"
    "# stored RGB bytes / 255 (0x80 is the PS2's neutral); vt = (s, 1 - t), s and t as formats.md 7.6 scales them\n";

uint64_t lod_vertices(const TfragPatchSummary& p, int lod) { return p.ok ? p.vertices[lod] : p.vert_count; }
uint64_t lod_triangles(const TfragPatchSummary& p, int lod) { return p.ok ? p.triangles[lod] : p.tri_count; }
uint64_t lod_uvs(const TfragPatchSummary& p, int lod) { return p.ok ? p.uvs[lod] : p.vert_count; }
uint64_t lod_material_bytes(const TfragPatchSummary& p, int lod) { return p.ok ? p.material_bytes[lod] : 0; }

// What the Writer's material() emits for a run of triangle textures.
uint64_t usemtl_bytes(const std::vector<int32_t>& triangle_textures) {
    uint64_t bytes = 0;
    for (size_t i = 0; i < triangle_textures.size(); ++i)
        if (i == 0 || triangle_textures[i] != triangle_textures[i - 1])
            bytes += obj::material_line_bytes(tfrag_material_name(triangle_textures[i]).size());
    return bytes;
}

std::string patch_preamble(const TfragSourceInfo& s, const TfragPatchSummary& p, int lod) {
    return fmt::format(
        "# gcfs: tfrag patch {} of {} (level id {}), LOD {}\n"
        "# source: core_data.bin, patch header at 0x{:x}, data at 0x{:x} (formats.md 7.2)\n"
        "# {} vertices, {} triangles; header vert_count {} (all LODs), tri_count {} (LOD 0)\n"
        "{}mtllib {}terrain.mtl\no {}\n",
        p.index, s.level, s.level_id, lod, s.block_offset + p.header_offset, s.block_offset + p.data_offset,
        lod_vertices(p, lod), lod_triangles(p, lod), p.vert_count, p.tri_count, kUnitsLines, lod == 0 ? "" : "../",
        tfrag_patch_name(p.index));
}

std::string terrain_preamble(const TfragSourceInfo& s, const TfragBlockSummary& b) {
    return fmt::format(
        "# gcfs: tfrag terrain of {} (level id {}), LOD 0: {} of {} patches, one group each\n"
        "# {} vertices, {} triangles; patches.csv lists any rejected patch and why\n"
        "{}mtllib terrain.mtl\no terrain\n",
        s.level, s.level_id, b.good_patches(), b.patches.size(), b.lod0_vertices(), b.lod0_triangles(), kUnitsLines);
}

// One LOD of a patch the summary accepted, decoded again from the block (the
// index keeps counts, not meshes).
Result<TfragMesh> accepted_patch_mesh(ByteSpan block, const TfragsHeader& header, const TfragPatchSummary& p, int lod) {
    if (!p.ok) return FormatError{Errc::bad_value, p.header_offset, fmt::format("patch {} was rejected: {}", p.index, p.error)};
    auto patch = read_tfrag_patch(block, header, p.index);
    if (!patch.ok()) return patch.error();
    return tfrag_lod_mesh(*patch, lod);
}

void emit_mesh(const TfragMesh& mesh, obj::Writer& writer) {
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const TfragRgba& c = mesh.colours[i];
        writer.vertex(mesh.positions[i], {c.r / 255.0, c.g / 255.0, c.b / 255.0});
    }
    for (const auto& uv : mesh.uvs) writer.uv(uv[0], 1.0 - uv[1]);
    for (size_t t = 0; t < mesh.triangles.size(); ++t) {
        writer.material(tfrag_material_name(mesh.triangle_texture[t]));
        writer.face(mesh.triangles[t], mesh.triangle_uvs[t]);
    }
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

std::string tfrag_material_name(int32_t texture) { return fmt::format("tfrag_{:03d}", texture); }

std::string tfrag_materials_mtl(uint64_t texture_count) {
    std::string out = "# gcfs: the tfrag texture table; maps are the PNGs in ../textures/\n";
    for (uint64_t i = 0; i < texture_count; ++i) {
        const std::string name = tfrag_material_name(static_cast<int32_t>(i));
        fmt::format_to(std::back_inserter(out), "newmtl {}\nKd 1.000 1.000 1.000\nmap_Kd ../textures/{}.png\n", name, name);
    }
    return out;
}

std::string tfrag_patch_name(uint32_t index) {
    // Called for every patch file at mount: plain digits, no format parsing.
    std::string digits = std::to_string(index);
    if (digits.size() < 4) digits.insert(0, 4 - digits.size(), '0');
    return "patch_" + digits;
}

TfragPatchSummary summarize_tfrag_patch(ByteSpan block, const TfragsHeader& header, uint32_t i) {
    TfragPatchSummary s;
    s.index = i;
    s.header_offset = tfrag_patch_header_offset(header, i);
    const TfragPatchHeader h = parse_tfrag_patch_header(block, header, i).value();  // the table was bounds-checked
    s.data_offset = static_cast<uint64_t>(header.table_offset) + static_cast<uint64_t>(std::max(h.data, 0));
    s.vert_count = h.vert_count;
    s.tri_count = h.tri_count;
    auto patch = read_tfrag_patch(block, header, i);
    if (!patch.ok()) {
        s.error = "core/tfrag.bin " + patch.error().describe();  // offsets are in the block
        return s;
    }
    s.ok = true;
    s.textures = static_cast<uint32_t>(patch->textures.size());
    s.lowest_texture = *std::min_element(patch->textures.begin(), patch->textures.end());
    s.highest_texture = *std::max_element(patch->textures.begin(), patch->textures.end());
    for (int lod = 0; lod < 3 && s.ok; ++lod) {
        auto mesh = tfrag_lod_mesh(*patch, lod);
        if (!mesh.ok()) {
            s.ok = false;
            s.error = "mesh " + mesh.error().describe();  // the offset is the strip record
            break;
        }
        s.vertices[lod] = static_cast<uint32_t>(mesh->positions.size());
        s.triangles[lod] = static_cast<uint32_t>(mesh->triangles.size());
        s.uvs[lod] = static_cast<uint32_t>(mesh->uvs.size());
        s.material_bytes[lod] = usemtl_bytes(mesh->triangle_texture);
    }
    return s;
}

Result<TfragBlockSummary> summarize_tfrags(ByteSpan block) {
    auto header = parse_tfrags_header(block);
    if (!header.ok()) return header.error();
    TfragBlockSummary summary;
    summary.header = *header;
    summary.patches.reserve(static_cast<size_t>(header->tfrag_count));
    for (uint32_t i = 0; i < static_cast<uint32_t>(header->tfrag_count); ++i) summary.patches.push_back(summarize_tfrag_patch(block, *header, i));
    return summary;
}

uint64_t tfrag_patch_obj_size(const TfragSourceInfo& source, const TfragPatchSummary& p, int lod) {
    return obj::file_size(patch_preamble(source, p, lod).size(),
                          {{"", lod_vertices(p, lod), lod_uvs(p, lod), lod_triangles(p, lod), lod_material_bytes(p, lod)}});
}

Result<std::string> render_tfrag_patch_obj(ByteSpan block, const TfragsHeader& header, const TfragSourceInfo& source,
                                           const TfragPatchSummary& p, int lod) {
    std::string text;
    obj::Writer writer(text, patch_preamble(source, p, lod), lod_vertices(p, lod), lod_uvs(p, lod));
    writer.group("");
    auto mesh = accepted_patch_mesh(block, header, p, lod);
    if (!mesh.ok()) return mesh.error();
    emit_mesh(*mesh, writer);
    return checked(std::move(text), tfrag_patch_obj_size(source, p, lod), "patch OBJ");
}

uint64_t tfrag_terrain_obj_size(const TfragSourceInfo& source, const TfragBlockSummary& summary) {
    std::vector<obj::Group> groups;
    for (const auto& p : summary.patches)
        if (p.ok) groups.push_back({tfrag_patch_name(p.index), p.vertices[0], p.uvs[0], p.triangles[0], p.material_bytes[0]});
    return obj::file_size(terrain_preamble(source, summary).size(), groups);
}

Result<std::string> render_tfrag_terrain_obj(ByteSpan block, const TfragSourceInfo& source,
                                             const TfragBlockSummary& summary) {
    uint64_t uvs = 0;
    for (const auto& p : summary.patches) uvs += p.ok ? p.uvs[0] : 0;
    std::string text;
    obj::Writer writer(text, terrain_preamble(source, summary), summary.lod0_vertices(), uvs);
    for (const auto& p : summary.patches) {
        if (!p.ok) continue;
        auto mesh = accepted_patch_mesh(block, summary.header, p, 0);
        if (!mesh.ok()) return mesh.error();
        writer.group(tfrag_patch_name(p.index));
        emit_mesh(*mesh, writer);
    }
    return checked(std::move(text), tfrag_terrain_obj_size(source, summary), "terrain OBJ");
}

std::vector<TfragMesh> tfrag_level_meshes(ByteSpan block, const TfragBlockSummary& summary, int lod) {
    std::vector<TfragMesh> meshes;
    for (const auto& p : summary.patches) {
        if (!p.ok) continue;
        auto mesh = accepted_patch_mesh(block, summary.header, p, lod);
        if (mesh.ok()) meshes.push_back(std::move(*mesh));  // accepted patches decoded once already
    }
    return meshes;
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
