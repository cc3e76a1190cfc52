#include "edit/level_parts.h"

#include <fmt/format.h>

#include "formats/disc/level_rewrite.h"
#include "formats/wad_lz/wad_lz.h"

namespace gcfs::edit {
namespace {

using formats::Bytes;
using formats::Errc;

constexpr uint64_t kCoreCompressedSize = 0x88;    // formats.md §6.1
constexpr uint64_t kCoreDecompressedSize = 0x8C;  // formats.md §6.1

void put_s32(Bytes& bytes, uint64_t at, uint64_t value) {
    for (int i = 0; i < 4; ++i) bytes.at(at + i) = static_cast<uint8_t>(value >> (8 * i));
}

}  // namespace

LevelParts::LevelParts(Bytes container) : container_(std::move(container)) {}

bool LevelParts::compressed(const std::string& part) {
    return part == "gameplay" || part == "core_data" || part == "transition_textures" || part.starts_with("hud_bank_");
}

formats::Result<Bytes> LevelParts::stored(const std::string& part) const {
    return formats::capture([&] {
        auto header = formats::parse_level_header(container_);
        if (!header.ok()) formats::fail(header.error().code, header.error().offset, "level header: " + header.error().message);
        const uint64_t sectors = container_.size() / formats::kSectorSize;
        if (const auto problems = formats::extent_problems(*header, sectors); !problems.empty())
            formats::fail(problems.front().code, problems.front().offset, problems.front().message);
        const formats::ByteSpan whole(container_);
        // §3.1: the extents that are parts of their own (gameplay at 0x20, the occlusion copy at 0x28).
        for (const auto& [name, range, at] : {std::tuple{"gameplay", header->gameplay, 0x20}, std::tuple{"occlusion", header->occlusion, 0x28}}) {
            if (part != name) continue;
            if (range.empty()) formats::fail(Errc::bad_value, static_cast<uint64_t>(at), fmt::format("the container has no {} extent", name));
            return Bytes(whole.begin() + static_cast<int64_t>(range.byte_offset()), whole.begin() + static_cast<int64_t>(range.byte_offset() + range.byte_size()));
        }
        const formats::ByteSpan lump = whole.subspan(header->data.byte_offset(), header->data.byte_size());
        auto sections = formats::parse_data_lump_header(lump, lump.size());
        if (!sections.ok()) formats::fail(sections.error().code, sections.error().offset, "data lump: " + sections.error().message);
        for (const auto& s : formats::data_lump_sections(*sections))
            if (s.name == part)
                return Bytes(lump.begin() + s.range.offset, lump.begin() + s.range.end());
        formats::fail(Errc::bad_value, 0, fmt::format("this level has no {} part", part));
    });
}

formats::Result<Bytes> LevelParts::content(const std::string& part) {
    if (const auto it = replaced_.find(part); it != replaced_.end()) return it->second;
    auto bytes = recorded(part);
    if (!bytes.ok()) return bytes.error();
    return **bytes;
}

formats::Result<const Bytes*> LevelParts::recorded(const std::string& part) {
    if (const auto it = decoded_.find(part); it != decoded_.end()) return &it->second;
    auto raw = stored(part);
    if (!raw.ok()) return raw.error();
    if (!compressed(part)) return &(decoded_[part] = std::move(*raw));
    formats::Result<Bytes> decoded = formats::Bytes{};
    if (part == "core_data") {  // §5.1: the stream does not say; the core header does (§6.1 0x8C)
        auto index = stored("core_index");
        if (!index.ok()) return index.error();
        if (index->size() < kCoreDecompressedSize + 4)
            return formats::FormatError{Errc::truncated, 0, "core_index is shorter than the core header"};
        decoded = formats::wad_lz::decompress(*raw, static_cast<uint64_t>(formats::s32_at(*index, kCoreDecompressedSize)));
    } else {
        decoded = formats::wad_lz::decompress(*raw);
    }
    if (!decoded.ok()) return decoded.error();
    return &(decoded_[part] = std::move(*decoded));
}

void LevelParts::replace(const std::string& part, Bytes content) { replaced_[part] = std::move(content); }

formats::Result<Bytes> LevelParts::rebuild() {
    std::map<std::string, Bytes> parts;
    for (const auto& [name, content] : replaced_) {
        if (!compressed(name)) {
            parts[name] = content;
            continue;
        }
        auto old = stored(name);
        if (!old.ok()) return old.error();
        auto header = formats::wad_lz::read_header(*old);
        const std::string tag = header.ok() ? header->tag : name;  // §5.1: the tag is not read back; keep the old one
        // The old stream's packets kept away from what changed (wad_lz.h recompress).
        const auto plain = recorded(name);
        parts[name] = plain.ok() ? formats::wad_lz::recompress(*old, **plain, content, tag) : formats::wad_lz::compress(content, tag);
    }
    if (const auto core = parts.find("core_data"); core != parts.end()) {
        auto index = content("core_index");
        if (!index.ok()) return index.error();
        Bytes patched = *index;
        if (patched.size() < kCoreDecompressedSize + 4)
            return formats::FormatError{Errc::truncated, 0, "core_index is shorter than the core header"};
        put_s32(patched, kCoreCompressedSize, core->second.size());
        put_s32(patched, kCoreDecompressedSize, replaced_.at("core_data").size());
        parts["core_index"] = std::move(patched);
    }
    return formats::rewrite_level_container(container_, parts);
}

}  // namespace gcfs::edit
