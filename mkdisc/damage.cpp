#include "mkdisc/damage.h"

#include <stdexcept>

#include "formats/tfrag_read.h"

namespace gcfs::mkdisc {
namespace {

struct Named {
    const char* name;
    Damage kind;
};
constexpr Named kNames[] = {{"tfrag-count", Damage::tfrag_count}, {"vif-desync", Damage::vif_desync}};

}  // namespace

std::optional<DamageSpec> parse_damage(const std::string& text) {
    const size_t colon = text.find(':');
    const std::string name = text.substr(0, colon);
    for (const auto& n : kNames) {
        if (name != n.name) continue;
        DamageSpec spec{n.kind};
        if (colon != std::string::npos) {
            try {
                spec.level = std::stoi(text.substr(colon + 1));
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
        return spec;
    }
    return std::nullopt;
}

std::vector<std::string> damage_names() {
    std::vector<std::string> names;
    for (const auto& n : kNames) names.emplace_back(n.name);
    return names;
}

void damage_tfrags(formats::Bytes& block, Damage kind) {
    using namespace formats;
    const TfragsHeader header = parse_tfrags_header(block).value();
    if (header.tfrag_count < 3) throw std::invalid_argument("tfrag damage needs at least 3 patches");
    switch (kind) {
        case Damage::tfrag_count:
            block.at(tfrag_patch_header_offset(header, 1) + 0x3C) += 1;  // vert_count
            return;
        case Damage::vif_desync: {
            const TfragPatchHeader patch = parse_tfrag_patch_header(block, header, 2).value();
            const TfragListSpans spans = tfrag_list_spans(block, header, patch).value();
            const auto packets = vif::walk(spans.lists[kListCommon]).value();
            // packets[2] is the vi1 STROW (§7.3 common list order); cmd 0x5F is no VIF command.
            block.at(spans.begin[kListCommon] + packets.at(2).offset + 3) = 0x5F;
            return;
        }
    }
}

}  // namespace gcfs::mkdisc
