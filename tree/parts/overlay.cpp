#include <fmt/format.h>

#include "tree/level/executable_file.h"
#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// overlay.elf: the data lump's overlay section, a ratchet executable
// (formats-globals.md 8), rebuilt as an ELF as global/misc/frontbin.elf is;
// overlay.bin beside it stays raw.
void overlay(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!level.lump || level.lump->overlay.size <= 0) return;
    const auto at = static_cast<uint64_t>(level.lump->overlay.offset), size = static_cast<uint64_t>(level.lump->overlay.size);
    const WadItem item{&f.image(), level.data_offset + at, size, false, level.folder + " overlay"};
    f.file(f.dir, "overlay.elf", rebuilt_elf(f.cache(), item),
           f.decoded(item.offset, size, "ratchet executable (formats-globals.md 8), then ELF",
                     fmt::format("the data lump's overlay section [0x{:x}, +{}) (formats.md 4.1); an ELF section per block", at, size)));
}

}  // namespace gcfs::tree::parts
