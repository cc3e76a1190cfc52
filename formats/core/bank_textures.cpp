#include "formats/core/bank_textures.h"

#include <algorithm>

#include <fmt/format.h>

#include "formats/core/core_tables.h"
#include "formats/export/texture_png.h"

namespace gcfs::formats {

Result<std::vector<BankTexture>> parse_bank_textures(ByteSpan idx, ArrayRange range, bool particle) {
    return capture([&] {
        if (range.count < 0 || range.offset < 0) fail(Errc::out_of_range, 0, "negative bank texture table range");
        const auto count = static_cast<uint64_t>(range.count);
        require(idx, static_cast<uint64_t>(range.offset), count * kTextureEntrySize, particle ? "particle texture table" : "fx texture table");
        std::vector<BankTexture> out;
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t at = static_cast<uint64_t>(range.offset) + kTextureEntrySize * i;
            if (particle) out.push_back({s32_at(idx, at), s32_at(idx, at + 8), s32_at(idx, at + 12), s32_at(idx, at + 12)});
            else out.push_back({s32_at(idx, at), s32_at(idx, at + 4), s32_at(idx, at + 8), s32_at(idx, at + 12)});
        }
        return out;
    });
}

std::string bank_texture_outside(const BankTexture& t, int32_t bank_offset, uint64_t size) {
    if (t.width <= 0 || t.height <= 0 || t.width > 1024 || t.height > 1024) return fmt::format("size {}x{}", t.width, t.height);
    const int64_t texels = int64_t{bank_offset} + t.texels, palette = int64_t{bank_offset} + t.palette;
    const uint64_t bytes = static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height);
    if (texels < 0 || static_cast<uint64_t>(texels) + bytes > size)
        return fmt::format("texels [{}, +{}) outside the {}-byte core", texels, bytes, size);
    if (palette < 0 || static_cast<uint64_t>(palette) + kPaletteBytes > size)
        return fmt::format("palette at {} outside the {}-byte core", palette, size);
    return {};
}

std::string bank_texture_problem(const BankTexture& t, int32_t bank_offset, uint64_t core_size) {
    if (bank_offset <= 0 && t.width > 0 && t.height > 0 && t.width <= 1024 && t.height <= 1024)  // the header names no bank
        return fmt::format("texels [{}, +{}) outside the {}-byte core", int64_t{bank_offset} + t.texels,
                           static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height), core_size);
    return bank_texture_outside(t, bank_offset, core_size);
}

std::pair<uint64_t, uint64_t> bank_texture_span(const BankTexture& t, int32_t bank_offset) {
    const auto texels = static_cast<uint64_t>(int64_t{bank_offset} + t.texels), palette = static_cast<uint64_t>(int64_t{bank_offset} + t.palette);
    const uint64_t bytes = static_cast<uint64_t>(t.width) * static_cast<uint64_t>(t.height);
    return {std::min(texels, palette), std::max(texels + bytes, palette + kPaletteBytes)};
}

Result<Bytes> bank_texture_png(const BankTexture& t, ByteSpan core, int32_t bank_offset) {
    return capture([&] {
        if (t.width <= 0 || t.height <= 0 || t.width > 1024 || t.height > 1024) fail(Errc::bad_value, 0, fmt::format("size {}x{}", t.width, t.height));
        const auto w = static_cast<uint32_t>(t.width), h = static_cast<uint32_t>(t.height);
        const int64_t texels = int64_t{bank_offset} + t.texels, palette = int64_t{bank_offset} + t.palette;
        if (texels < 0 || static_cast<uint64_t>(texels) + uint64_t{w} * h > core.size() || palette < 0 ||
            static_cast<uint64_t>(palette) + kPaletteBytes > core.size())
            fail(Errc::out_of_range, static_cast<uint64_t>(std::max<int64_t>(texels, 0)),
                 fmt::format("texels at {} or palette at {} outside the {} bytes decoded", texels, palette, core.size()));
        return indexed_texture_png(w, h, core.subspan(static_cast<uint64_t>(texels), uint64_t{w} * h),
                                   core.subspan(static_cast<uint64_t>(palette), kPaletteBytes));
    });
}

}  // namespace gcfs::formats
