// The builder's terrain is closed at LOD 0 but for its outer border, as a real
// level's is up to its LOD seams: the length of terrain.obj's open edges
// (used by one face) equals the outline of the patches' rectangles.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <map>
#include <sstream>
#include <vector>

#include "disc_fixture.h"
#include "tree/tree_builder.h"

namespace test_terrain_seams {  // this file's names, apart from the other test files' (unity builds join them)

using namespace gcfs;

namespace {

using Point = std::array<double, 3>;

// Vertices of an OBJ and its faces' vertex indices (0-based); positions that
// print alike are one vertex, as the patches' shared border vertices do.
struct ObjMesh {
    std::vector<Point> points;
    std::vector<std::array<size_t, 3>> faces;
};

ObjMesh read_obj(const std::string& text) {
    ObjMesh out;
    std::map<std::string, size_t> id_of;
    std::vector<size_t> id_of_line;  // OBJ vertex number - 1 -> distinct point
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream tokens(line);
        std::string tag;
        tokens >> tag;
        if (tag == "v") {
            Point p{};
            tokens >> p[0] >> p[1] >> p[2];
            const std::string key = fmt::format("{:.4f} {:.4f} {:.4f}", p[0], p[1], p[2]);
            const auto [it, fresh] = id_of.try_emplace(key, out.points.size());
            if (fresh) out.points.push_back(p);
            id_of_line.push_back(it->second);
        } else if (tag == "f") {
            std::array<size_t, 3> f{};
            for (size_t& v : f) {
                std::string corner;
                tokens >> corner;
                v = id_of_line.at(std::stoul(corner.substr(0, corner.find('/'))) - 1);
            }
            out.faces.push_back(f);
        }
    }
    return out;
}

double distance(const Point& a, const Point& b) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

// Total length of the edges only one face uses.
double open_edge_length(const ObjMesh& mesh) {
    std::map<std::pair<size_t, size_t>, int> uses;
    for (const auto& f : mesh.faces)
        for (size_t i = 0; i < 3; ++i) ++uses[std::minmax(f[i], f[(i + 1) % 3])];
    double length = 0;
    for (const auto& [edge, count] : uses)
        if (count == 1) length += distance(mesh.points[edge.first], mesh.points[edge.second]);
    return length;
}

// A patch's extent across the ground plane: OBJ x and z (y is up, formats/export/axes.h).
struct Rect {
    double x0, x1, z0, z1;
};

Rect ground_rect(const ObjMesh& patch) {
    Rect r{INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (const Point& p : patch.points) {
        r.x0 = std::min(r.x0, p[0]), r.x1 = std::max(r.x1, p[0]);
        r.z0 = std::min(r.z0, p[2]), r.z1 = std::max(r.z1, p[2]);
    }
    return r;
}

// The outline of the rectangles' union, for rectangles that only touch:
// every perimeter, less twice each stretch two rectangles share.
double outline(const std::vector<Rect>& rects) {
    constexpr double kTouch = 1e-3;
    auto overlap = [](double a0, double a1, double b0, double b1) { return std::max(0.0, std::min(a1, b1) - std::max(a0, b0)); };
    double length = 0;
    for (size_t i = 0; i < rects.size(); ++i) {
        const Rect& a = rects[i];
        length += 2 * (a.x1 - a.x0) + 2 * (a.z1 - a.z0);
        for (size_t j = i + 1; j < rects.size(); ++j) {
            const Rect& b = rects[j];
            if (std::abs(a.x1 - b.x0) < kTouch || std::abs(b.x1 - a.x0) < kTouch) length -= 2 * overlap(a.z0, a.z1, b.z0, b.z1);
            if (std::abs(a.z1 - b.z0) < kTouch || std::abs(b.z1 - a.z0) < kTouch) length -= 2 * overlap(a.x0, a.x1, b.x0, b.x1);
        }
    }
    return length;
}

}  // namespace

TEST_CASE("terrain.obj's open edges are the patches' outer outline: neighbours share their border vertices at LOD 0") {
    const BuiltDisc& built = small_disc();
    auto disc = tree::open_disc(built.path, 64 << 20);
    for (const std::string level : {"LEVEL00", "LEVEL01", "LEVEL04"}) {
        const ObjMesh terrain = read_obj(file_text(*disc, level + "/tfrag/terrain.obj"));
        std::vector<Rect> rects;
        for (const std::string& name : [&] {
                 std::vector<std::string> names;
                 disc->tree.for_each_child(*disc->tree.resolve(level + "/tfrag"), 0, [&](const std::string& n, uint64_t, tree::NodeType) {
                     if (n.starts_with("patch_")) names.push_back(n);
                     return true;
                 });
                 return names;
             }())
            rects.push_back(ground_rect(read_obj(file_text(*disc, level + "/tfrag/" + name))));
        REQUIRE(rects.size() >= 4);
        const double open = open_edge_length(terrain), border = outline(rects);
        INFO(level << ": open edges " << open << ", outline " << border << ", " << rects.size() << " patches");
        CHECK(border > 0);
        // Heights differ along the border, so its edges are a little longer than the outline's plan.
        CHECK(open >= border * (1 - 1e-6));
        CHECK(open < border * 1.5);
    }
}

}  // namespace test_terrain_seams
