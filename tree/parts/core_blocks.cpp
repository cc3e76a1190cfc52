#include <fmt/format.h>

#include "tree/parts/parts.h"

namespace gcfs::tree::parts {

// sound_remap.bin (core_index bytes, raw: their meaning is unknown) with its
// element table as sound_remap.csv, and ratchet_seqs/seq_NNN.bin, each a
// block of the decompressed core (formats-globals.md 13).
void core_blocks(LevelFolder& f) {
    const LevelScan& level = f.level;
    if (!level.core) return;
    if (level.sound_remap && f.core_index_length) {
        const uint64_t at = f.core_index_offset + static_cast<uint64_t>(level.core->sound_remap_offset);
        const std::string what = fmt::format("the sound remap: core_index.bin [0x{:x}, +{}) (formats-globals.md 13, GC layout)",
                                             level.core->sound_remap_offset, level.sound_remap->size);
        f.file(f.dir, "sound_remap.bin", std::make_shared<ImageSlice>(f.image(), at, level.sound_remap->size), f.raw(at, level.sound_remap->size, what));
        f.file(f.dir, "sound_remap.csv", std::make_shared<StaticText>(formats::sound_remap_csv(*level.sound_remap)),
               f.decoded(at, level.sound_remap->size, "CSV written by gcfs", what + "; its element table"));
    }
    if (!level.sound_remap_error.empty())
        for (const char* name : {"sound_remap.bin", "sound_remap.csv"})
            f.file(f.dir, name, std::make_shared<Unreadable>(level.sound_remap_error), f.decoded(0, 0, "none", level.sound_remap_error));
    if (!f.core || level.ratchet_seqs.empty()) return;
    const uint64_t dir = f.directory(f.dir, "ratchet_seqs");
    for (const formats::RatchetSeq& seq : level.ratchet_seqs)
        f.file(dir, seq.extent.name + ".bin",
               std::make_shared<StreamRegion>(f.core, f.image(), f.cache(), f.core_stream, seq.extent.offset, seq.extent.size),
               f.from_core(LevelFolder::kWadLz, seq.extent,
                           fmt::format("Ratchet's sequence {}, to the next block boundary (formats-globals.md 13, formats.md 6.2)", seq.slot)));
}

}  // namespace gcfs::tree::parts
