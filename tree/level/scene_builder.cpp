#include "tree/level/scene_builder.h"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "formats/gameplay/volume_mesh.h"
#include "formats/gltf/level_instances.h"
#include "formats/gltf/level_meshes.h"
#include "formats/tfrag/tfrag_export.h"
#include "tree/level/sky_files.h"

namespace gcfs::tree {
namespace {

namespace gltf = formats::gltf;
namespace gp = formats::gameplay;
using gltf::Json;
using gltf::Material;

Json json_floats(std::span<const float> v) {
    Json out = Json::array();
    for (float f : v) out.push_back(std::isfinite(f) ? Json(static_cast<double>(f)) : Json(fmt::format("{}", f)));
    return out;
}

// Instance indices -> their group (formats-gameplay.md §3.11), -1 for none.
std::vector<int> group_of(const gp::Decoded<gp::Groups>& groups, size_t instances) {
    std::vector<int> out(instances, -1);
    if (!groups.ok()) return out;
    for (size_t g = 0; g < groups.value->groups.size(); ++g)
        for (uint16_t member : groups.value->groups[g].members)
            if (member < instances && out[member] < 0) out[member] = static_cast<int>(g);
    return out;
}

// How much wider than the level the sky's rim is drawn (docs/formats.md, "Sky placement").
constexpr double kSkyMargin = 1.5;

// The level's extent on the game's axes: terrain vertices and instance origins.
struct Extent {
    std::array<double, 3> min{INFINITY, INFINITY, INFINITY}, max{-INFINITY, -INFINITY, -INFINITY};
    void add(double x, double y, double z) {
        const std::array<double, 3> p{x, y, z};
        if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) return;
        for (size_t i = 0; i < 3; ++i) min[i] = std::min(min[i], p[i]), max[i] = std::max(max[i], p[i]);
    }
    bool empty() const { return !(min[0] <= max[0]); }
    std::array<double, 3> centre() const { return {(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2}; }
    double half_diagonal() const { return std::hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) / 2; }
};

class Builder {
public:
    Builder(const SceneSources& s, SceneKind kind) : s_(s), kind_(kind) {}

    BuiltScene build() {
        out_.scene.name = kind_ == SceneKind::collision ? s_.level + " collision" : s_.level;
        root_ = node({.name = s_.level, .matrix = gltf::game_to_gltf()});
        if (kind_ == SceneKind::collision) {
            add_collision();
        } else {
            // The class indexes first: their window (the core up to its last
            // class) shows how far the core decodes, so the textures the
            // terrain asks for need no decode of their own to be known sound.
            for (const auto& models : {s_.ties, s_.shrubs, s_.mobies})
                if (models) (void)models->index();
            add_terrain();
            add_gameplay();
            add_sky();  // last: it is placed around what the others span
        }
        Json extras = {{"source", "gcfs"}, {"level", s_.level},
                       {"axes", "game z-up units -> glTF y-up metres at the root node: (x, y, z) -> (x, z, -y), 1 unit = 1 m "
                                "(formats-gameplay.md 0 names no unit)"}};
        if (kind_ == SceneKind::collision) extras["part"] = "collision";
        notes_.insert(notes_.begin(), s_.failed_checks.begin(), s_.failed_checks.end());
        if (!notes_.empty()) extras["notes"] = notes_;
        out_.scene.extras = std::move(extras);
        out_.scene.roots = {root_};
        out_.counts.meshes = out_.scene.meshes.size();
        out_.counts.images = out_.scene.images.size();
        return std::move(out_);
    }

private:
    int node(gltf::Node n, int parent = -1) {
        out_.scene.nodes.push_back(std::move(n));
        const int index = static_cast<int>(out_.scene.nodes.size()) - 1;
        if (parent >= 0) out_.scene.nodes[static_cast<size_t>(parent)].children.push_back(index);
        return index;
    }
    int group(const std::string& name) { return node({.name = name}, root_); }
    int mesh(gltf::Mesh m) {
        out_.scene.meshes.push_back(std::move(m));
        return static_cast<int>(out_.scene.meshes.size()) - 1;
    }
    // A gameplay node shows `m`, or says in extras.error why glTF cannot hold it.
    void attach(gltf::Node& n, gltf::Mesh m) {
        if (const std::string problem = gltf::mesh_problem(m); problem.empty()) n.mesh = mesh(std::move(m));
        else n.extras["error"] = problem;
    }
    // A part's mesh, or -1 with a note when glTF could not hold it.
    int part_mesh(gltf::Mesh m) {
        if (const std::string problem = gltf::mesh_problem(m); !problem.empty()) {
            notes_.push_back(fmt::format("{} left out: {}", m.name, problem));
            return -1;
        }
        return mesh(std::move(m));
    }
    uint64_t triangles(int mesh) const {
        uint64_t n = 0;
        for (const auto& p : out_.scene.meshes[static_cast<size_t>(mesh)].primitives)
            if (p.mode == gltf::Mode::triangles) n += p.indices.size() / 3;
        return n;
    }
    // A node; its mesh's triangles (if it has one) count as drawn once more.
    int mesh_node(gltf::Node n, int parent) {
        if (n.mesh >= 0) out_.counts.triangles += triangles(n.mesh);
        return node(std::move(n), parent);
    }

    int material(const std::string& name, const std::function<Material()>& make) {
        auto [it, fresh] = materials_.try_emplace(name, static_cast<int>(out_.scene.materials.size()));
        if (fresh) {
            Material m = make();
            m.name = name;
            out_.scene.materials.push_back(std::move(m));
        }
        return it->second;
    }
    int image(const std::string& name, std::shared_ptr<const Source> source) {
        auto [it, fresh] = images_.try_emplace(name, static_cast<int>(out_.scene.images.size()));
        if (fresh) {
            out_.scene.images.push_back({name, source->size()});
            out_.images.push_back(std::move(source));
        }
        return it->second;
    }
    // A material showing textures/<table>_NNN.png; untextured (grey) when
    // that file is missing, and grey with a note when it cannot be read
    // (read_error decodes its texels, so the scene written is the one sized).
    int textured(const char* table, int row, Material::Alpha alpha) {
        if (row < 0) return untextured();
        const std::string name = fmt::format("{}_{:03d}", table, row);
        return material(name, [&] {
            Material m{.alpha = alpha, .double_sided = true};
            if (const auto it = s_.textures.find(name + ".png"); it != s_.textures.end()) {
                const std::string error = it->second->read_error();
                if (error.empty()) {
                    m.image = image(name, it->second);
                    return m;
                }
                notes_.push_back(fmt::format("textures/{}.png left out: {}", name, error));
            }
            m.colour = {0.5f, 0.5f, 0.5f, 1};
            return m;
        });
    }
    int untextured() { return material("untextured", [] { return Material{.colour = {0.7f, 0.7f, 0.7f, 1}, .double_sided = true}; }); }

    void add_terrain() {
        if (!s_.terrain) return;
        const TerrainIndex& index = s_.terrain->index();
        if (!index.error.empty()) return notes_.push_back("terrain left out: " + index.error);
        const cache::Loaded block = s_.terrain->block();
        if (!block.bytes) return notes_.push_back("terrain left out: " + block.error);
        const auto patches = formats::tfrag_level_meshes(block.bytes->bytes(), index.summary, 0);
        // formats.md 7.5: a strip's ad-gif names a row of the tfrag texture table.
        gltf::Mesh terrain = gltf::terrain_mesh(patches, [&](int texture) { return textured("tfrag", texture, Material::Alpha::mask); });
        if (terrain.positions.empty()) return notes_.push_back("terrain left out: no patch decoded");
        const uint64_t rejected = index.summary.patches.size() - index.summary.good_patches();
        if (rejected) notes_.push_back(fmt::format("terrain: {} rejected tfrag patches left out (tfrag/patches.csv says why)", rejected));
        for (const auto& p : terrain.positions) extent_.add(p[0], p[1], p[2]);
        mesh_node({.name = "terrain", .mesh = part_mesh(std::move(terrain)), .extras = {{"part", "terrain"}, {"lod", 0}}}, root_);
    }

    void add_sky() {
        if (!s_.geometry) return;
        const GeometryIndex& index = s_.geometry->index();
        if (!index.sky) {
            if (!index.sky_error.empty()) notes_.push_back("sky left out: " + index.sky_error);
            return;
        }
        auto shells = s_.geometry->sky_shells();
        if (!shells.ok()) return notes_.push_back("sky left out: " + shells.error().message);
        const int sky = node({.name = "sky", .extras = {{"part", "sky"}}}, root_);
        place_sky(out_.scene.nodes[static_cast<size_t>(sky)], *shells);
        for (size_t i = 0; i < shells->size(); ++i) {
            const formats::SkyShellMesh& shell = (*shells)[i];
            gltf::Mesh m = gltf::sky_shell_mesh(shell, index.sky->header, fmt::format("sky_shell_{}", i), [&](int def) {
                if (def < 0)
                    return material("sky_gradient", [] { return Material{.alpha = Material::Alpha::blend, .double_sided = true, .unlit = true}; });
                return material(fmt::format("sky_{:03d}", def), [&] {
                    Material mat{.alpha = Material::Alpha::blend, .double_sided = true, .unlit = true};
                    mat.image = image(fmt::format("sky_{:03d}", def),
                                      std::make_shared<SkyFile>(s_.geometry, SkyFile::Kind::png, static_cast<size_t>(def)));
                    return mat;
                });
            });
            if (m.primitives.empty()) continue;  // a shell without faces draws nothing
            mesh_node({.name = m.name, .mesh = part_mesh(std::move(m)), .extras = {{"shell", i}, {"textured", shell.textured}}}, sky);
        }
    }

    // The game draws the sky around the camera, behind everything (formats-tie-sky.md
    // B.8), which a still scene cannot: here it is centred on the level's extent
    // and scaled so the rim of its innermost shell (the shell whose widest reach
    // across x and y is least) lies kSkyMargin times the extent's half-diagonal
    // from the centre: every shell encloses the level, and a viewer inside it.
    void place_sky(gltf::Node& sky, const std::vector<formats::SkyShellMesh>& shells) {
        double rim = INFINITY;
        for (const auto& shell : shells) {
            double reach = 0;
            for (const auto& p : shell.positions) reach = std::max(reach, std::hypot(double(p[0]), double(p[1])));
            if (!shell.faces.empty()) rim = std::min(rim, reach);
        }
        if (extent_.empty() || !(rim > 0 && rim < INFINITY) || !(extent_.half_diagonal() > 0)) {
            sky.extras["placement"] = "at its stored scale, s16/1024 (formats-tie-sky.md B.4): the level has no extent to place it around";
            return;
        }
        const auto centre = extent_.centre();
        const double scale = kSkyMargin * extent_.half_diagonal() / rim;
        const auto s = static_cast<float>(scale);
        sky.matrix = gltf::Matrix{s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, static_cast<float>(centre[0]), static_cast<float>(centre[1]),
                                  static_cast<float>(centre[2]), 1};
        sky.extras["placement"] = fmt::format(
            "centred on the level's extent (terrain and instance origins) and scaled {:.6g} times, so the rim of its innermost shell "
            "({:.6g} units at its stored scale, s16/1024, formats-tie-sky.md B.4) lies {} times the extent's half-diagonal from the "
            "centre; the game draws the sky around the camera (B.8)", scale, rim, kSkyMargin);
    }

    void add_collision() {
        if (!s_.geometry) return;
        // Asked before the index: when this builds it, the index's merge is the one we get.
        auto collision = s_.geometry->collision();
        if (!collision.ok()) {
            // No note for a core without a collision region (no index entry, no error).
            if (const GeometryIndex& index = s_.geometry->index(); index.collision || !index.collision_error.empty())
                notes_.push_back("collision left out: " + collision.error().message);
            return;
        }
        const int group = node({.name = "collision", .extras = {{"part", "collision"}}}, root_);
        gltf::Mesh main = gltf::collision_main_mesh(collision->mesh, [&](int type) {
            return material(formats::collision_material_name(static_cast<uint8_t>(type)), [&] {
                const auto rgb = formats::collision_type_colour(static_cast<uint8_t>(type));
                return Material{.colour = {static_cast<float>(rgb[0]), static_cast<float>(rgb[1]), static_cast<float>(rgb[2]), 1},
                                .double_sided = true};
            });
        });
        if (!main.primitives.empty()) mesh_node({.name = "collision_mesh", .mesh = part_mesh(std::move(main))}, group);
        gltf::Mesh hero = gltf::collision_hero_mesh(collision->header.hero_groups, -1);
        if (hero.primitives.empty()) return;  // no hero triangles: no "hero" material either
        hero.primitives[0].material = material("hero", [] {
            return Material{.colour = {0.9f, 0.2f, 0.9f, 0.5f}, .alpha = Material::Alpha::blend, .double_sided = true};
        });
        mesh_node({.name = "collision_hero_groups", .mesh = part_mesh(std::move(hero))}, group);
    }

    // One mesh per class, made on the first instance that needs it; or why it cannot be drawn.
    struct ClassDraw {
        int mesh = -1;
        std::string error;
    };
    ClassDraw class_draw(const std::shared_ptr<const LevelClassModels>& models, int32_t o_class, Material::Alpha alpha) {
        const char* kind = models ? models->prefix() : "class";
        const auto key = std::pair{std::string(kind), o_class};
        if (auto it = classes_.find(key); it != classes_.end()) return it->second;
        ClassDraw draw;
        const std::optional<size_t> cls = models ? models->find(o_class) : std::nullopt;
        if (!cls) {
            draw.error = fmt::format("{} class {} has no model in this level's core (no {} class-table entry with a model)", kind, o_class, kind);
        } else if (const ClassModel& model = models->index().classes[*cls]; !model.error.empty()) {
            draw.error = model.error;
        } else if (auto decoded = models->mesh(*cls); !decoded.ok()) {
            draw.error = decoded.error().message;
        } else {
            gltf::Mesh m = gltf::class_mesh(*decoded, fmt::format("{}_{}", kind, o_class),
                                            [&](int slot) { return textured(kind, models->texture_row(*cls, slot), alpha); });
            if (m.primitives.empty()) draw.error = fmt::format("{} class {} has no triangles", kind, o_class);
            else if (const std::string problem = gltf::mesh_problem(m); !problem.empty())
                draw.error = fmt::format("{} class {} cannot be a glTF mesh: {}", kind, o_class, problem);
            else draw.mesh = mesh(std::move(m));
        }
        return classes_[key] = draw;
    }

    // An instance node: the class's mesh under the instance's matrix, or an empty node saying why not.
    void instance(int parent, std::string name, const std::shared_ptr<const LevelClassModels>& models, int32_t o_class,
                  const gltf::Matrix& matrix, Json extras, Material::Alpha alpha) {
        const ClassDraw draw = class_draw(models, o_class, alpha);
        gltf::Node n{.name = std::move(name), .extras = std::move(extras)};
        if (!gltf::trs_decomposable(matrix)) {
            n.extras["error"] = "its matrix is not a rotation, scale and translation, which a glTF node needs (glTF 2.0 5.25)";
            n.extras["matrix"] = json_floats(matrix);
        } else {
            n.matrix = matrix;
            extent_.add(matrix[12], matrix[13], matrix[14]);
            if (draw.mesh >= 0) n.mesh = draw.mesh;
            else n.extras["error"] = draw.error;
        }
        if (n.mesh < 0) ++out_.counts.empty;
        mesh_node(std::move(n), parent);
    }

    void add_gameplay() {
        if (!s_.gameplay) return;
        const cache::Loaded bytes = s_.gameplay->decoded();
        if (!bytes.bytes) return notes_.push_back("gameplay left out: " + bytes.error);
        const gp::Gameplay g = gp::read_gameplay(bytes.bytes->bytes());
        if (!g.file_error.empty()) return notes_.push_back("gameplay left out: gameplay.bin: " + g.file_error);
        add_ties(g);
        add_shrubs(g);
        add_mobies(g);
        add_paths(g);
        add_volumes(g);
        add_cameras(g);
        add_lights(g);
        add_sounds(g);
    }
    // A block that did not decode is named in the notes; its part is left out.
    bool usable(const char* what, const std::string& error, bool present) {
        if (!error.empty()) notes_.push_back(fmt::format("{} left out: {}", what, error));
        return present && error.empty();
    }
    // A record table with records to place, or null (absent, empty, or noted as left out).
    const gp::RecordTable* records(const char* what, const gp::Decoded<gp::RecordTable>& block) {
        return usable(what, block.error, block.ok()) && block.value->count() > 0 ? &*block.value : nullptr;
    }

    // formats-gameplay.md §3.2: o_class 0x00, occlusion_index 0x0c, matrix 0x10, uid 0x54.
    void add_ties(const gp::Gameplay& g) {
        const gp::RecordTable* table = records("tie instances", g.ties);
        if (!table) return;
        const gp::RecordTable& t = *table;
        const std::vector<int> groups = group_of(g.tie_groups, t.count());
        const std::vector<std::string> names = gltf::node_names(gltf::InstanceKind::tie, t);
        const int parent = group("ties");
        for (size_t i = 0; i < t.count(); ++i) {
            const int32_t o_class = t.s32(i, 0x00);
            instance(parent, names[i], s_.ties, o_class, gltf::record_matrix(gltf::InstanceKind::tie, t, i),
                     {{"kind", "tie"}, {"index", i}, {"uid", t.s32(i, 0x54)}, {"class", o_class}, {"group", groups[i]},
                      {"occlusion_index", t.s32(i, 0x0c)}},
                     Material::Alpha::mask);
            ++out_.counts.ties;
        }
    }

    // §3.3: o_class 0x00, matrix 0x10, colour 0x50 (no uid, no pvars).
    void add_shrubs(const gp::Gameplay& g) {
        const gp::RecordTable* table = records("shrub instances", g.shrubs);
        if (!table) return;
        const gp::RecordTable& t = *table;
        const std::vector<int> groups = group_of(g.shrub_groups, t.count());
        const std::vector<std::string> names = gltf::node_names(gltf::InstanceKind::shrub, t);
        const int parent = group("shrubs");
        for (size_t i = 0; i < t.count(); ++i) {
            const int32_t o_class = t.s32(i, 0x00);
            instance(parent, names[i], s_.shrubs, o_class, gltf::record_matrix(gltf::InstanceKind::shrub, t, i),
                     {{"kind", "shrub"}, {"index", i}, {"class", o_class}, {"group", groups[i]},
                      {"colour", {t.s32(i, 0x50), t.s32(i, 0x54), t.s32(i, 0x58)}}},
                     Material::Alpha::mask);
            ++out_.counts.shrubs;
        }
    }

    // §3.1: uid 0x10, o_class 0x28, scale 0x2c, position 0x40, rotation 0x4c,
    // group 0x58, pvar_index 0x68; world = T(position) S(scale) Rz Ry Rx (§0).
    void add_mobies(const gp::Gameplay& g) {
        const gp::RecordTable* table = records("moby instances", g.mobies);
        if (!table) return;
        const gp::RecordTable& t = *table;
        const std::vector<std::string> names = gltf::node_names(gltf::InstanceKind::moby, t);
        const int parent = group("mobies");
        for (size_t i = 0; i < t.count(); ++i) {
            const int32_t uid = t.s32(i, 0x10), o_class = t.s32(i, 0x28);
            instance(parent, names[i], s_.mobies, o_class, gltf::record_matrix(gltf::InstanceKind::moby, t, i),
                     {{"kind", "moby"}, {"index", i}, {"uid", uid}, {"class", o_class}, {"group", t.s32(i, 0x58)},
                      {"pvar_index", t.s32(i, 0x68)}},
                     Material::Alpha::mask);
            ++out_.counts.mobies;
        }
    }

    void add_paths(const gp::Gameplay& g) {
        for (const auto& kind : {std::pair{"path", &g.paths}, std::pair{"grind_path", &g.grind_paths}}) {
            const char* name = kind.first;  // plain names: clang 14's lambdas cannot capture structured bindings
            const auto* block = kind.second;
            if (!usable(name, block->error, block->ok()) || block->value->splines.empty()) continue;
            const int parent = group(std::string(name) + "s");
            const int mat = material(name, [&] {
                return Material{.colour = name == std::string_view("path") ? std::array<float, 4>{0.2f, 0.9f, 0.3f, 1} : std::array<float, 4>{1, 0.6f, 0.1f, 1},
                                .unlit = true};
            });
            for (size_t i = 0; i < block->value->splines.size(); ++i) {
                const auto& vertices = block->value->splines[i].vertices;
                gltf::Node n{.name = fmt::format("{}_{}", name, i), .extras = {{"kind", name}, {"index", i}, {"vertices", vertices.size()}}};
                attach(n, gltf::path_mesh(vertices, n.name, mat));  // fewer than two vertices or one not finite: extras.error
                node(std::move(n), parent);
                ++out_.counts.paths;
            }
        }
    }

    // §3.7: the matrix maps the unit cube to world; drawn as volume_mesh draws each kind.
    void add_volumes(const gp::Gameplay& g) {
        int parent = -1;
        for (int kind = 0; kind < 4; ++kind) {
            const auto& block = g.volumes(kind);
            const char* name = gp::kVolumeKindNames[static_cast<size_t>(kind)];
            if (!usable(name, block.error, block.ok())) continue;
            const int mat = material(fmt::format("volume_{}", name), [&] {
                static constexpr std::array<std::array<float, 4>, 4> kColours{{{0.2f, 0.5f, 1, 0.25f}, {1, 0.3f, 0.3f, 0.25f},
                                                                               {0.3f, 1, 0.4f, 0.25f}, {1, 0.9f, 0.2f, 0.25f}}};
                return Material{.colour = kColours[static_cast<size_t>(kind)], .alpha = Material::Alpha::blend, .double_sided = true};
            });
            for (size_t i = 0; i < block.value->count(); ++i) {
                if (parent < 0) parent = group("volumes");
                gltf::Node n{.name = fmt::format("{}_{}", name, i), .extras = {{"kind", name}, {"index", i}}};
                // A matrix that is not finite gives positions that are not: extras.error says so.
                attach(n, gltf::volume_world_mesh(kind, block.value->floats<16>(i, 0x00), n.name, mat));
                mesh_node(std::move(n), parent);
                ++out_.counts.volumes;
            }
        }
    }

    // §3.8: type 0x00, position 0x04, rotation 0x10, pvar_index 0x1c. The
    // game's camera axes are not stated: the stored rotation is applied to a
    // glTF camera, which looks along its local -z; the field of view is not
    // stored (60 degrees here).
    void add_cameras(const gp::Gameplay& g) {
        const gp::RecordTable* table = records("cameras", g.cameras);
        if (!table) return;
        const gp::RecordTable& t = *table;
        const std::vector<std::string> names = gltf::node_names(gltf::InstanceKind::camera, t);
        const int parent = group("cameras");
        for (size_t i = 0; i < t.count(); ++i) {
            const gltf::Matrix m = gltf::record_matrix(gltf::InstanceKind::camera, t, i);
            gltf::Node n{.name = names[i], .extras = {{"kind", "camera"}, {"index", i}, {"type", t.s32(i, 0x00)},
                                                                         {"pvar_index", t.s32(i, 0x1c)}}};
            if (gltf::trs_decomposable(m)) {
                out_.scene.cameras.push_back({n.name, static_cast<float>(std::numbers::pi / 3), 0.1f});
                n.camera = static_cast<int>(out_.scene.cameras.size()) - 1;
                n.matrix = m;
            } else {
                n.extras["error"] = "its position or rotation is not finite";
            }
            node(std::move(n), parent);
            ++out_.counts.cameras;
        }
    }

    // A light's colour for KHR_lights_punctual (each channel 0..1): the
    // brightest channel becomes the intensity.
    static std::pair<std::array<float, 3>, float> light_colour(std::array<float, 3> c) {
        for (float& v : c) v = std::isfinite(v) ? std::max(v, 0.0f) : 0.0f;
        const float peak = std::max({c[0], c[1], c[2]});
        if (peak <= 0) return {{0, 0, 0}, 0.0f};
        return {{c[0] / peak, c[1] / peak, c[2] / peak}, peak};
    }

    void add_lights(const gp::Gameplay& g) {
        int parent = -1;
        auto add = [&](std::string name, gltf::Light light, std::optional<gltf::Matrix> matrix, Json extras) {
            if (parent < 0) parent = group("lights");
            gltf::Node n{.name = std::move(name), .extras = std::move(extras)};
            if (matrix && gltf::trs_decomposable(*matrix)) {
                light.name = n.name;
                out_.scene.lights.push_back(light);
                n.light = static_cast<int>(out_.scene.lights.size()) - 1;
                n.matrix = *matrix;
            } else {
                n.extras["error"] = "its position or direction is zero or not finite";
            }
            node(std::move(n), parent);
            ++out_.counts.lights;
        };
        // §3.10 point lights: u16 position and radius in 1/64 units, u16 colour / 65535.
        if (usable("point lights", g.point_lights.error, g.point_lights.ok()))
            for (size_t i = 0; i < g.point_lights.value->lights.count(); ++i) {
                const formats::ByteSpan r = g.point_lights.value->lights.record(i);
                auto u16 = [&](uint64_t at) { return formats::u16_at(r, at); };
                const auto [colour, intensity] = light_colour({u16(8) / 65535.0f, u16(10) / 65535.0f, u16(12) / 65535.0f});
                const float range = u16(6) / 64.0f;
                gltf::Light light{.colour = colour, .intensity = intensity};
                if (range > 0) light.range = range;
                add(fmt::format("point_light_{}", i), light, gltf::euler_matrix({u16(0) / 64.0f, u16(2) / 64.0f, u16(4) / 64.0f}, {0, 0, 0}, 1),
                    {{"kind", "point light"}, {"index", i}, {"radius", range}});
            }
        // §3.10 directional lights: colour_a, direction_a, colour_b, direction_b (Vec4f each).
        if (usable("directional lights", g.dir_lights.error, g.dir_lights.ok()))
            for (size_t i = 0; i < g.dir_lights.value->count(); ++i)
                for (int half = 0; half < 2; ++half) {
                    const auto at = static_cast<uint16_t>(0x20 * half);
                    const auto [colour, intensity] = light_colour(g.dir_lights.value->floats<3>(i, at));
                    add(fmt::format("directional_light_{}_{}", i, half ? 'b' : 'a'), {.directional = true, .colour = colour, .intensity = intensity},
                        gltf::pointing_along(g.dir_lights.value->floats<3>(i, static_cast<uint16_t>(at + 0x10))),
                        {{"kind", "directional light"}, {"index", i}, {"half", half ? "b" : "a"}});
                }
    }

    // §3.9: o_class 0x00 (s16), pvar_index 0x08, range 0x0c, matrix 0x10: empty nodes (glTF has no sound).
    void add_sounds(const gp::Gameplay& g) {
        const gp::RecordTable* table = records("sound instances", g.sounds);
        if (!table) return;
        const gp::RecordTable& t = *table;
        const std::vector<std::string> names = gltf::node_names(gltf::InstanceKind::sound, t);
        const int parent = group("sounds");
        for (size_t i = 0; i < t.count(); ++i) {
            const gltf::Matrix m = gltf::record_matrix(gltf::InstanceKind::sound, t, i);
            gltf::Node n{.name = names[i],
                         .extras = {{"kind", "sound"}, {"index", i}, {"class", gltf::record_class(gltf::InstanceKind::sound, t, i)},
                                    {"pvar_index", t.s32(i, 0x08)}, {"range", t.f32(i, 0x0c)}}};
            if (gltf::trs_decomposable(m)) n.matrix = m;
            else n.extras["error"] = "its matrix is not a rotation, scale and translation";
            node(std::move(n), parent);
            ++out_.counts.sounds;
        }
    }

    const SceneSources& s_;
    const SceneKind kind_;
    Extent extent_;
    BuiltScene out_;
    int root_ = -1;
    std::vector<std::string> notes_;
    std::map<std::string, int> materials_, images_;
    std::map<std::pair<std::string, int32_t>, ClassDraw> classes_;
};

}  // namespace

BuiltScene build_level_scene(const SceneSources& sources, SceneKind kind) { return Builder(sources, kind).build(); }

}  // namespace gcfs::tree
