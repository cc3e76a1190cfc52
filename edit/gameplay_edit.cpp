#include "edit/gameplay_edit.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "edit/edit_refused.h"
#include "edit/level_parts.h"
#include "formats/gameplay/import.h"
#include "formats/gameplay/rebase.h"
#include "formats/occlusion/occlusion.h"

namespace gcfs::edit {
namespace {

formats::gameplay::LevelContext context_of(LevelParts& parts, const tree::LevelScan& level) {
    formats::gameplay::LevelContext context;
    // formats.md 6.3: the classes the level's core holds, which a new tie or shrub may name.
    for (size_t kind = 0; kind < context.held.size(); ++kind)
        for (const auto& entry : level.classes[kind]) context.held[kind].insert(entry.o_class);
    if (level.header && !level.header->occlusion.empty()) context.occlusion_copy = level_part(parts, "occlusion");
    return context;
}

}  // namespace

std::string show_visibility_bits(LevelParts& parts, const tree::LevelScan& level, const formats::gameplay::Visibility& v) {
    const formats::CoreRegion* grid = level.region("occlusion");
    if (!grid) return "the level has no occlusion grid, so nothing is culled by one";
    formats::Bytes core = level_part(parts, "core_data");
    if (grid->offset + grid->size > core.size()) throw EditRefused("the occlusion grid lies past core_data's end");
    auto changed = formats::with_bits_everywhere(formats::ByteSpan(core).subspan(grid->offset, grid->size), v.shown_everywhere, v.freed);
    if (!changed.ok()) throw EditRefused("the occlusion grid (formats.md 8.1): " + changed.error().describe());
    std::copy(changed->begin(), changed->end(), core.begin() + static_cast<int64_t>(grid->offset));
    parts.replace("core_data", std::move(core));
    std::string out;
    if (!v.shown_everywhere.empty()) out = fmt::format("visibility bit{} {} set in every occlusion mask", v.shown_everywhere.size() == 1 ? "" : "s",
                                                       fmt::join(v.shown_everywhere, " "));
    if (!v.freed.empty()) out += fmt::format("{}bit{} {} no mapping names cleared", out.empty() ? "" : "; ", v.freed.size() == 1 ? "" : "s",
                                             fmt::join(v.freed, " "));
    return out;
}

formats::Bytes rebase_gameplay_file(LevelParts& parts, const tree::LevelScan& level, std::string_view name, formats::ByteSpan earlier,
                                    formats::ByteSpan content) {
    const formats::Bytes gameplay = level_part(parts, "gameplay");
    const auto context = context_of(parts, level);
    auto text = formats::gameplay::rebase_text(gameplay, name, formats::as_text(earlier), formats::as_text(content), &context);
    if (!text.ok()) throw EditRefused("the file's earlier edit no longer reads, so this save cannot be placed: " + text.error().message);
    return formats::Bytes(text->begin(), text->end());
}

std::string apply_gameplay_file(LevelParts& parts, const tree::LevelScan& level, std::string_view name, formats::ByteSpan content) {
    const formats::Bytes gameplay = level_part(parts, "gameplay");
    const auto context = context_of(parts, level);
    const bool has_copy = context.occlusion_copy.has_value();
    auto imported = formats::gameplay::import_file(gameplay, name, formats::as_text(content), &context);
    if (!imported.ok()) throw EditRefused(imported.error().message);
    if (imported->gameplay == gameplay) return "no change to gameplay.bin";
    parts.replace("gameplay", std::move(imported->gameplay));
    std::string status = "gameplay.bin encoded again (" + imported->note + ")";
    const auto& v = imported->visibility;
    if (v.mappings_changed && has_copy) {
        parts.replace("occlusion", formats::gameplay::encode_occlusion(*v.mappings));
        status += "; occlusion.bin, the mappings' copy, written again";
    }
    if (!v.shown_everywhere.empty() || !v.freed.empty()) status += "; " + show_visibility_bits(parts, level, v);
    return status + "; rows not changed keep their bytes";
}

}  // namespace gcfs::edit
