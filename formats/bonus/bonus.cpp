#include "formats/bonus/bonus.h"

#include <fmt/format.h>

#include <string_view>

namespace gcfs::formats::bonus {

Item item_of(const RangeTable& table) {
    const std::string_view name = table.name;
    return name == "credits_text" ? Item::credits_text : name == "credits_images" ? Item::rgba_image : Item::compressed_pif;
}

Result<std::vector<CreditsPart>> read_credits_text(ByteSpan range) {
    return capture([&]() -> std::vector<CreditsPart> {
        require(range, 0, 4 * kCreditsParts, "credits_text offsets");
        std::vector<int32_t> offsets;
        for (int i = 0; i < kCreditsParts; ++i) offsets.push_back(s32_at(range, 4ull * static_cast<uint64_t>(i)));
        std::vector<CreditsPart> parts;
        for (int i = 0; i < kCreditsParts; ++i) {
            if (offsets[static_cast<size_t>(i)] < 0) continue;  // Wrench writes -1 for an absent part
            int64_t end = static_cast<int64_t>(range.size());
            for (int j = i + 1; j < kCreditsParts; ++j)
                if (offsets[static_cast<size_t>(j)] >= 0) {
                    end = offsets[static_cast<size_t>(j)];
                    break;
                }
            const int32_t at = offsets[static_cast<size_t>(i)];
            if (at < 4 * kCreditsParts || end < at || end > static_cast<int64_t>(range.size()))
                fail(Errc::out_of_range, 4ull * static_cast<uint64_t>(i),
                     fmt::format("credits part {} at 0x{:x}..0x{:x} of a {}-byte range (after the offsets, ascending)", i, at, end, range.size()));
            parts.push_back({i, {at, static_cast<int32_t>(end - at)}});
        }
        return parts;
    });
}

Bytes write_credits_text(const std::array<Bytes, kCreditsParts>& parts) {
    ByteWriter out;
    for (int i = 0; i < kCreditsParts; ++i) out.s32(-1);
    for (int i = 0; i < kCreditsParts; ++i) {
        if (parts[static_cast<size_t>(i)].empty()) continue;
        out.pad_to(0x10);
        out.patch_u32(4ull * static_cast<uint64_t>(i), static_cast<uint32_t>(out.size()));
        out.append(parts[static_cast<size_t>(i)]);
    }
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::bonus
