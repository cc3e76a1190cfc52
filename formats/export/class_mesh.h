// A class model (tie LOD, shrub, later moby) as one textured triangle mesh in
// class space, and its OBJ text. Sizes are arithmetic on the counts, so a
// per-level class index can answer stat without keeping meshes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gcfs::formats {

// The matrix a vertex uses (formats-moby.md §8.7), followed back to the
// joints it blends: one joint (count 1, weight 255), two or three with their
// u8 weights (fractions of 255), or none (count 0: the identity a static
// class's pre-loop transfer of joint 0 stands for).
struct VertexSkin {
    uint8_t count = 0;
    std::array<uint8_t, 3> joints{}, weights{};
    bool operator==(const VertexSkin&) const = default;
};

struct ClassMesh {
    struct Triangle {
        std::array<uint32_t, 3> v;
        int material = -1;  // class texture slot; -1 untextured
    };
    std::vector<std::array<double, 3>> positions;
    std::vector<std::array<double, 2>> uvs;  // one per position, (u, v) with v downward as the game stores it
    std::vector<Triangle> triangles;
    std::vector<VertexSkin> skins;           // one per position for mobies and armor, else none
};

// The name a material slot gets in the class's MTL ("tie_007", say).
using MaterialName = std::function<std::string(int slot)>;

// A sub-mesh a class keeps beside its main mesh (a moby's bangles,
// formats-moby.md §12): an OBJ group of its own, named.
struct NamedClassMesh {
    std::string name;
    ClassMesh mesh;
};

// What the OBJ's size depends on, taken from a mesh once.
struct ClassObjCounts {
    uint64_t vertices = 0, triangles = 0, material_bytes = 0;  // every group's together
    // Per sub-mesh, in order: its name and counts (the main mesh's are the totals less these).
    struct Part {
        std::string name;
        uint64_t vertices = 0, triangles = 0, material_bytes = 0;
    };
    std::vector<Part> parts;
};
ClassObjCounts class_obj_counts(const ClassMesh& mesh, const MaterialName& material, const std::vector<NamedClassMesh>& parts = {});
uint64_t class_obj_size(uint64_t preamble_bytes, const ClassObjCounts& counts);

// `preamble` (comments, mtllib, "o"), then a v (white) and vt (u, 1 − v) per
// vertex and the faces, with "usemtl" where the material changes; each part
// after the main mesh as a group ("g NAME") of its own vertices and faces.
std::string class_obj(const ClassMesh& mesh, const std::string& preamble, const MaterialName& material,
                      const std::vector<NamedClassMesh>& parts = {});

}  // namespace gcfs::formats
