#include "edit/texel_checks.h"

#include <algorithm>

#include <fmt/format.h>

#include "edit/level_parts.h"

namespace gcfs::edit {

std::map<std::string, std::string> texel_edit_failing_checks(const std::vector<tree::Check>& base_decoders, tree::Disc& next, size_t level,
                                                             formats::ByteSpan container, formats::ByteSpan core, formats::Bytes& scratch) {
    std::map<std::string, std::string> out;
    for (const auto& check : next.level(level).checks)
        if (!check.ok) out.emplace(check.name, check.detail);
    for (const auto& check : base_decoders)
        if (!check.ok && check.name != tree::kCoreDecodesCheck) out.emplace(check.name, check.detail);
    // The new stream, decoded as its reader decodes it (exactly the declared size, §6.1 0x8C).
    const auto decoded = LevelParts::decode_in(container, "core_data", scratch);
    if (!decoded.ok())
        out.emplace(tree::kCoreDecodesCheck, decoded.error().describe());
    else if (!std::equal(scratch.begin(), scratch.end(), core.begin(), core.end()))
        out.emplace(tree::kCoreDecodesCheck, fmt::format("the written stream decodes to {} bytes other than the {} the edits made", scratch.size(), core.size()));
    return out;
}

}  // namespace gcfs::edit
