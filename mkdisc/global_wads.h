// The ARMOR, BONUS, MISC and HUD WADs the builder writes (formats-globals.md
// §5-§9, §11): every table with empty slots and its last slot used, images in
// both PIF formats (with mips) and as RGBA, compressed where the layout says.
#pragma once

#include <vector>

#include "formats/common/bytes.h"
#include "mkdisc/level_builder.h"

namespace gcfs::mkdisc {

formats::Bytes armor_wad(const std::vector<Damage>& damage);
formats::Bytes bonus_wad(const std::vector<Damage>& damage);
formats::Bytes misc_wad(const std::vector<Damage>& damage);
formats::Bytes hud_wad(const std::vector<Damage>& damage);

// What the builder drew at BONUS slot `table`[`index`] (for the tests'
// pixel checks): the seed its picture was drawn from, and its sides.
struct BonusPicture {
    const char* table;
    int index;
    uint32_t width, height;
    enum class Kind { pif8, pif4, rgba } kind;
    int mips;
};
const std::vector<BonusPicture>& bonus_pictures();
int bonus_seed(const BonusPicture& p);

}  // namespace gcfs::mkdisc
