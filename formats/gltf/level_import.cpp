#include "formats/gltf/level_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "formats/export/csv.h"
#include "formats/export/csv_read.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/records.h"
#include "formats/gameplay/spheres.h"
#include "formats/gameplay/table_rows.h"
#include "formats/gameplay/volume_mesh.h"
#include "formats/gltf/level_instances.h"
#include "formats/gltf/level_meshes.h"

namespace gcfs::formats::gltf {
namespace {

namespace gp = gameplay;

// How far a saved value may lie from the shown one and still be the same,
// relative to the record's size: an exporter keeps a node as 32-bit floats
// and a quaternion (Blender: a 1e-7 relative error per step), never as the
// stored matrix itself.
constexpr double kSame = 2e-5;
// A moby's one scale (formats-gameplay.md §3.1 0x2c), a rotation without
// shear or mirror (§0): how far the saved axes may be from that.
constexpr double kShape = 1e-4;

[[noreturn]] void refuse_save(std::string why) { fail(Errc::bad_value, 0, std::move(why)); }

// Blender names a duplicate "name.001" (a dot and three or more digits).
std::pair<std::string, bool> base_name(const std::string& name) {
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos || name.size() - dot < 4) return {name, false};
    if (!std::all_of(name.begin() + static_cast<int64_t>(dot) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })) return {name, false};
    return {name.substr(0, dot), true};
}

// Whether `text` from `at` is an integer (a '-' first when `sign`); moves `at` past it.
bool integer(const std::string& text, size_t& at, bool sign) {
    if (sign && at < text.size() && text[at] == '-') ++at;
    const size_t start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    return at > start;
}

// A name of the form node_names() gives: tie_<class>_<index>, shrub_<class>_<index>,
// moby_<uid>_<class>[_i<index>], camera_<index>, sound_<index>, or a volume's
// <kind>_<index>; a class mesh's "tie_500" is not one.
bool looks_like_instance(const std::string& name) {
    size_t at = 0;
    auto word = [&](const char* w) {
        const std::string_view v(w);
        if (name.compare(0, v.size(), v) != 0) return false;
        at = v.size();
        return true;
    };
    if (word("camera_") || word("sound_")) return integer(name, at, false) && at == name.size();
    for (const char* volume : gp::kVolumeKindNames)
        if (word((std::string(volume) + "_").c_str())) return integer(name, at, false) && at == name.size();
    const bool moby = word("moby_");
    if (!moby && !word("tie_") && !word("shrub_")) return false;
    if (!integer(name, at, true) || at >= name.size() || name[at++] != '_' || !integer(name, at, moby)) return false;
    if (moby && at + 2 < name.size() && name[at] == '_' && name[at + 1] == 'i') {
        at += 2;
        if (!integer(name, at, false)) return false;
    }
    return at == name.size();
}

// The game's axes from the file's world. level.glb's root turns the game's
// z-up into glTF's y-up (game_to_gltf, G); an exporter that keeps y up
// (Blender's "+Y Up", three.js) gives a node's world as G · M, one that
// keeps Blender's z up gives M · G (Blender converts each node's transform
// and its mesh data on import, and only the transforms' frame on export).
enum class Frame { y_up, z_up };
WorldMatrix to_game(const WorldMatrix& world, Frame frame) {
    const Matrix g = game_to_gltf();
    WorldMatrix out{};
    // G is a rotation: its inverse is its transpose.
    auto gi = [&](int r, int c) { return double{g[static_cast<size_t>(4 * r + c)]}; };
    auto w = [&](int r, int c) { return world[static_cast<size_t>(4 * c + r)]; };
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double v = 0;
            for (int k = 0; k < 4; ++k) v += frame == Frame::y_up ? gi(r, k) * w(k, c) : w(r, k) * gi(k, c);
            out[static_cast<size_t>(4 * c + r)] = v;
        }
    return out;
}

double length3(const WorldMatrix& m, int c) {
    return std::hypot(m[static_cast<size_t>(4 * c)], m[static_cast<size_t>(4 * c + 1)], m[static_cast<size_t>(4 * c + 2)]);
}

// Whether `saved`'s translation (same_position) or its 3x3 part (same_axes)
// is the shown matrix's, within kSame of the record's size.
bool same_position(const WorldMatrix& saved, const Matrix& shown) {
    const double size = std::max({1.0, std::abs(double{shown[12]}), std::abs(double{shown[13]}), std::abs(double{shown[14]})});
    for (int r = 0; r < 3; ++r)
        if (std::abs(saved[static_cast<size_t>(12 + r)] - shown[static_cast<size_t>(12 + r)]) > kSame * size) return false;
    return true;
}
bool same_axes(const WorldMatrix& saved, const Matrix& shown) {
    double size = 1;
    for (int c = 0; c < 3; ++c)
        size = std::max(size, std::hypot(double{shown[static_cast<size_t>(4 * c)]}, double{shown[static_cast<size_t>(4 * c + 1)]},
                                         double{shown[static_cast<size_t>(4 * c + 2)]}));
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            if (std::abs(saved[static_cast<size_t>(4 * c + r)] - shown[static_cast<size_t>(4 * c + r)]) > kSame * size) return false;
    return true;
}

std::string cell(double v, const std::string& node) {
    const auto f = static_cast<float>(v);
    if (!std::isfinite(f)) refuse_save(fmt::format("node {:?}: its transform holds {}, which a 32-bit float cannot", node, v));
    return gp::shortest(f);
}

// A record of one kind being rewritten: the shown CSV's rows and where each column is.
class TableText {
public:
    TableText(const gp::Gameplay& g, InstanceKind kind, const gp::RecordTable& table) : kind_(kind), table_(table), name_(info(kind).table) {
        shown_ = gp::shown_file(g, name_);
        auto rows = csv::parse(shown_);
        if (!rows.ok() || rows->empty()) refuse_save(fmt::format("gameplay/{} as shown does not read back", name_));
        rows_ = std::move(*rows);
    }
    size_t column(const std::string& header) const {
        const auto& h = rows_.front().cells;
        const auto it = std::find(h.begin(), h.end(), header);
        if (it == h.end()) refuse_save(fmt::format("gameplay/{} has no column {}", name_, header));
        return static_cast<size_t>(it - h.begin());
    }
    std::vector<std::string> row(size_t record) const {
        if (record + 1 >= rows_.size()) refuse_save(fmt::format("gameplay/{} shows no row for record {}", name_, record));
        return rows_[record + 1].cells;
    }
    const std::string& shown() const { return shown_; }
    const std::vector<std::string>& header() const { return rows_.front().cells; }

    // `cells` (a record's row) with the transform `saved` (game axes) where it
    // differs from `shown`; false when nothing differs. A value the save left
    // where it was keeps its cell, so a move along x changes pos_x alone.
    bool place(std::vector<std::string>& cells, size_t record, const WorldMatrix& saved, const Matrix& shown, const std::string& node) const {
        const bool moved = !same_position(saved, shown), turned = !same_axes(saved, shown);
        const double reach = std::max({1.0, std::abs(double{shown[12]}), std::abs(double{shown[13]}), std::abs(double{shown[14]})});
        auto set = [&](const std::string& column_name, double value, double was, double size) {
            if (std::abs(value - was) > kSame * size) cells[column(column_name)] = cell(value, node);
        };
        // Ties, shrubs and sounds keep a full matrix (§3.2, §3.3, §3.9), its w's left as stored.
        const bool matrix = kind_ == InstanceKind::tie || kind_ == InstanceKind::shrub || kind_ == InstanceKind::sound;
        if (moved)
            for (int r = 0; r < 3; ++r) {
                const double value = saved[static_cast<size_t>(12 + r)], was = shown[static_cast<size_t>(12 + r)];
                if (kind_ != InstanceKind::sound) set(fmt::format("pos_{}", "xyz"[r]), value, was, reach);
                if (matrix) set(fmt::format("col3_{}", "xyz"[r]), value, was, reach);
            }
        if (!turned) return moved;
        if (matrix) {
            const double size = std::max({1.0, length3(saved, 0), length3(saved, 1), length3(saved, 2)});
            for (int c = 0; c < 3; ++c)
                for (int r = 0; r < 3; ++r) {
                    const auto at = static_cast<size_t>(4 * c + r);
                    set(fmt::format("col{}_{}", c, "xyz"[r]), saved[at], shown[at], size);
                }
            if (kind_ == InstanceKind::sound) {
                // §3.9: the inverse's first three columns follow the matrix; the
                // rotation field stays as stored (its tie to the matrix is unstated).
                std::array<float, 16> now{};
                for (size_t k = 0; k < 16; ++k) now[k] = static_cast<float>(saved[k]);
                const auto stored = table_.floats<16>(record, 0x10);
                const auto was = gameplay::affine_inverse(stored), inverse = gameplay::affine_inverse(now);
                double inverse_size = 1;
                for (float v : inverse) inverse_size = std::max(inverse_size, std::abs(double{v}));
                for (int c = 0; c < 3; ++c)
                    for (int r = 0; r < 4; ++r) {
                        const auto at = static_cast<size_t>(4 * c + r);
                        set(fmt::format("inverse_col{}_{}", c, "xyzw"[r]), inverse[at], was[at], inverse_size);
                    }
            }
            return true;
        }
        const auto [rotation, scale] = euler_of(saved, node);
        // §3.1 rotation 0x4c and scale 0x2c; §3.8 rotation 0x10.
        const auto stored = kind_ == InstanceKind::moby ? table_.floats<3>(record, 0x4c) : table_.floats<3>(record, 0x10);
        for (int r = 0; r < 3; ++r) set(fmt::format("rot_{}", "xyz"[r]), rotation[static_cast<size_t>(r)], stored[static_cast<size_t>(r)], 1.0);
        if (kind_ == InstanceKind::moby) set("scale", scale, table_.f32(record, 0x2c), std::max(1.0, scale));
        return true;
    }

private:
    // §0: the 3x3 part as S · Rz · Ry · Rx with one scale; refused when it is not that.
    std::pair<std::array<double, 3>, double> euler_of(const WorldMatrix& m, const std::string& node) const {
        const char* what = kind_ == InstanceKind::moby ? "a moby record" : "a camera record";
        const std::array<double, 3> s{length3(m, 0), length3(m, 1), length3(m, 2)};
        if (!(s[0] > 0 && s[1] > 0 && s[2] > 0)) refuse_save(fmt::format("node {:?}: its scale is zero, which {} cannot hold", node, what));
        auto axis = [&](int row, int col) { return m[static_cast<size_t>(4 * col + row)] / s[static_cast<size_t>(col)]; };
        for (int a = 0; a < 3; ++a)
            for (int b = a + 1; b < 3; ++b)
                if (std::abs(axis(0, a) * axis(0, b) + axis(1, a) * axis(1, b) + axis(2, a) * axis(2, b)) > kShape)
                    refuse_save(fmt::format("node {:?}: its axes are sheared; {} keeps a rotation and a scale (formats-gameplay.md §0)", node, what));
        const double scale = (s[0] + s[1] + s[2]) / 3;
        for (double v : s)
            if (std::abs(v - scale) > kShape * scale)
                refuse_save(fmt::format("node {:?}: it is scaled unevenly ({:.6g}, {:.6g}, {:.6g}); {} keeps one scale (formats-gameplay.md §3.1)",
                                        node, s[0], s[1], s[2], what));
        if (kind_ == InstanceKind::camera && std::abs(scale - 1) > kShape)
            refuse_save(fmt::format("node {:?}: it is scaled {:.6g} times; a camera record keeps no scale (formats-gameplay.md §3.8)", node, scale));
        auto r = [&](int row, int col) { return m[static_cast<size_t>(4 * col + row)] / scale; };
        const double det = r(0, 0) * (r(1, 1) * r(2, 2) - r(1, 2) * r(2, 1)) - r(0, 1) * (r(1, 0) * r(2, 2) - r(1, 2) * r(2, 0)) +
                           r(0, 2) * (r(1, 0) * r(2, 1) - r(1, 1) * r(2, 0));
        if (det < 0)
            refuse_save(fmt::format("node {:?}: it is mirrored (a negative scale); {} keeps a rotation (formats-gameplay.md §0)", node, what));
        // Rz · Ry · Rx (level_meshes.cpp euler_matrix): r20 = -sin y, r21 = cos y sin x, r10 = sin z cos y.
        const double y = std::asin(std::clamp(-r(2, 0), -1.0, 1.0));
        if (std::cos(y) > 1e-6) return {{std::atan2(r(2, 1), r(2, 2)), y, std::atan2(r(1, 0), r(0, 0))}, scale};
        return {{std::atan2(-r(1, 2), r(1, 1)), y, 0.0}, scale};  // gimbal lock: z taken as 0
    }

    InstanceKind kind_;
    const gp::RecordTable& table_;
    std::string name_, shown_;
    std::vector<csv::Row> rows_;
};

struct Claim {
    size_t node;
    bool suffixed;  // "name.001": a duplicate's name
};

// What a save matches nodes to: the four instance tables, then the four
// volume kinds (formats-gameplay.md §3.7), which volumes.csv shows together.
constexpr size_t kVolumeParts = 4;
struct Part {
    std::string name, plural;  // "tie", "ties"; "cuboid", "cuboids"
    const gp::RecordTable* table = nullptr;
    std::vector<Matrix> shown;               // each record's node matrix, game axes (identity when it has none)
    std::vector<std::vector<Claim>> claims;  // per record, in file order
    size_t claimed = 0;
    size_t missing() const { return static_cast<size_t>(std::count_if(claims.begin(), claims.end(), [](const auto& c) { return c.empty(); })); }
};

constexpr Matrix kIdentity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

std::vector<Part> parts_of(const gp::Gameplay& g) {
    std::vector<Part> parts;
    for (InstanceKind kind : kInstanceKinds) {
        Part p{info(kind).name, info(kind).plural};
        if (const auto& block = gp::table_of(g, info(kind).block); block.ok()) {
            p.table = &*block.value;
            for (size_t i = 0; i < p.table->count(); ++i) {
                const Matrix m = record_matrix(kind, *p.table, i);
                p.shown.push_back(trs_decomposable(m) ? m : kIdentity);
            }
        }
        parts.push_back(std::move(p));
    }
    // A volume's node carries no matrix: its mesh is drawn in world space (tree/level/scene_builder.cpp).
    for (size_t k = 0; k < kVolumeParts; ++k) {
        Part p{gp::kVolumeKindNames[k], std::string(gp::kVolumeKindNames[k]) + "s"};
        if (const auto& block = g.volumes(static_cast<int>(k)); block.ok()) {
            p.table = &*block.value;
            p.shown.assign(p.table->count(), kIdentity);
        }
        parts.push_back(std::move(p));
    }
    for (Part& p : parts) p.claims.resize(p.shown.size());
    return parts;
}

// The node name each record of each part shows: node_names() for the
// instances, <kind>_<index> for the volumes.
std::map<std::string, std::pair<size_t, size_t>> names_of(const std::vector<Part>& parts) {
    std::map<std::string, std::pair<size_t, size_t>> named;
    for (size_t p = 0; p < parts.size(); ++p) {
        if (!parts[p].table) continue;
        const auto names = p < kInstanceKinds.size() ? node_names(kInstanceKinds[p], *parts[p].table) : std::vector<std::string>{};
        for (size_t i = 0; i < parts[p].shown.size(); ++i) named.emplace(p < kInstanceKinds.size() ? names[i] : fmt::format("{}_{}", parts[p].name, i), std::pair{p, i});
    }
    return named;
}

bool truthy(const nlohmann::json& v) {
    return (v.is_boolean() && v.get<bool>()) || (v.is_number() && v.get<double>() != 0);
}

// The record an extras object names, checked against the level: kind, index (and an instance's class).
std::optional<std::pair<size_t, size_t>> by_extras(const std::vector<Part>& parts, const nlohmann::json& extras, const std::string& node) {
    if (!extras.is_object() || !extras.contains("kind") || !extras["kind"].is_string() || !extras.contains("index") ||
        !extras["index"].is_number_integer() || extras["index"].get<int64_t>() < 0)
        return std::nullopt;
    for (size_t p = 0; p < parts.size(); ++p) {
        if (extras["kind"].get<std::string>() != parts[p].name) continue;
        const auto index = extras["index"].get<uint64_t>();
        const bool class_given = p < kInstanceKinds.size() && extras.contains("class") && extras["class"].is_number_integer();
        if (index < parts[p].shown.size() &&
            (!class_given || extras["class"].get<int64_t>() == record_class(kInstanceKinds[p], *parts[p].table, static_cast<size_t>(index))))
            return std::pair{p, static_cast<size_t>(index)};
        refuse_save(fmt::format("node {:?}: its extras name {} {}, which this level no longer has as it was exported; export level.glb "
                                "again after an edit of gameplay/{}",
                                node, parts[p].name, index, p < kInstanceKinds.size() ? info(kInstanceKinds[p]).table : "volumes.csv"));
    }
    return std::nullopt;
}

// The original of a record's claims first (the first not named as a duplicate); the rest are copies.
void original_first(std::vector<Claim>& claims) {
    const auto original = std::find_if(claims.begin(), claims.end(), [](const Claim& c) { return !c.suffixed; });
    if (original != claims.end()) std::rotate(claims.begin(), original, original + 1);
}

std::string part_status(const Part& p, size_t moved) {
    const size_t missing = p.missing(), copied = p.claimed - (p.shown.size() - missing);
    std::vector<std::string> did;
    if (moved) did.push_back(fmt::format("{} moved or turned", moved));
    if (copied) did.push_back(fmt::format("{} added as copies", copied));
    if (missing) did.push_back(fmt::format("{} removed", missing));
    return fmt::format("{}: {}", p.plural, did.empty() ? "unchanged" : fmt::format("{}", fmt::join(did, ", ")));
}

// volumes.csv with the volume parts' changes: a moved node's transform T
// (game axes) applied to its volume, matrix = T · matrix; the inverse is the
// writer's (the import computes it) and the rotation field stays as stored
// (§3.7: kept verbatim, its tie to the matrix unstated). Parts with no node
// keep their rows.
std::string volume_text(const gp::Gameplay& g, const std::vector<Part>& parts, const SavedScene& scene, Frame frame,
                        std::vector<std::string>& said) {
    const std::string shown = gp::shown_file(g, "volumes.csv");
    auto rows = csv::parse(shown);
    if (!rows.ok() || rows->empty()) refuse_save("gameplay/volumes.csv as shown does not read back");
    const auto& header = rows->front().cells;
    auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) refuse_save("gameplay/volumes.csv has no column " + name);
        return static_cast<size_t>(it - header.begin());
    };
    std::array<size_t, kVolumeParts> moved{};
    std::string text, copies;
    csv::row(text, header);
    auto line = [&](std::vector<std::string> cells, size_t k, size_t i, const Claim& claim, std::string& to) {
        const SavedNode& node = scene.nodes[claim.node];
        const WorldMatrix t = to_game(node.world, frame);
        const bool changed = !same_position(t, kIdentity) || !same_axes(t, kIdentity);
        if (changed) {
            const Matrix old = instance_matrix(parts[kInstanceKinds.size() + k].table->floats<16>(i, 0x00));
            double size = 1;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 3; ++r) size = std::max(size, std::abs(double{old[static_cast<size_t>(4 * c + r)]}));
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 3; ++r) {
                    double v = 0;
                    for (int j = 0; j < 4; ++j) v += t[static_cast<size_t>(4 * j + r)] * old[static_cast<size_t>(4 * c + j)];
                    if (std::abs(v - old[static_cast<size_t>(4 * c + r)]) > kSame * size)
                        cells[column(fmt::format("col{}_{}", c, "xyz"[r]))] = cell(v, node.name);
                }
        }
        csv::row(to, cells);
        return changed;
    };
    for (size_t r = 1; r < rows->size(); ++r) {
        const auto& cells = (*rows)[r].cells;
        const auto kind = std::find(gp::kVolumeKindNames.begin(), gp::kVolumeKindNames.end(), cells.empty() ? "" : cells[0]);
        const auto k = static_cast<size_t>(kind - gp::kVolumeKindNames.begin());
        char* end = nullptr;
        const unsigned long long i = cells.size() > 1 ? std::strtoull(cells[1].c_str(), &end, 10) : 0;
        if (kind == gp::kVolumeKindNames.end() || k >= kVolumeParts || cells.size() < 2 || end == cells[1].c_str() || *end ||
            i >= parts[kInstanceKinds.size() + k].claims.size())
            refuse_save(fmt::format("gameplay/volumes.csv as shown: line {} names no volume", (*rows)[r].line));
        const Part& part = parts[kInstanceKinds.size() + k];
        auto claims = part.claims[i];
        if (part.claimed == 0) {
            csv::row(text, cells);
            continue;
        }
        if (claims.empty()) continue;  // removed
        original_first(claims);
        if (line(cells, k, i, claims.front(), text)) ++moved[k];
        for (size_t c = 1; c < claims.size(); ++c) line(cells, k, i, claims[c], copies);
    }
    for (size_t k = 0; k < kVolumeParts; ++k) {
        const Part& part = parts[kInstanceKinds.size() + k];
        if (part.claimed) said.push_back(part_status(part, moved[k]));
    }
    text += copies;
    return text == shown ? std::string() : text;
}

LevelSave save(const gp::Gameplay& g, const SavedScene& scene) {
    std::vector<Part> parts = parts_of(g);
    const auto named = names_of(parts);
    std::vector<std::string> ignored;
    // A node below an instance's is part of it (three.js splits a mesh of
    // several materials into child meshes named "<mesh>_<n>").
    std::vector<bool> inside(scene.nodes.size(), false);
    for (size_t n = 0; n < scene.nodes.size(); ++n) {
        const SavedNode& node = scene.nodes[n];
        if (node.parent >= 0 && inside[static_cast<size_t>(node.parent)]) {
            inside[n] = true;
            continue;
        }
        const auto [base, suffixed] = base_name(node.name);
        std::optional<std::pair<size_t, size_t>> record;
        if (const auto it = named.find(base); it != named.end()) record = it->second;
        else record = by_extras(parts, node.extras, node.name);
        if (!record && looks_like_instance(base))
            refuse_save(fmt::format("node {:?} is named for an instance this level does not have; level.glb was exported before an edit "
                                    "renumbered its table: export it again",
                                    node.name));
        if (!record) {
            ignored.push_back(node.name.substr(0, 60));
            continue;
        }
        inside[n] = true;
        Part& part = parts[record->first];
        part.claims[record->second].push_back({n, suffixed});
        ++part.claimed;
    }
    // The frame the exporter kept: the one that finds more nodes where they were.
    std::array<size_t, 2> still{};
    for (const Part& part : parts)
        for (size_t i = 0; i < part.claims.size(); ++i)
            if (!part.claims[i].empty())
                for (Frame f : {Frame::y_up, Frame::z_up}) {
                    const WorldMatrix m = to_game(scene.nodes[part.claims[i].front().node].world, f);
                    if (same_position(m, part.shown[i]) && same_axes(m, part.shown[i])) ++still[static_cast<size_t>(f)];
                }
    const Frame frame = still[1] > still[0] ? Frame::z_up : Frame::y_up;

    LevelSave out;
    std::vector<std::string> said;
    const bool allow_delete = scene.extras.is_object() && scene.extras.contains("gcfs_allow_delete") && truthy(scene.extras["gcfs_allow_delete"]);
    for (size_t p = 0; p < parts.size(); ++p) {
        const Part& part = parts[p];
        if (part.shown.empty()) continue;
        if (part.claimed == 0) {
            said.push_back(fmt::format("{}: no {} node in the file, so they are left as they are", part.plural, part.name));
            continue;
        }
        const size_t count = part.shown.size(), missing = part.missing();
        if (2 * missing > count && !allow_delete)
            refuse_save(fmt::format("the file holds {} of the level's {} {}: a save that drops more than half of a kind is taken for a "
                                    "partial export (\"Selected Objects\") and refused; to delete them, set gcfs_allow_delete on the "
                                    "scene's extras (in Blender a custom property of the scene, exported with \"Custom Properties\")",
                                    count - missing, count, part.plural));
    }
    for (size_t p = 0; p < kInstanceKinds.size(); ++p) {
        Part& part = parts[p];
        const InstanceKind kind = kInstanceKinds[p];
        if (part.shown.empty() || part.claimed == 0) continue;
        TableText text(g, kind, *part.table);
        std::string csv_text;
        csv::row(csv_text, text.header());
        // Each record kept in its place, the copies after them all, so no
        // row but a removed one's successors is numbered anew.
        size_t moved = 0;
        std::string copies;
        auto line = [&](size_t record, const Claim& claim, std::string& to) {
            const SavedNode& node = scene.nodes[claim.node];
            std::vector<std::string> cells = text.row(record);
            const bool changed = text.place(cells, record, to_game(node.world, frame), part.shown[record], node.name);
            csv::row(to, cells);
            return changed;
        };
        for (size_t i = 0; i < part.claims.size(); ++i) {
            auto& claims = part.claims[i];
            if (claims.empty()) continue;  // removed
            original_first(claims);
            if (line(i, claims.front(), csv_text)) ++moved;
            for (size_t c = 1; c < claims.size(); ++c) line(i, claims[c], copies);
        }
        csv_text += copies;
        said.push_back(part_status(part, moved));
        if (csv_text != text.shown()) out.files.emplace_back(info(kind).table, std::move(csv_text));
    }
    if (std::any_of(parts.begin() + static_cast<int64_t>(kInstanceKinds.size()), parts.end(), [](const Part& p) { return p.claimed > 0; }))
        if (std::string volumes = volume_text(g, parts, scene, frame, said); !volumes.empty()) out.files.emplace_back("volumes.csv", std::move(volumes));
    if (!ignored.empty()) {
        const size_t shown_names = std::min<size_t>(ignored.size(), 6);
        said.push_back(fmt::format("{} other node{} ignored ({}{}): terrain, sky, collision, paths, lights and nodes gcfs did not write "
                                   "are not read back",
                                   ignored.size(), ignored.size() == 1 ? "" : "s",
                                   fmt::join(std::vector<std::string>(ignored.begin(), ignored.begin() + static_cast<int64_t>(shown_names)), ", "),
                                   ignored.size() > shown_names ? ", …" : ""));
    }
    out.status = fmt::format("level.glb read ({} frame): {}", frame == Frame::y_up ? "y-up" : "z-up", fmt::join(said, "; "));
    return out;
}

}  // namespace

Result<LevelSave> level_save(const gp::Gameplay& g, const SavedScene& scene) {
    return capture([&] { return save(g, scene); });
}

}  // namespace gcfs::formats::gltf
