#include "formats/export/class_mesh.h"

#include "formats/export/obj.h"

namespace gcfs::formats {

ClassObjCounts class_obj_counts(const ClassMesh& mesh, const MaterialName& material) {
    ClassObjCounts counts{mesh.positions.size(), mesh.triangles.size(), 0};
    // As the writer does: a "usemtl" where the material's name changes (two
    // slots may share one name, "untextured" say).
    std::string last;
    for (size_t i = 0; i < mesh.triangles.size(); ++i) {
        const std::string name = material(mesh.triangles[i].material);
        if (i == 0 || name != last) counts.material_bytes += obj::material_line_bytes(name.size());
        last = name;
    }
    return counts;
}

uint64_t class_obj_size(uint64_t preamble_bytes, const ClassObjCounts& counts) {
    return obj::file_size(preamble_bytes, {{"", counts.vertices, counts.vertices, counts.triangles, counts.material_bytes}});
}

std::string class_obj(const ClassMesh& mesh, const std::string& preamble, const MaterialName& material) {
    std::string out;
    obj::Writer writer(out, preamble, mesh.positions.size(), mesh.positions.size());
    writer.group("");
    for (const auto& p : mesh.positions) writer.vertex(p, {1, 1, 1});
    for (const auto& uv : mesh.uvs) writer.uv(uv[0], 1.0 - uv[1]);
    for (const auto& t : mesh.triangles) {
        writer.material(material(t.material));
        writer.face(t.v, t.v);
    }
    return out;
}

}  // namespace gcfs::formats
