#include "formats/collision/collision_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "formats/export/axes.h"
#include "formats/export/obj.h"

namespace gcfs::formats {
namespace {

// Fixed-width lines, so the size is arithmetic on the counts (as in obj.h).
constexpr uint64_t kPositionLineBytes = 2 + 3 * 15 + 2 + 1;  // "v x y z\n", width 15, 6 decimals
constexpr const char* kHeroMaterial = "hero";

uint64_t face_line_bytes(uint32_t corners, uint32_t width) { return 1 + corners * (1ull + width) + 1; }

// Distinct values in first-seen order, found through one open-addressing
// table of indices: a full disc's level stores ~200k vertex copies, and node-
// based maps made the merge most of a level folder's first listing.
// `KeyOf` gives a value's identity (the value itself, or a canonical form of
// it): the table keeps the values alone, and only their first-seen copies.
template <class Value, class KeyOf>
class Interner {
public:
    explicit Interner(KeyOf key_of) : slots_(1024, kEmpty), key_of_(key_of) {}

    // The index of `value`'s key, and whether it was new (then `value` is kept).
    std::pair<uint32_t, bool> intern(const Value& value) {
        const auto key = key_of_(value);
        const size_t mask = slots_.size() - 1;
        for (size_t slot = hash(key) & mask;; slot = (slot + 1) & mask) {
            if (slots_[slot] == kEmpty) {
                slots_[slot] = static_cast<uint32_t>(items_.size());
                items_.push_back(value);
                // At most half full: probes stay short. The table grows with
                // what is kept, not with the stored copies (six per vertex here).
                if (2 * items_.size() >= slots_.size()) grow();
                return {static_cast<uint32_t>(items_.size() - 1), true};
            }
            if (key_of_(items_[slots_[slot]]) == key) return {slots_[slot], false};
        }
    }
    std::vector<Value>& items() { return items_; }

private:
    static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
    template <class Key>
    static size_t hash(const Key& key) {
        uint64_t h = 0x9E3779B97F4A7C15ull;
        for (auto v : key) {
            h = (h ^ static_cast<uint64_t>(v)) * 0xFF51AFD7ED558CCDull;
            h ^= h >> 29;
        }
        return static_cast<size_t>(h);
    }
    void grow() {
        slots_.assign(2 * slots_.size(), kEmpty);
        const size_t mask = slots_.size() - 1;
        for (uint32_t i = 0; i < items_.size(); ++i) {
            size_t slot = hash(key_of_(items_[i])) & mask;
            while (slots_[slot] != kEmpty) slot = (slot + 1) & mask;
            slots_[slot] = i;
        }
    }

    std::vector<uint32_t> slots_;
    std::vector<Value> items_;
    KeyOf key_of_;
};

// Positions are themselves; a face is its type, its corners, and its indices
// from the lowest in stored order: the same face in another octant may start
// at another corner.
std::array<int64_t, 3> position_key(const std::array<int64_t, 3>& p) { return p; }
std::array<uint32_t, 6> face_key(const CollisionWorldMesh::Face& f) {
    const auto lowest = std::min_element(f.v.begin(), f.v.begin() + f.corners) - f.v.begin();
    std::array<uint32_t, 6> key{f.type, f.corners, 0, 0, 0, 0};
    for (int k = 0; k < f.corners; ++k) key[2 + k] = f.v[(lowest + k) % f.corners];
    return key;
}

// Merges octants one at a time (as walk_collision hands them over): each
// distinct position and face is kept once, in first-seen order.
class OctantMerger {
public:
    void add(const CollisionOctant& o) {
        ++octants_;
        stored_vertices_ += o.vertices.size();
        stored_faces_ += o.faces.size();
        // §8.3: fields are relative to the octant centre, coord * 4 + 2.
        std::array<int64_t, 3> centre;
        for (int a = 0; a < 3; ++a) centre[a] = (int64_t{o.coord[a]} * kOctantEdge + 2) * 64;
        local_.clear();
        for (const auto& v : o.vertices)
            local_.push_back(positions_.intern({centre[0] + v[0] * 4, centre[1] + v[1] * 4, centre[2] + v[2]}).first);
        for (const auto& f : o.faces) {
            CollisionWorldMesh::Face face;
            face.corners = f.quad ? 4 : 3;
            face.type = f.type;
            for (int k = 0; k < face.corners; ++k) face.v[k] = local_[f.v[k]];
            faces_.intern(face);
        }
    }
    MergedCollision finish(Collision header) {
        MergedCollision out{std::move(header), octants_, stored_vertices_, stored_faces_, {}};
        out.mesh.faces = std::move(faces_.items());
        out.mesh.positions = std::move(positions_.items());
        std::stable_sort(out.mesh.faces.begin(), out.mesh.faces.end(), [](const auto& a, const auto& b) { return a.type < b.type; });
        return out;
    }

private:
    uint64_t octants_ = 0, stored_vertices_ = 0, stored_faces_ = 0;
    Interner<std::array<int64_t, 3>, decltype(&position_key)> positions_{&position_key};
    Interner<CollisionWorldMesh::Face, decltype(&face_key)> faces_{&face_key};
    std::vector<uint32_t> local_;
};

std::string preamble(const MergedCollision& c, const CollisionSourceInfo& s) {
    return std::string(kObjAxesLine) + fmt::format(
        "# gcfs: collision of {} (level id {}): {} octants, {} hero groups\n"
        "# source: core_data.bin, collision block at 0x{:x}, mesh at +0x{:x}, hero groups at +0x{:x} (formats.md 8.3)\n"
        "# world units: octant centre (coord*4+2) + x/16, y/16, z/64; a face stored in several\n"
        "# octants is written once ({} vertices, {} faces here); corners in reverse stored order, as Wrench reads\n"
        "# them; usemtl col_XX names surface type 0xXX, whose meanings formats.md does not give\n"
        "mtllib collision.mtl\no collision\n",
        s.level, s.level_id, c.octants, c.header.hero_groups.size(), s.block_offset, c.header.mesh_offset,
        c.header.hero_groups_offset, c.mesh.positions.size(), c.mesh.faces.size());
}

uint64_t hero_vertex_count(const Collision& c) {
    uint64_t n = 0;
    for (const auto& g : c.hero_groups) n += g.vertices.size();
    return n;
}

class ObjText {
public:
    ObjText(std::string& out, uint64_t total_vertices) : out_(out), width_(obj::index_width(total_vertices)) {}
    void position(double x, double y, double z) {  // the game's axes in, y-up out (formats/export/axes.h)
        const auto v = obj_axes(std::array<double, 3>{x, y, z});
        fmt::format_to(std::back_inserter(out_), "v {:15.6f} {:15.6f} {:15.6f}\n", v[0], v[1], v[2]);
    }
    void object(const std::string& name) {  // a new object starts without a material
        fmt::format_to(std::back_inserter(out_), "o {}\n", name);
        material_.clear();
    }
    void material(const std::string& name) {
        if (name != material_) fmt::format_to(std::back_inserter(out_), "usemtl {}\n", name);
        material_ = name;
    }
    // 0-based indices, written reversed and 1-based, each padded to the file's width.
    void face(const uint32_t* v, uint32_t corners, uint64_t first) {
        out_ += 'f';
        for (uint32_t k = corners; k-- > 0;) fmt::format_to(std::back_inserter(out_), " {:<{}}", first + v[k] + 1, width_);
        out_ += '\n';
    }

private:
    std::string& out_;
    uint32_t width_;
    std::string material_;
};

}  // namespace

std::string collision_material_name(uint8_t type) { return fmt::format("col_{:02x}", type); }

CollisionWorldMesh merge_collision_octants(const std::vector<CollisionOctant>& octants) {
    OctantMerger merger;
    for (const auto& o : octants) merger.add(o);
    return merger.finish({}).mesh;
}

MergedCollision merged_collision(const Collision& c) {
    OctantMerger merger;
    for (const auto& o : c.octants) merger.add(o);
    return merger.finish({c.mesh_offset, c.hero_groups_offset, {}, c.hero_groups});
}

Result<MergedCollision> merge_collision(ByteSpan block) {
    OctantMerger merger;
    auto walked = walk_collision(block, {}, [&](const CollisionOctant& o) { merger.add(o); });
    if (!walked.ok()) return walked.error();
    return merger.finish(std::move(*walked));
}

CollisionSummary summarize_collision(const MergedCollision& c, const CollisionSourceInfo& source) {
    CollisionSummary s;
    s.mesh_offset = c.header.mesh_offset;
    s.hero_groups_offset = c.header.hero_groups_offset;
    s.octants = c.octants;
    s.stored_vertices = c.stored_vertices;
    s.stored_faces = c.stored_faces;
    const CollisionWorldMesh& mesh = c.mesh;
    const std::vector<HeroGroup>& heroes = c.header.hero_groups;
    s.vertices = mesh.positions.size();
    s.hero_groups = heroes.size();
    s.hero_vertices = hero_vertex_count(c.header);
    const uint32_t width = obj::index_width(s.vertices + s.hero_vertices);

    s.obj_size = preamble(c, source).size() + (s.vertices + s.hero_vertices) * kPositionLineBytes;
    for (size_t i = 0; i < mesh.faces.size(); ++i) {
        const auto& f = mesh.faces[i];
        (f.corners == 4 ? s.quads : s.triangles) += 1;
        if (i == 0 || f.type != mesh.faces[i - 1].type) {
            ++s.surface_types;
            s.obj_size += obj::material_line_bytes(collision_material_name(f.type).size());
        }
        s.obj_size += face_line_bytes(f.corners, width);
    }
    for (size_t g = 0; g < heroes.size(); ++g) {
        s.hero_triangles += heroes[g].triangles.size();
        s.obj_size += fmt::format("o hero_group_{}\n", g).size();
        if (!heroes[g].triangles.empty())
            s.obj_size += obj::material_line_bytes(std::string(kHeroMaterial).size()) + heroes[g].triangles.size() * face_line_bytes(3, width);
    }
    return s;
}

CollisionSummary summarize_collision(const Collision& c, const CollisionSourceInfo& source) { return summarize_collision(merged_collision(c), source); }

uint64_t collision_merge_peak(const CollisionSummary& s) {
    // The interners' slot tables (at most 4 × bit_ceil(4n) bytes for n kept)
    // and kept values' buffers (grown by doubling: at most twice what is
    // kept, and never more than every stored copy), and the tree's entries
    // the octants are read from (24 bytes each); the octants are not kept.
    auto table = [](uint64_t kept, uint64_t value) { return 4 * std::bit_ceil(4 * kept + 4) + 2 * value * kept; };
    return table(s.vertices, 24) + table(s.quads + s.triangles, sizeof(CollisionWorldMesh::Face)) + 24 * s.octants;
}

std::string render_collision_obj(const MergedCollision& c, const CollisionSourceInfo& source) {
    const CollisionWorldMesh& mesh = c.mesh;
    std::string out = preamble(c, source);
    ObjText obj(out, mesh.positions.size() + hero_vertex_count(c.header));
    for (const auto& p : mesh.positions) obj.position(p[0] / 64.0, p[1] / 64.0, p[2] / 64.0);
    for (const auto& f : mesh.faces) {
        obj.material(collision_material_name(f.type));
        obj.face(f.v.data(), f.corners, 0);
    }
    uint64_t first = mesh.positions.size();
    for (size_t g = 0; g < c.header.hero_groups.size(); ++g) {
        const HeroGroup& group = c.header.hero_groups[g];
        obj.object(fmt::format("hero_group_{}", g));
        // §8.3: hero vertices are absolute, u16 / 64.
        for (const auto& v : group.vertices) obj.position(v[0] / 64.0, v[1] / 64.0, v[2] / 64.0);
        if (!group.triangles.empty()) obj.material(kHeroMaterial);
        for (const auto& t : group.triangles) {
            const uint32_t v[3] = {t[0], t[1], t[2]};
            obj.face(v, 3, first);
        }
        first += group.vertices.size();
    }
    return out;
}

std::string render_collision_obj(const Collision& c, const CollisionSourceInfo& source) { return render_collision_obj(merged_collision(c), source); }

std::array<double, 3> collision_type_colour(uint8_t type) {
    // Golden-angle hues keep neighbouring type numbers far apart in colour.
    const double hue = std::fmod(type * 137.508, 360.0) / 60.0;
    const double x = 1.0 - std::fabs(std::fmod(hue, 2.0) - 1.0);
    const std::array<std::array<double, 3>, 6> sectors{{{1, x, 0}, {x, 1, 0}, {0, 1, x}, {0, x, 1}, {x, 0, 1}, {1, 0, x}}};
    const auto& rgb = sectors[static_cast<int>(hue) % 6];
    return {0.25 + 0.6 * rgb[0], 0.25 + 0.6 * rgb[1], 0.25 + 0.6 * rgb[2]};
}

std::string collision_materials_mtl() {
    std::string out = "# gcfs: one material per collision surface type (formats.md 8.3); colours are gcfs's own\n";
    for (int type = 0; type < 256; ++type) {
        const auto rgb = collision_type_colour(static_cast<uint8_t>(type));
        fmt::format_to(std::back_inserter(out), "newmtl {}\nKd {:.3f} {:.3f} {:.3f}\n", collision_material_name(static_cast<uint8_t>(type)),
                       rgb[0], rgb[1], rgb[2]);
    }
    out += fmt::format("newmtl {}\nKd 0.900 0.200 0.900\nd 0.5\n", kHeroMaterial);
    return out;
}

}  // namespace gcfs::formats
