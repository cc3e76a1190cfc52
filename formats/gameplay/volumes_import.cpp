#include "formats/gameplay/volumes_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cam_coll.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/spheres.h"
#include "formats/gameplay/volume_mesh.h"

namespace gcfs::formats::gameplay {
namespace {

constexpr Block kBlocks[4] = {Block::cuboids, Block::spheres, Block::cylinders, Block::pills};
constexpr uint16_t kInverse = 0x40, kInverseEnd = 0x70;  // §3.7: the inverse's first three columns
constexpr float kCol3W = 0.01f;                            // §3.7: col3.w is written 0.01
// §3.14's parts that link volumes: 1 cuboids, 2 spheres, 3 cylinders, 4 negative cuboids.
constexpr int kPartKind[kAreaParts] = {-1, 0, 1, 2, 0};
constexpr const char* kPartNames[kAreaParts] = {"paths", "cuboids", "spheres", "cylinders", "negative_cuboids"};

struct KindEdit {
    RecordTable table;
    std::vector<int32_t> renumber;  // old index -> new, -1: removed
    std::vector<int64_t> origin;    // new index -> the old one it was written over or copies, -1: new
    std::vector<bool> moved;        // new index: a new volume, or its matrix changed
};

[[noreturn]] void refuse_inverse(const csv::Row& row, size_t column, const Field& f) {
    fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): the inverse is computed from the matrix (formats-gameplay.md 3.7); change the matrix",
                                         row.line, column + 1, f.name));
}

std::array<float, 16> world_matrix(const RecordTable& t, size_t i) {
    auto m = t.floats<16>(i, 0);
    m[15] = 1;  // §3.7: col3.w is stored 0.01 and read as 1
    return m;
}

}  // namespace

VolumeOrigins import_volumes(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    std::array<const RecordTable*, 4> old{};
    for (int k = 0; k < 4; ++k) {
        const auto& d = g.volumes(k);
        if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the {} block did not decode ({}), so it cannot be encoded again", kVolumeKindNames[k], d.error));
        old[static_cast<size_t>(k)] = &*d.value;
    }
    auto saved = saved_rows(g, "volumes.csv", text);
    const std::vector<csv::Row>& rows = saved.rows;
    const std::vector<csv::Row>& shown = saved.shown;
    const auto& header = saved.header();
    // The shown rows by kind and index cell.
    std::map<std::pair<int, std::string>, size_t, std::less<>> shown_row;
    for (size_t r = 1; r < shown.size(); ++r)
        for (int k = 0; k < 4; ++k)
            if (shown[r].cells.size() == header.size() && shown[r].cells[0] == kVolumeKindNames[static_cast<size_t>(k)])
                shown_row.emplace(std::pair{k, shown[r].cells[1]}, r);
    std::array<KindEdit, 4> kinds;
    for (int k = 0; k < 4; ++k) {
        const RecordTable& t = *old[static_cast<size_t>(k)];
        kinds[static_cast<size_t>(k)] = {{&kVolumeSchema, t.header, {}}, std::vector<int32_t>(t.count(), -1), {}, {}};
    }
    for (size_t r = 1; r < rows.size(); ++r) {
        const csv::Row& row = rows[r];
        if (row.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", row.line, row.cells.size(), header.size()));
        const auto name = std::find(kVolumeKindNames.begin(), kVolumeKindNames.end(), trimmed(row.cells[0]));
        if (name == kVolumeKindNames.end())
            fail(Errc::bad_value, 0, fmt::format("line {}, column 1 (kind): {:?} is not cuboid, sphere, cylinder or pill", row.line, row.cells[0]));
        const int k = static_cast<int>(name - kVolumeKindNames.begin());
        KindEdit& e = kinds[static_cast<size_t>(k)];
        const RecordTable& t = *old[static_cast<size_t>(k)];
        const std::string_view index = trimmed(row.cells[1]);
        const auto found = shown_row.find(std::pair{k, std::string(index)});
        if (found == shown_row.end() && !index.empty() && !parse_field(FieldType::s32, index))
            fail(Errc::bad_value, 0, fmt::format("line {}, column 2 (index): {:?} is no volume's index: leave it empty for a new one", row.line, row.cells[1]));
        const std::vector<std::string>* was = found != shown_row.end() ? &shown[found->second].cells : nullptr;
        const int64_t source = was ? std::stoll(std::string(index)) : -1;
        const bool copy = source >= 0 && e.renumber[static_cast<size_t>(source)] >= 0;
        Bytes record(kVolumeSchema.size, 0);
        if (source >= 0) {
            const ByteSpan bytes = t.record(static_cast<size_t>(source));
            record.assign(bytes.begin(), bytes.end());
        } else {
            std::memcpy(record.data() + 0x3c, &kCol3W, 4);
        }
        bool matrix_changed = source < 0;
        std::vector<std::pair<size_t, const Field*>> given_inverse;
        size_t column = 2;
        for (const Field& f : kVolumeSchema.fields) {
            const std::string& cell = row.cells[column];
            const bool as_shown = was && trimmed(cell) == trimmed((*was)[column]);
            if (f.offset >= kInverse && f.offset < kInverseEnd) {
                // §3.7: the inverse is the writer's, from the matrix: a new row's
                // given inverse must be the one computed (a saved-again copy's is).
                if (!as_shown && !(source < 0 && trimmed(cell).empty())) {
                    if (source >= 0) refuse_inverse(row, column, f);
                    given_inverse.push_back({column, &f});
                }
            } else if (!as_shown && !(source < 0 && trimmed(cell).empty())) {
                const auto bits = parse_field(f.type, cell);
                if (!bits) fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {:?} is not {}", row.line, column + 1, f.name, cell, type_words(f.type)));
                put_le(record, f.offset, *bits, 4);
                matrix_changed = matrix_changed || f.offset < kInverse;
            }
            ++column;
        }
        if (matrix_changed) {
            std::array<float, 16> m;
            std::memcpy(m.data(), record.data(), sizeof m);
            m[15] = 1;
            const auto inverse = affine_inverse(m);
            if (!std::all_of(inverse.begin(), inverse.end(), [](float x) { return std::isfinite(x); }))
                fail(Errc::bad_value, 0, fmt::format("line {}: the matrix has no inverse (a volume needs three independent axes, formats-gameplay.md 3.7)", row.line));
            std::memcpy(record.data() + kInverse, inverse.data(), kInverseEnd - kInverse);
        }
        for (const auto& [at, field] : given_inverse)
            if (parse_field(FieldType::f32, row.cells[at]) != static_cast<uint32_t>(u32_at(record, field->offset))) refuse_inverse(row, at, *field);
        if (source >= 0 && !copy) e.renumber[static_cast<size_t>(source)] = static_cast<int32_t>(e.table.count());
        e.moved.push_back(matrix_changed || copy);
        e.origin.push_back(source);  // a copy names its source again, and is a copy again
        e.table.bytes.insert(e.table.bytes.end(), record.begin(), record.end());
        if (e.table.count() > static_cast<size_t>(INT32_MAX / kVolumeSchema.size))
            fail(Errc::too_large, 0, fmt::format("line {}: a {} block holds at most {} (its count and length are s32)", row.line, kVolumeKindNames[k],
                                                 INT32_MAX / kVolumeSchema.size));
    }
    const auto origins = [&] { return VolumeOrigins{kinds[0].origin, kinds[1].origin, kinds[2].origin, kinds[3].origin}; };
    bool renumbered = false;
    for (int k = 0; k < 4; ++k) {
        const KindEdit& e = kinds[static_cast<size_t>(k)];
        if (e.table.bytes == old[static_cast<size_t>(k)]->bytes) continue;
        blocks[static_cast<size_t>(kBlocks[k])] = encode_table(e.table);
        for (size_t i = 0; i < e.renumber.size(); ++i) renumbered = renumbered || e.renumber[i] != static_cast<int32_t>(i);
    }
    const auto renumber = [&](int kind, int32_t index, const std::string& linker) {
        const auto& map = kinds[static_cast<size_t>(kind)].renumber;
        if (index < 0 || static_cast<size_t>(index) >= map.size()) return index;  // the reader rejects it
        if (map[static_cast<size_t>(index)] < 0)
            fail(Errc::bad_value, 0, fmt::format("{} {} is linked by {}: keep it, or unlink it first", kVolumeKindNames[static_cast<size_t>(kind)], index, linker));
        return map[static_cast<size_t>(index)];
    };
    // §3.14: areas link volumes by index; an area over a moved volume bounds it again.
    if (g.areas.present()) {
        if (!g.areas.ok()) fail(Errc::bad_value, 0, fmt::format("the areas block did not decode ({}), and it links volumes", g.areas.error));
        Areas after = *g.areas.value;
        const auto paths = path_points(g);
        const std::array<const RecordTable*, 3> volumes = {&kinds[0].table, &kinds[1].table, &kinds[2].table};
        bool changed = false;
        for (size_t a = 0; a < after.links.size(); ++a) {
            bool moved = false;
            for (int p = 1; p < kAreaParts; ++p)
                for (int32_t& link : after.links[a][static_cast<size_t>(p)]) {
                    const int kind = kPartKind[p];
                    const int32_t now = renumber(kind, link, fmt::format("area {} (areas.csv {}_links)", a, kPartNames[p]));
                    changed = changed || now != link;
                    link = now;
                    const auto& m = kinds[static_cast<size_t>(kind)].moved;
                    moved = moved || (p < 4 && now >= 0 && static_cast<size_t>(now) < m.size() && m[static_cast<size_t>(now)]);
                }
            if (!moved) continue;
            const auto s = sphere_floats(area_sphere(paths, volumes, after.links[a]));
            std::memcpy(after.records.bytes.data() + a * kAreaSchema.size, s.data(), sizeof s);
            changed = true;
        }
        if (changed) blocks[static_cast<size_t>(Block::areas)] = encode_areas(after);
    }
    // §3.5: with a ship path, the ship camera's cuboids are a range of the cuboids.
    if (g.level_settings.ok() && g.level_settings.value->first.s32(0, 0x4c) >= 0) {
        Bytes block = g.level_settings.bytes;
        for (const uint16_t field : {uint16_t{0x50}, uint16_t{0x54}}) {
            const int32_t was = g.level_settings.value->first.s32(0, field);
            put_le(block, field, static_cast<uint32_t>(renumber(0, was, "the level's ship camera (settings.json ship_camera_cuboid_start/end)")), 4);
        }
        if (block != g.level_settings.bytes) blocks[static_cast<size_t>(Block::level_settings)] = std::move(block);
    }
    // §3.16: the grid is built from the camera-collision volumes, as Wrench's
    // writer builds it: written again when one of them moved, was renumbered or went.
    bool any = renumbered;
    for (const KindEdit& e : kinds) any = any || std::find(e.moved.begin(), e.moved.end(), true) != e.moved.end();
    if (!any || !g.cam_coll_grid.present()) return origins();
    if (!g.cam_coll_grid.ok()) fail(Errc::bad_value, 0, fmt::format("the camera-collision grid did not decode ({}), and it names volumes", g.cam_coll_grid.error));
    std::vector<CamCollVolume> flagged;
    bool affected = false;
    for (CamCollVolume v : cam_coll_volumes(*g.cam_coll_grid.value)) {
        const KindEdit& e = kinds[static_cast<size_t>(v.kind)];
        const int32_t now = v.index >= 0 && static_cast<size_t>(v.index) < e.renumber.size() ? e.renumber[static_cast<size_t>(v.index)] : -1;
        affected = affected || now != v.index || (now >= 0 && e.moved[static_cast<size_t>(now)]);
        if (now < 0) continue;  // the volume went, and its camera collision with it
        v.index = now;
        v.matrix = world_matrix(e.table, static_cast<size_t>(now));
        flagged.push_back(v);
    }
    if (!affected) return origins();
    std::sort(flagged.begin(), flagged.end(), [](const CamCollVolume& a, const CamCollVolume& b) { return std::pair{a.kind, a.index} < std::pair{b.kind, b.index}; });
    Bytes grid = encode_cam_coll_grid(cam_coll_cells(flagged));
    if (grid != g.cam_coll_grid.bytes) blocks[static_cast<size_t>(Block::cam_coll_grid)] = std::move(grid);
    return origins();
}

}  // namespace gcfs::formats::gameplay
