#include "edit/level_parts.h"

#include <algorithm>

#include <fmt/format.h>

#include "formats/disc/level_rewrite.h"
#include "formats/wad_lz/wad_lz.h"

namespace gcfs::edit {
namespace {

using formats::Bytes;
using formats::Errc;

constexpr uint64_t kCoreCompressedSize = 0x88;    // formats.md §6.1
constexpr uint64_t kCoreDecompressedSize = 0x8C;  // formats.md §6.1

}  // namespace

LevelParts::LevelParts(Bytes container) : recorded_(std::make_shared<Recorded>(Recorded{std::move(container), {}, {}})) {}

bool LevelParts::compressed(const std::string& part) {
    return part == "gameplay" || part == "core_data" || part == "transition_textures" || part.starts_with("hud_bank_");
}

formats::Result<formats::ByteSpan> LevelParts::stored_in(formats::ByteSpan container, const std::string& part) {
    return formats::capture([&] {
        auto header = formats::parse_level_header(container);
        if (!header.ok()) formats::fail(header.error().code, header.error().offset, "level header: " + header.error().message);
        const uint64_t sectors = container.size() / formats::kSectorSize;
        if (const auto problems = formats::extent_problems(*header, sectors); !problems.empty())
            formats::fail(problems.front().code, problems.front().offset, problems.front().message);
        // §3.1: the extents that are parts of their own (gameplay at 0x20, the occlusion copy at 0x28).
        for (const auto& [name, range, at] : {std::tuple{"gameplay", header->gameplay, 0x20}, std::tuple{"occlusion", header->occlusion, 0x28}}) {
            if (part != name) continue;
            if (range.empty()) formats::fail(Errc::bad_value, static_cast<uint64_t>(at), fmt::format("the container has no {} extent", name));
            return container.subspan(range.byte_offset(), range.byte_size());
        }
        const formats::ByteSpan lump = container.subspan(header->data.byte_offset(), header->data.byte_size());
        auto sections = formats::parse_data_lump_header(lump, lump.size());
        if (!sections.ok()) formats::fail(sections.error().code, sections.error().offset, "data lump: " + sections.error().message);
        for (const auto& s : formats::data_lump_sections(*sections))
            if (s.name == part)
                return lump.subspan(s.range.offset, s.range.end() - s.range.offset);
        formats::fail(Errc::bad_value, 0, fmt::format("this level has no {} part", part));
    });
}

formats::Result<Bytes> LevelParts::content(const std::string& part) {
    auto bytes = view(part);
    if (!bytes.ok()) return bytes.error();
    return Bytes(bytes->begin(), bytes->end());
}

formats::Result<formats::ByteSpan> LevelParts::view(const std::string& part) {
    if (const auto it = replaced_.find(part); it != replaced_.end()) return formats::ByteSpan(it->second);
    auto bytes = recorded(part);
    if (!bytes.ok()) return bytes.error();
    return formats::ByteSpan(**bytes);
}

formats::Result<const Bytes*> LevelParts::recorded(const std::string& part) {
    auto& decoded_parts = recorded_->decoded;
    if (const auto it = decoded_parts.find(part); it != decoded_parts.end()) return &it->second;
    Bytes decoded;
    if (compressed(part)) {
        auto size = decode_in(recorded_->container, part, decoded);
        if (!size.ok()) return size.error();
    } else {
        auto raw = stored_in(recorded_->container, part);
        if (!raw.ok()) return raw.error();
        decoded.assign(raw->begin(), raw->end());
    }
    return &(decoded_parts[part] = std::move(decoded));
}

formats::Result<uint64_t> LevelParts::decode_in(formats::ByteSpan container, const std::string& part, Bytes& out) {
    auto raw = stored_in(container, part);
    if (!raw.ok()) return raw.error();
    if (part != "core_data") {
        auto decoded = formats::wad_lz::decompress(*raw);
        if (!decoded.ok()) return decoded.error();
        out = std::move(*decoded);
        return out.size();
    }
    // §5.1: the stream does not say how much it decodes to; the core header does (§6.1 0x8C).
    auto index = stored_in(container, "core_index");
    if (!index.ok()) return index.error();
    if (index->size() < kCoreDecompressedSize + 4) return formats::FormatError{Errc::truncated, 0, "core_index is shorter than the core header"};
    const auto size = static_cast<uint64_t>(formats::s32_at(*index, kCoreDecompressedSize));  // a negative one: too large to decode
    auto declared = formats::wad_lz::check_decodable(*raw, size);
    if (!declared.ok()) return declared.error();
    out.resize(size);
    return formats::wad_lz::decompress_into(*raw, out);
}

const std::vector<formats::wad_lz::StepDecoder::Cursor>* LevelParts::block_starts(const std::string& part, formats::ByteSpan stream) {
    auto [it, fresh] = recorded_->blocks.try_emplace(part);
    if (fresh) {
        auto found = formats::wad_lz::block_starts(stream);
        if (found.ok()) it->second = std::move(*found);
    }
    return it->second ? &*it->second : nullptr;
}

bool LevelParts::only_texels_differ(const formats::CoreRegion& textures) {
    for (const auto& [name, content] : replaced_) {
        const auto old = recorded(name);
        if (!old.ok() || (*old)->size() != content.size()) return false;
        const Bytes& before = **old;
        if (name == "gs_ram") continue;
        if (name != "core_data") {
            if (before != content) return false;
            continue;
        }
        // Alike outside [textures.offset, textures.offset + size), the region clipped to the part.
        const uint64_t from = std::min<uint64_t>(textures.offset, before.size());
        const uint64_t to = std::min<uint64_t>(from + textures.size, before.size());
        if (!std::equal(before.begin(), before.begin() + static_cast<int64_t>(from), content.begin()) ||
            !std::equal(before.begin() + static_cast<int64_t>(to), before.end(), content.begin() + static_cast<int64_t>(to)))
            return false;
    }
    return true;
}

void LevelParts::replace(const std::string& part, Bytes content) { replaced_[part] = std::move(content); }

formats::Result<Bytes> LevelParts::rebuild() {
    std::map<std::string, Bytes> parts;
    for (const auto& [name, content] : replaced_) {
        if (!compressed(name)) {
            parts[name] = content;
            continue;
        }
        auto old = stored_in(recorded_->container, name);
        if (!old.ok()) return old.error();
        auto header = formats::wad_lz::read_header(*old);
        const std::string tag = header.ok() ? header->tag : name;  // §5.1: the tag is not read back; keep the old one
        // The old stream's packets kept away from what changed (wad_lz.h recompress).
        const auto plain = recorded(name);
        const auto* blocks = plain.ok() ? block_starts(name, *old) : nullptr;
        parts[name] = blocks ? formats::wad_lz::recompress(*old, *blocks, **plain, content, tag) : formats::wad_lz::compress(content, tag);
    }
    if (const auto core = parts.find("core_data"); core != parts.end()) {
        auto index = content("core_index");
        if (!index.ok()) return index.error();
        Bytes patched = *index;
        if (patched.size() < kCoreDecompressedSize + 4)
            return formats::FormatError{Errc::truncated, 0, "core_index is shorter than the core header"};
        formats::put_u32_at(patched, kCoreCompressedSize, static_cast<uint32_t>(core->second.size()));
        formats::put_u32_at(patched, kCoreDecompressedSize, static_cast<uint32_t>(replaced_.at("core_data").size()));
        parts["core_index"] = std::move(patched);
    }
    return formats::rewrite_level_container(recorded_->container, parts);
}

formats::Bytes level_part(LevelParts& parts, const std::string& part) {
    auto bytes = parts.content(part);
    if (!bytes.ok()) throw EditRefused(fmt::format("the level's {} does not decode: {}", part, bytes.error().describe()));
    return std::move(*bytes);
}

}  // namespace gcfs::edit
