#include "edit/containers.h"

#include <fmt/format.h>

#include <stdexcept>

#include "formats/disc/toc.h"

namespace gcfs::edit {

namespace {

const tree::IsoFile* iso_file_at(const tree::DiscScan& scan, uint32_t lba) {
    for (const auto& f : scan.files)
        if (f.lba == lba) return &f;
    return nullptr;
}

}  // namespace

ContainerPlace place_of(tree::Disc& original, ContainerKey key) {
    const tree::DiscScan& scan = original.scan;
    ContainerPlace place;
    if (key.kind == ContainerKey::global) {
        const formats::GlobalWad& g = scan.toc.globals.at(key.index);
        const tree::IsoFile* file = iso_file_at(scan, static_cast<uint32_t>(g.lba));
        if (!file) throw std::runtime_error(fmt::format("the global WAD {} has no ISO9660 file", g.name));
        place = {file->path, file->lba, formats::sectors_for(file->size), std::nullopt, g.toc_offset, static_cast<uint64_t>(g.header_size), false};
        return place;
    }
    const tree::LevelScan& level = original.level(key.index);
    const bool audio = key.kind == ContainerKey::level_audio;
    if (audio && !level.audio) throw std::runtime_error(fmt::format("{} has no AUDIO WAD", level.folder));
    const formats::LevelPart& part = audio ? *level.audio : level.part;
    const tree::IsoFile* file = iso_file_at(scan, static_cast<uint32_t>(part.file_lba));
    // §2.3: the table entry's LEVEL, AUDIO, SCENE ranges; the size is the second word of each.
    const uint64_t entry = scan.toc.table_offset + formats::kLevelEntrySize * static_cast<uint64_t>(level.index);
    place = {file ? file->path : level.folder, static_cast<uint32_t>(part.file_lba), static_cast<uint64_t>(part.size_sectors),
             entry + (audio ? 0x0C : 0x04), part.toc_offset, static_cast<uint64_t>(part.header_size), !audio};
    return place;
}

formats::Bytes read_container(tree::Disc& original, ContainerKey key) {
    const ContainerPlace place = place_of(original, key);
    const uint64_t bytes = place.sectors * formats::kSectorSize;
    formats::Bytes out = original.image->read_clamped(uint64_t{place.lba} * formats::kSectorSize, bytes);
    if (out.size() != bytes) throw std::runtime_error(fmt::format("{} runs past the image's end", place.iso_path));
    return out;
}

formats::Result<formats::Bytes> WadFile::rebuild() {
    formats::Bytes out = bytes_;
    out.resize(formats::align_up(out.size(), formats::kSectorSize), 0);
    return out;
}

}  // namespace gcfs::edit
