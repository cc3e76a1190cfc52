#include "formats/gameplay/groups_import.h"

#include <fmt/format.h>

#include <charconv>
#include <map>
#include <vector>

#include "formats/export/csv_read.h"
#include "formats/gameplay/cells.h"
#include "formats/gameplay/table_rows.h"

namespace gcfs::formats::gameplay {
namespace {

struct Kind {
    const char* name;
    Block groups, instances;
    Decoded<Groups> Gameplay::*decoded;
};
// groups.csv's kinds in the order it lists them (formats/gameplay/export.cpp).
constexpr Kind kKinds[] = {{"moby", Block::moby_groups, Block::mobies, &Gameplay::moby_groups},
                           {"tie", Block::tie_groups, Block::ties, &Gameplay::tie_groups},
                           {"shrub", Block::shrub_groups, Block::shrubs, &Gameplay::shrub_groups}};
constexpr uint16_t kMobyGroupField = 0x58;  // §3.1: s32 group, -1 when none

[[noreturn]] void refuse(uint64_t line, size_t column, const std::string& why) {
    fail(Errc::bad_value, 0, fmt::format("line {}, column {}: {}", line, column, why));
}

// The members cell: instance indices separated by blanks. With `owner` (the
// line that already lists an instance), each is listed once in its kind.
std::vector<uint16_t> read_members(std::string_view cell, size_t instances, uint64_t line, std::map<uint16_t, uint64_t>* owner) {
    std::vector<uint16_t> out;
    for (const std::string_view word : words(cell)) {
        uint64_t index = 0;
        const auto [stop, error] = std::from_chars(word.data(), word.data() + word.size(), index);
        if (error != std::errc() || stop != word.data() + word.size())
            refuse(line, 4, fmt::format("{:?} is not an instance index", std::string(word)));
        if (index >= instances) refuse(line, 4, fmt::format("{} is not an instance: the table has {} rows", index, instances));
        if (index > kMaxGroupMember)
            refuse(line, 4, fmt::format("instance {} cannot be in a group: members are 15-bit indices, at most {} (formats-gameplay.md 3.11)",
                                        index, kMaxGroupMember));
        const auto member = static_cast<uint16_t>(index);
        if (owner)
            if (const auto [it, fresh] = owner->emplace(member, line); !fresh)
                refuse(line, 4, fmt::format("moby {} is already a member on line {}: a moby is in one group at most (formats-gameplay.md 3.1)",
                                            index, it->second));
        out.push_back(member);
    }
    return out;
}

}  // namespace

void import_groups(const Gameplay& g, std::string_view text, BlockBytes& blocks) {
    auto rows = csv::parse(text);
    if (!rows.ok()) fail(Errc::bad_value, 0, rows.error().message);
    const std::vector<std::string> header = {"kind", "group", "count", "members"};
    if (rows->empty() || rows->front().cells != header) fail(Errc::bad_value, 0, "line 1: the header must stay kind,group,count,members");
    std::map<std::string_view, std::vector<std::vector<uint16_t>>> after;
    std::map<uint16_t, uint64_t> moby_owners;  // the references say one group at most of a moby only (§3.1)
    for (size_t r = 1; r < rows->size(); ++r) {
        const csv::Row& row = (*rows)[r];
        if (row.cells.size() != header.size())
            fail(Errc::bad_value, 0, fmt::format("line {}: {} cells where the header has {}", row.line, row.cells.size(), header.size()));
        const std::string_view name = trimmed(row.cells[0]);
        const Kind* kind = nullptr;
        for (const Kind& k : kKinds)
            if (name == k.name) kind = &k;
        if (!kind) refuse(row.line, 1, fmt::format("{:?} is not a kind of group: moby, tie or shrub", std::string(name)));
        // The group cell tells a kept row from a new one, and nothing else:
        // a group is what its members cell lists, numbered in line order.
        const std::string_view number = trimmed(row.cells[1]);
        if (!number.empty() && !parse_field(FieldType::s32, number))
            refuse(row.line, 2, fmt::format("{:?} is not a group number (empty for a new group)", std::string(number)));
        const Decoded<RecordTable>& instances = table_of(g, kind->instances);
        if (!instances.ok())
            fail(Errc::bad_value, 0, fmt::format("line {}: the {} instances did not decode ({}), so their groups cannot be checked", row.line,
                                                 kind->name, instances.error));
        auto members = read_members(row.cells[3], instances.value->count(), row.line,
                                    kind->instances == Block::mobies ? &moby_owners : nullptr);
        if (const std::string_view count = trimmed(row.cells[2]); !count.empty() && count != std::to_string(members.size()))
            refuse(row.line, 3, fmt::format("count {:?} is not the number of members listed: {} (leave it empty to have it counted)",
                                            std::string(count), members.size()));
        after[kind->name].push_back(std::move(members));
    }
    for (const Kind& kind : kKinds) {
        const Decoded<Groups>& d = g.*kind.decoded;
        auto& now = after[kind.name];
        if (!d.ok()) {
            if (!d.present() && now.empty()) continue;
            fail(Errc::bad_value, 0, d.present() ? fmt::format("the {} groups block did not decode ({}), so it cannot be written again", kind.name, d.error)
                                                 : fmt::format("this level has no {} groups block to hold a {} group", kind.name, kind.name));
        }
        std::vector<std::vector<uint16_t>> before;
        for (const Group& group : d.value->groups) before.push_back(group.members);
        if (now == before) continue;
        if (now.size() > static_cast<size_t>(INT32_MAX / 4))
            fail(Errc::too_large, 0, fmt::format("{} {} groups: the block's s32 offsets hold at most {}", now.size(), kind.name, INT32_MAX / 4));
        blocks[static_cast<size_t>(kind.groups)] = encode_groups(now);
        if (kind.instances != Block::mobies) continue;
        // §3.1: each moby's group field names the group that lists it.
        RecordTable mobies = *g.mobies.value;
        std::vector<int32_t> group_of(mobies.count(), -1);
        for (size_t k = 0; k < now.size(); ++k)
            for (uint16_t m : now[k]) group_of[m] = static_cast<int32_t>(k);
        for (size_t i = 0; i < mobies.count(); ++i)
            if (mobies.s32(i, kMobyGroupField) != group_of[i]) put_le(mobies.bytes, i * mobies.schema->size + kMobyGroupField, static_cast<uint32_t>(group_of[i]), 4);
        if (mobies.bytes != g.mobies.value->bytes) blocks[static_cast<size_t>(Block::mobies)] = encode_table(mobies);
    }
}

}  // namespace gcfs::formats::gameplay
