#include <fmt/format.h>

#include "formats/pif/pif.h"
#include "tree/globals/global_images.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// transition/NN.png: the data lump's transition textures, a compressed
// texture list of PIFs (formats-globals.md 5; formats.md 4.1). The list's
// count and offsets are decoded when the folder is built (its first bytes,
// and the stream's size measured), each picture's header at stat, the
// picture on first read. A list that fails its checks shows as
// transition/list.txt, unreadable with the reason.
void transition(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!level.lump || level.lump->transition_textures.offset < 0 || level.lump->transition_textures.size <= 0) return;
    const auto at = static_cast<uint64_t>(level.lump->transition_textures.offset);
    const auto size = static_cast<uint64_t>(level.lump->transition_textures.size);
    const WadItem list{&f.image(), level.data_offset + at, size, true, level.folder + " transition_textures"};
    const uint64_t dir = f.directory(f.dir, "transition");
    auto ranges = [&]() -> formats::Result<std::vector<formats::ByteRange>> {
        const auto decoded_size = list.size();
        if (!decoded_size.ok()) return decoded_size.error();
        const auto count = list.head(4);
        if (!count.ok()) return count.error();
        const int32_t n = formats::s32_at(*count, 0);
        if (n < 0 || n >= formats::pif::kMaxTextures)
            return formats::FormatError{formats::Errc::too_large, 0, fmt::format("texture list of {} textures (fewer than 0x1000)", n)};
        const auto head = list.head(4 + 4 * static_cast<uint64_t>(n));
        if (!head.ok()) return head.error();
        return formats::pif::read_texture_list(*head, *decoded_size);
    }();
    if (!ranges.ok()) {
        const std::string why = fmt::format("transition textures: {} ({})", ranges.error().describe(), list.where());
        f.file(dir, "list.txt", std::make_shared<Unreadable>(why), f.decoded(list.offset, size, "none", why));
        return;
    }
    for (size_t i = 0; i < ranges->size(); ++i) {
        const formats::ByteRange r = (*ranges)[i];
        WadItem item = list;
        item.name = fmt::format("{} texture {}", list.name, i);
        item.part = {{static_cast<uint64_t>(r.offset), static_cast<uint64_t>(r.size)}};
        f.file(dir, fmt::format("{:02d}.png", i), pif_png(f.cache(), item),
               f.decoded(list.offset, size, LevelFolder::kWadLz + std::string(", then PIF (formats-globals.md 5) to PNG"),
                         fmt::format("transition texture {}: decoded bytes [0x{:x}, +{}) of the list (formats-globals.md 5)", i, r.offset, r.size)));
    }
}

}  // namespace gcfs::tree::parts
