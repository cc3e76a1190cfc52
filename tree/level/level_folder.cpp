#include "tree/level/level_folder.h"

#include <fmt/format.h>

namespace gcfs::tree {
namespace {

// The ISO9660 file whose sectors hold image byte `offset` (empty if none).
std::string container_of(const DiscScan& scan, uint64_t offset) {
    for (const auto& f : scan.files) {
        const uint64_t start = static_cast<uint64_t>(f.lba) * formats::kSectorSize;
        if (offset >= start && offset < start + std::max<uint64_t>(f.size, 1)) return f.path;
    }
    return {};
}

}  // namespace

Origin Origins::raw(uint64_t offset, uint64_t length, std::string detail) const {
    return decoded(offset, length, "none: the bytes as recorded", std::move(detail));
}

Origin Origins::decoded(uint64_t offset, uint64_t length, std::string decoder, std::string detail) const {
    return std::make_shared<const Provenance>(
        Provenance{container_of(scan_, offset), offset, length, std::move(decoder), std::move(detail)});
}

Origin LevelFolder::from_core(std::string decoder, const formats::CoreRegion& region, const std::string& what) const {
    return decoded(core_stream.offset, core_stream.available, std::move(decoder),
                   fmt::format("core_data.bin [0x{:x}, +{}): the {} {}", region.offset, region.size, region.name, what));
}

Origin LevelFolder::from_gs_ram(uint64_t from, uint64_t to, std::string decoder, std::string detail) const {
    to = std::min(to, gs_ram_length);
    from = std::min(from, to);
    return decoded(gs_ram_offset + from, to - from, std::move(decoder), std::move(detail));
}

Origin Origins::generated(std::string decoder, std::string detail) {
    return std::make_shared<const Provenance>(Provenance{{}, 0, 0, std::move(decoder), std::move(detail)});
}

}  // namespace gcfs::tree
