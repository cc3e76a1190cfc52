#include "formats/hud/hud.h"

#include <cstring>

namespace gcfs::formats::hud {

Content identify(ByteSpan head) {
    if (head.size() >= 3 && std::memcmp(head.data(), "WAD", 3) == 0) return Content::wad_lz;
    if (head.size() >= 4 && std::memcmp(head.data(), "2FIP", 4) == 0) return Content::pif;
    if (head.size() >= 4 && std::memcmp(head.data(), "VAGp", 4) == 0) return Content::vag;
    return Content::unknown;
}

}  // namespace gcfs::formats::hud
