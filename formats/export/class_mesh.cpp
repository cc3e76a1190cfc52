#include "formats/export/class_mesh.h"

#include "formats/export/obj.h"

namespace gcfs::formats {

namespace {

// The "usemtl" bytes of one group: a line where the material's name changes
// (two slots may share one name, "untextured" say), as the writer does.
uint64_t material_bytes(const ClassMesh& mesh, const MaterialName& material) {
    uint64_t bytes = 0;
    std::string last;
    for (size_t i = 0; i < mesh.triangles.size(); ++i) {
        const std::string name = material(mesh.triangles[i].material);
        if (i == 0 || name != last) bytes += obj::material_line_bytes(name.size());
        last = name;
    }
    return bytes;
}

void write_group(obj::Writer& writer, const std::string& name, const ClassMesh& mesh, const MaterialName& material) {
    writer.group(name);
    for (const auto& p : mesh.positions) writer.vertex(p, {1, 1, 1});
    for (const auto& uv : mesh.uvs) writer.uv(uv[0], 1.0 - uv[1]);
    for (const auto& t : mesh.triangles) {
        writer.material(material(t.material));
        writer.face(t.v, t.v);
    }
}

}  // namespace

ClassObjCounts class_obj_counts(const ClassMesh& mesh, const MaterialName& material, const std::vector<NamedClassMesh>& parts) {
    ClassObjCounts counts{mesh.positions.size(), mesh.triangles.size(), material_bytes(mesh, material), {}};
    for (const NamedClassMesh& part : parts) {
        const ClassObjCounts::Part p{part.name, part.mesh.positions.size(), part.mesh.triangles.size(), material_bytes(part.mesh, material)};
        counts.vertices += p.vertices, counts.triangles += p.triangles, counts.material_bytes += p.material_bytes;
        counts.parts.push_back(p);
    }
    return counts;
}

uint64_t class_obj_size(uint64_t preamble_bytes, const ClassObjCounts& counts) {
    obj::Group main{"", counts.vertices, counts.vertices, counts.triangles, counts.material_bytes};
    std::vector<obj::Group> groups;
    for (const ClassObjCounts::Part& p : counts.parts) {
        main.vertices -= p.vertices, main.uvs -= p.vertices, main.faces -= p.triangles, main.material_bytes -= p.material_bytes;
        groups.push_back({p.name, p.vertices, p.vertices, p.triangles, p.material_bytes});
    }
    groups.insert(groups.begin(), main);
    return obj::file_size(preamble_bytes, groups);
}

std::string class_obj(const ClassMesh& mesh, const std::string& preamble, const MaterialName& material, const std::vector<NamedClassMesh>& parts) {
    uint64_t vertices = mesh.positions.size();
    for (const NamedClassMesh& part : parts) vertices += part.mesh.positions.size();
    std::string out;
    obj::Writer writer(out, preamble, vertices, vertices);
    write_group(writer, "", mesh, material);
    for (const NamedClassMesh& part : parts) write_group(writer, part.name, part.mesh, material);
    return out;
}

}  // namespace gcfs::formats
