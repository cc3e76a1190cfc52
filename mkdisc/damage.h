// Deliberate damage for the corrupt-disc corpus: each kind breaks one named
// invariant of formats.md inside otherwise valid data, so a reader can be
// shown to report exactly that damage and still read everything else.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "formats/bytes.h"

namespace gcfs::mkdisc {

enum class Damage {
    tfrag_count,  // patch 1's header vert_count is one more than its lists hold (§7.2)
    vif_desync,   // patch 2's common list has an unknown VIF command where its vi1 STROW was (§7.4)
};

struct DamageSpec {
    Damage kind;
    int level = 1;  // table index of the level to damage
};

// "tfrag-count" or "tfrag-count:3" (level 3); nullopt for an unknown name.
std::optional<DamageSpec> parse_damage(const std::string& text);
std::vector<std::string> damage_names();

// Applies the tfrag kinds to an uncompressed tfrags block; others are ignored.
void damage_tfrags(formats::Bytes& block, Damage kind);

}  // namespace gcfs::mkdisc
