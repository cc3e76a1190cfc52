// Reads the Wavefront OBJ text Wrench's readers wrote beside the vectors
// (v, vt, o, usemtl and f lines), for the class tests to compare meshes.
#pragma once

#include <array>
#include <sstream>
#include <string>
#include <vector>

namespace gcfs::test {

struct ObjText {
    struct Face {
        std::array<uint32_t, 3> v{}, vt{};  // 0-based
        std::string object, material;
    };
    std::vector<std::array<double, 3>> v;
    std::vector<std::array<double, 2>> vt;
    std::vector<Face> faces;
};

inline ObjText parse_obj_text(const std::string& text) {
    ObjText obj;
    std::string object, material;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        std::string tag;
        l >> tag;
        if (tag == "o") {
            l >> object;
        } else if (tag == "usemtl") {
            l >> material;
        } else if (tag == "v") {
            std::array<double, 3> p{};
            l >> p[0] >> p[1] >> p[2];
            obj.v.push_back(p);
        } else if (tag == "vt") {
            std::array<double, 2> t{};
            l >> t[0] >> t[1];
            obj.vt.push_back(t);
        } else if (tag == "f") {
            ObjText::Face face{{}, {}, object, material};
            for (int k = 0; k < 3; ++k) {
                std::string token;
                l >> token;  // v/vt[/vn]
                face.v[k] = static_cast<uint32_t>(std::stoul(token)) - 1;
                face.vt[k] = static_cast<uint32_t>(std::stoul(token.substr(token.find('/') + 1))) - 1;
            }
            obj.faces.push_back(face);
        }
    }
    return obj;
}

}  // namespace gcfs::test
