#include "formats/disc/level_rewrite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "formats/disc/data_lump.h"
#include "formats/disc/level_wad.h"

namespace gcfs::formats {
namespace {

constexpr uint64_t kLumpAlign = 0x40;  // §4.1: Wrench aligns every lump section to 0x40

// One part of a container or lump: where it was, in the unit of its parent.
struct Slot {
    std::string name;
    int64_t offset, size;  // as recorded
    const Bytes* replacement;  // null: kept as it is
};

int32_t checked_s32(uint64_t v, const std::string& what) {
    if (v > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
        fail(Errc::out_of_range, 0, fmt::format("{} would reach {} units, past what a 32-bit field holds", what, v));
    return static_cast<int32_t>(v);
}

// Lays `slots` out again in `parent`, whose offsets and sizes count `unit`
// bytes: each keeps its place plus the growth of the replaced slots before
// it, each growth rounded up to `align` bytes (a replacement that still fits
// keeps its slot's room). What lies between slots moves with the slot before
// it, so gaps and padding are kept. Returns each slot's new offset and size
// in units (a replaced lump section's size is its exact byte count).
// `parent` is written from `old` (the parent as recorded), once: its room
// is reserved for every growth first.
std::vector<std::pair<int64_t, int64_t>> relayout(ByteSpan old, Bytes& parent, const std::vector<Slot>& slots, uint64_t unit, uint64_t align) {
    std::vector<size_t> order(slots.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return slots[a].offset < slots[b].offset; });
    auto bytes_of = [&](size_t i) {
        return std::pair{static_cast<uint64_t>(slots[i].offset) * unit, static_cast<uint64_t>(slots[i].size) * unit};
    };
    uint64_t growth = 0;
    for (const auto& slot : slots)
        if (slot.replacement && slot.replacement->size() > static_cast<uint64_t>(slot.size) * unit)
            growth += align_up(slot.replacement->size() - static_cast<uint64_t>(slot.size) * unit, align);
    parent.clear();
    parent.reserve(old.size() + growth);
    parent.assign(old.begin(), old.begin() + static_cast<int64_t>(order.empty() ? old.size() : bytes_of(order[0]).first));
    std::vector<std::pair<int64_t, int64_t>> placed(slots.size());
    for (size_t k = 0; k < order.size(); ++k) {
        const size_t i = order[k];
        const auto [at, room] = bytes_of(i);
        const uint64_t next = k + 1 < order.size() ? bytes_of(order[k + 1]).first : old.size();
        if (at + room > next)
            fail(Errc::bad_value, at, fmt::format("{} overlaps the part after it; such a layout is not rewritten", slots[i].name));
        const Bytes* with = slots[i].replacement;
        const uint64_t held = with ? with->size() : room;
        const uint64_t new_room = held <= room ? room : room + align_up(held - room, align);
        const uint64_t new_at = parent.size();
        parent.resize(new_at + new_room, 0);
        const uint8_t* from = with ? with->data() : old.data() + at;
        std::copy(from, from + held, parent.begin() + static_cast<int64_t>(new_at));
        parent.insert(parent.end(), old.begin() + static_cast<int64_t>(at + room), old.begin() + static_cast<int64_t>(next));
        placed[i] = {static_cast<int64_t>(new_at / unit),
                     with ? static_cast<int64_t>(unit == 1 ? held : new_room / unit) : slots[i].size};
    }
    return placed;
}

ByteRange* lump_range(DataLumpHeader& h, const std::string& name) {
    if (name == "overlay") return &h.overlay;
    if (name == "core_index") return &h.core_index;
    if (name == "gs_ram") return &h.gs_ram;
    if (name == "hud_header") return &h.hud_header;
    for (int i = 0; i < 5; ++i)
        if (name == fmt::format("hud_bank_{}", i)) return &h.hud_banks[i];
    if (name == "core_data") return &h.core_data;
    if (name == "transition_textures") return &h.transition_textures;
    return nullptr;
}

// The data lump with its replaced sections; sections move along as in relayout.
Bytes rewrite_lump(ByteSpan lump_bytes, const std::map<std::string, Bytes>& parts) {
    auto header = parse_data_lump_header(lump_bytes, lump_bytes.size());
    if (!header.ok()) fail(header.error().code, header.error().offset, "data lump: " + header.error().message);
    DataLumpHeader h = *header;
    std::vector<Slot> slots;
    std::vector<ByteRange*> ranges;
    for (const auto& section : data_lump_sections(h)) {
        const auto part = parts.find(section.name);
        slots.push_back({section.name, section.range.offset, section.range.size, part == parts.end() ? nullptr : &part->second});
        ranges.push_back(lump_range(h, section.name));
    }
    for (const auto& [name, bytes] : parts) {
        if (name == "gameplay") continue;
        if (!lump_range(h, name)) fail(Errc::bad_value, 0, fmt::format("a level has no part named {}", name));
        if (lump_range(h, name)->empty()) fail(Errc::bad_value, 0, fmt::format("this level's data lump has no {} section to replace", name));
    }
    Bytes lump;
    const auto placed = relayout(lump_bytes, lump, slots, 1, kLumpAlign);
    for (size_t i = 0; i < slots.size(); ++i) {
        ranges[i]->offset = checked_s32(static_cast<uint64_t>(placed[i].first), slots[i].name + " offset");
        ranges[i]->size = checked_s32(static_cast<uint64_t>(placed[i].second), slots[i].name + " size");
    }
    // A section moved by a growth rounded to 0x40 keeps its 0x40 alignment.
    ByteWriter w;
    write_data_lump_header(w, h);
    std::copy(w.bytes().begin(), w.bytes().end(), lump.begin());
    return lump;
}

}  // namespace

Result<Bytes> rewrite_level_container(ByteSpan container, const std::map<std::string, Bytes>& parts) {
    return capture([&] {
        auto parsed = parse_level_header(container);
        if (!parsed.ok()) fail(parsed.error().code, parsed.error().offset, parsed.error().message);
        LevelHeader h = *parsed;
        const uint64_t file_sectors = container.size() / kSectorSize;
        if (const auto problems = extent_problems(h, file_sectors); !problems.empty())
            fail(problems.front().code, problems.front().offset, problems.front().message);

        // The data lump first: its new size decides the data extent's.
        std::map<std::string, Bytes> extent_parts;
        bool lump_changed = false;
        auto own_extent = [](const std::string& name) { return name == "gameplay" || name == "occlusion"; };  // §3.1 0x20, 0x28
        for (const auto& [name, bytes] : parts) {
            if (own_extent(name))
                extent_parts.emplace(name, bytes);
            else
                lump_changed = true;
        }
        if (lump_changed) {
            if (h.data.empty()) fail(Errc::bad_value, 0x10, "the container has no data lump");
            std::map<std::string, Bytes> lump_parts;
            for (const auto& [name, bytes] : parts)
                if (!own_extent(name)) lump_parts.emplace(name, bytes);
            extent_parts.emplace("data", rewrite_lump(container.subspan(h.data.byte_offset(), h.data.byte_size()), lump_parts));
        }
        if (extent_parts.contains("gameplay") && h.gameplay.empty()) fail(Errc::bad_value, 0x20, "the container has no gameplay extent");
        if (extent_parts.contains("occlusion") && h.occlusion.empty()) fail(Errc::bad_value, 0x28, "the container has no occlusion extent");

        std::vector<Slot> slots;
        std::vector<SectorRange*> ranges;
        auto add = [&](const std::string& name, SectorRange& r) {
            if (r.empty()) return;
            const auto part = extent_parts.find(name);
            slots.push_back({name, r.offset, r.size, part == extent_parts.end() ? nullptr : &part->second});
            ranges.push_back(&r);
        };
        add("data", h.data);
        add("sound_bank", h.sound_bank);
        add("gameplay", h.gameplay);
        add("occlusion", h.occlusion);
        for (int i = 0; i < 3; ++i) add(fmt::format("chunk_{}", i), h.chunks[i]);
        for (int i = 0; i < 3; ++i) add(fmt::format("chunk_sound_bank_{}", i), h.chunk_sound_banks[i]);

        Bytes out;
        const auto placed = relayout(container.first(file_sectors * kSectorSize), out, slots, kSectorSize, kSectorSize);
        for (size_t i = 0; i < slots.size(); ++i) {
            ranges[i]->offset = checked_s32(static_cast<uint64_t>(placed[i].first), slots[i].name + " sector");
            ranges[i]->size = checked_s32(static_cast<uint64_t>(placed[i].second), slots[i].name + " sectors");
        }
        put_level_extents(std::span<uint8_t>(out).first(static_cast<uint64_t>(h.header_size)), h);
        return out;
    });
}

}  // namespace gcfs::formats
