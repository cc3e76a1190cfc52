#include "formats/gameplay/areas_import.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/export.h"
#include "formats/gameplay/spheres.h"
#include "formats/gameplay/table_rows.h"

namespace gcfs::formats::gameplay {
namespace {

// areas.csv's columns (formats/gameplay/export.cpp): the index, kAreaSchema's
// fields in order, then a link cell per part.
constexpr size_t kSphereColumn = 1, kCountColumn = 5, kTimeColumn = 10, kOffsetColumn = 11, kLinkColumn = 16;
constexpr const char* kTargets[kAreaParts] = {"path", "cuboid", "sphere", "cylinder", "cuboid"};
constexpr size_t kMaxLinks = 0x7fff;  // §3.14: an s16 count per part

[[noreturn]] void refuse(const csv::Row& row, size_t column, const std::string& header, const std::string& why) {
    fail(Errc::bad_value, 0, fmt::format("line {}, column {} ({}): {}", row.line, column + 1, header, why));
}

std::vector<int32_t> read_links(const csv::Row& row, size_t column, const std::string& header, size_t targets, int part) {
    std::vector<int32_t> out;
    for (const std::string_view word : words(row.cells[column])) {
        int64_t link = -1;
        const auto [stop, error] = std::from_chars(word.data(), word.data() + word.size(), link);
        if (error != std::errc() || stop != word.data() + word.size() || link < 0)
            refuse(row, column, header, fmt::format("{:?} is not a {} index", std::string(word), kTargets[part]));
        if (static_cast<uint64_t>(link) >= targets)
            refuse(row, column, header, fmt::format("{} is not a {}: the level has {}", link, kTargets[part], targets));
        out.push_back(static_cast<int32_t>(link));
    }
    if (out.size() > kMaxLinks)
        refuse(row, column, header, fmt::format("{} links: an area's count of a part is an s16, at most {} (formats-gameplay.md 3.14)", out.size(), kMaxLinks));
    return out;
}

}  // namespace

void import_areas(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    const auto& d = g.areas;
    if (!d.ok()) fail(Errc::bad_value, 0, fmt::format("the areas block did not decode ({}), so it cannot be encoded again", d.error));
    auto saved = saved_rows(g, "areas.csv", text);
    const std::vector<csv::Row>& rows = saved.rows;
    const std::vector<csv::Row>& shown = saved.shown;
    const auto& header = saved.header();
    const auto volumes = area_volumes(g);
    const auto paths = path_points(g);
    const std::array<size_t, kAreaParts> targets = {paths.size(), volumes[0] ? volumes[0]->count() : 0, volumes[1] ? volumes[1]->count() : 0,
                                                    volumes[2] ? volumes[2]->count() : 0, volumes[0] ? volumes[0]->count() : 0};
    const Areas& old = *d.value;
    const auto matched = matched_rows(rows, shown);
    // §3.14: the block's size field and offsets are s32.
    if (rows.size() - 1 > static_cast<size_t>(INT32_MAX / kAreaSchema.size))
        fail(Errc::too_large, 0, fmt::format("{} areas: the block's s32 size holds at most {}", rows.size() - 1, INT32_MAX / kAreaSchema.size));
    Areas after{old.part_offsets, old.unused, {&kAreaSchema, old.records.header, {}}, {}};
    uint64_t link_bytes = 0;
    for (size_t r = 1; r < rows.size(); ++r) {
        const csv::Row& row = rows[r];
        if (row.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", row.line, row.cells.size(), header.size()));
        const std::string_view index = trimmed(row.cells[0]);
        if (!matched[r] && !index.empty() && !parse_field(FieldType::s32, index))
            refuse(row, 0, header[0], fmt::format("{:?} is no area's index: leave it empty for a new area", row.cells[0]));
        const int64_t source = matched[r] ? static_cast<int64_t>(matched[r] - 1) : -1;
        const std::vector<std::string>* was = matched[r] ? &shown[matched[r]].cells : nullptr;
        Bytes record(kAreaSchema.size, 0);
        if (source >= 0) {
            const ByteSpan bytes = old.records.record(static_cast<size_t>(source));
            record.assign(bytes.begin(), bytes.end());
        }
        std::array<std::vector<int32_t>, kAreaParts> links;
        for (int p = 0; p < kAreaParts; ++p) {
            const size_t column = kLinkColumn + static_cast<size_t>(p);
            links[static_cast<size_t>(p)] = read_links(row, column, header[column], targets[static_cast<size_t>(p)], p);
            link_bytes += 4 * links[static_cast<size_t>(p)].size();
        }
        // The cells the writer computes: left as shown, or empty, or (a count) the links' number.
        for (size_t column = kSphereColumn; column < kLinkColumn; ++column) {
            if (column == kTimeColumn) continue;
            const std::string_view cell = trimmed(row.cells[column]);
            if (cell.empty() || (was && cell == trimmed((*was)[column]))) continue;
            if (column >= kCountColumn && column < kTimeColumn && cell == std::to_string(links[column - kCountColumn].size())) continue;
            refuse(row, column, header[column],
                   column < kCountColumn    ? std::string("the bounding sphere is computed from the links (formats-gameplay.md 3.14); change the links")
                   : column < kTimeColumn   ? fmt::format("{:?} is not the number of links: {}", std::string(cell), links[column - kCountColumn].size())
                                            : std::string("the offsets are the writer's, from the links (formats-gameplay.md 3.14)"));
        }
        if (const std::string_view cell = trimmed(row.cells[kTimeColumn]); !cell.empty() && !(was && cell == trimmed((*was)[kTimeColumn]))) {
            const auto time = parse_field(FieldType::s16, cell);
            if (!time) refuse(row, kTimeColumn, header[kTimeColumn], fmt::format("{:?} is not {}", std::string(cell), type_words(FieldType::s16)));
            put_le(record, 0x1a, *time, 2);
        }
        if (source < 0 || links != old.links[static_cast<size_t>(source)]) {
            const auto s = sphere_floats(area_sphere(paths, volumes, links));
            std::memcpy(record.data(), s.data(), sizeof s);
        }
        after.records.bytes.insert(after.records.bytes.end(), record.begin(), record.end());
        after.links.push_back(std::move(links));
    }
    if (0x24 + after.records.bytes.size() + link_bytes > static_cast<uint64_t>(INT32_MAX))
        fail(Errc::too_large, 0, "the areas block would pass its s32 size (formats-gameplay.md 3.14)");
    if (after.records.bytes == old.records.bytes && after.links == old.links) return;
    blocks[static_cast<size_t>(Block::areas)] = encode_areas(after);
}

}  // namespace gcfs::formats::gameplay
