#include "edit/image_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "formats/disc/iso9660.h"
#include "formats/disc/level_wad.h"
#include "formats/disc/toc.h"

namespace gcfs::edit {
namespace {

using formats::Bytes;
using formats::kSectorSize;

constexpr uint64_t kRecordBytes = 33;  // ECMA-119 9.1: a directory record's fixed part

// Pieces of an image patch, each write landing on what was written before.
class PatchBuilder {
public:
    // `original` is the image file itself (no patch of its own).
    PatchBuilder(const tree::Image& original, uint64_t size) : original_(original) { patch_.size = size; }

    // The bytes the patch shows at [offset, offset + length) so far: the
    // file's (zeros past its end) with each piece over them, as tree::Image
    // reads a patch, without copying the pieces (a whole container) to ask.
    Bytes read(uint64_t offset, uint64_t length) const {
        Bytes out(length, 0);
        const uint64_t file = original_.file_size();
        const uint64_t have = offset < file ? std::min(length, file - offset) : 0;
        if (have && !original_.read(offset, std::span(out).first(have)))
            throw std::runtime_error(fmt::format("cannot read {} bytes at image byte {}", length, offset));
        for (const auto& [at, piece] : patch_.pieces) {
            const uint64_t from = std::max(at, offset), to = std::min(at + piece.size(), offset + length);
            if (from < to)
                std::copy(piece.begin() + static_cast<int64_t>(from - at), piece.begin() + static_cast<int64_t>(to - at),
                          out.begin() + static_cast<int64_t>(from - offset));
        }
        return out;
    }
    void write(uint64_t offset, Bytes bytes) {
        patch_.size = std::max(patch_.size, offset + bytes.size());
        // Earlier pieces this one overlaps take its bytes; the rest is new.
        for (auto& [at, piece] : patch_.pieces) {
            const uint64_t from = std::max(at, offset), to = std::min(at + piece.size(), offset + bytes.size());
            for (uint64_t i = from; i < to; ++i) piece[i - at] = bytes[i - offset];
        }
        std::vector<std::pair<uint64_t, uint64_t>> gaps;
        uint64_t cursor = offset;
        const uint64_t stop = offset + bytes.size();
        auto it = patch_.pieces.upper_bound(offset);
        if (it != patch_.pieces.begin()) --it;
        for (; it != patch_.pieces.end() && it->first < stop; ++it) {
            if (it->first > cursor) gaps.emplace_back(cursor, it->first);
            cursor = std::max(cursor, it->first + it->second.size());
        }
        if (cursor < stop) gaps.emplace_back(cursor, stop);
        for (const auto& [from, to] : gaps)
            patch_.pieces.emplace(from, Bytes(bytes.begin() + static_cast<int64_t>(from - offset),
                                              bytes.begin() + static_cast<int64_t>(to - offset)));
    }
    tree::ImagePatch take() { return std::move(patch_); }

private:
    const tree::Image& original_;
    tree::ImagePatch patch_;
};

void put_u32(Bytes& b, uint64_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

namespace {

bool grown(const ContainerPlace& place, const Bytes& bytes) { return bytes.size() / kSectorSize > place.sectors; }

// Grown globals first, then grown levels; where only globals grew, the
// listed level part last on the image moves after them (image_layout.h).
// Returns how many entries at the end must move whatever their size.
size_t order_for_the_unpacker(tree::Disc& original, NewContainers& containers) {
    std::stable_partition(containers.begin(), containers.end(), [](const auto& c) { return !grown(c.first, c.second) || !c.first.toc_size_field; });
    const bool global_grew = std::any_of(containers.begin(), containers.end(), [](const auto& c) { return grown(c.first, c.second) && !c.first.toc_size_field; });
    const bool level_grew = std::any_of(containers.begin(), containers.end(), [](const auto& c) { return grown(c.first, c.second) && c.first.toc_size_field; });
    if (!global_grew || level_grew) return 0;
    std::optional<ContainerKey> last;
    uint32_t last_lba = 0;
    for (size_t i = 0; i < original.scan.levels.size(); ++i)
        for (const auto kind : {ContainerKey::level, ContainerKey::level_audio}) {
            try {
                const ContainerPlace p = place_of(original, {kind, i});
                if (p.lba >= last_lba) last = ContainerKey{kind, i}, last_lba = p.lba;
            } catch (const std::runtime_error&) {
                // a level without that part
            }
        }
    if (!last) throw std::runtime_error("a global WAD grew and the table of contents lists no level part to follow it");
    const ContainerPlace place = place_of(original, *last);
    const auto same = std::find_if(containers.begin(), containers.end(), [&](const auto& c) { return c.first.lba == place.lba; });
    if (same != containers.end()) {
        std::rotate(same, same + 1, containers.end());  // edited in place: moved last instead
    } else {
        containers.emplace_back(place, read_container(original, *last));
    }
    return 1;
}

}  // namespace

tree::ImagePatch lay_out(tree::Disc& disc, NewContainers containers) {
    const size_t forced = order_for_the_unpacker(disc, containers);
    const tree::Image& original = *disc.image;
    const tree::DiscScan& scan = disc.scan;
    uint64_t end = formats::align_up(original.size(), kSectorSize);
    PatchBuilder patch(original, original.size());
    const uint64_t toc_at = uint64_t{formats::kTocLba} * kSectorSize;
    for (size_t c = 0; c < containers.size(); ++c) {
        const auto& [place, bytes] = containers[c];
        const uint64_t sectors = bytes.size() / kSectorSize;
        if (bytes.size() % kSectorSize || sectors > static_cast<uint64_t>(INT32_MAX))
            throw std::runtime_error(fmt::format("{}: the new container is not whole sectors", place.iso_path));
        uint64_t lba = place.lba;
        if (sectors > place.sectors || c + forced >= containers.size()) {  // grown (or moved to follow a grown global): to the image's end
            lba = end / kSectorSize;
            end += bytes.size();
        }
        if (lba > static_cast<uint64_t>(INT32_MAX)) throw std::runtime_error("the image would pass 2^31 sectors");
        patch.write(lba * kSectorSize, bytes);

        // §2.3: a level part's size in the table, and the header copy with its LBA at +4.
        if (place.toc_size_field) {
            Bytes size_field = patch.read(toc_at + *place.toc_size_field, 4);
            put_u32(size_field, 0, static_cast<uint32_t>(sectors));
            patch.write(toc_at + *place.toc_size_field, std::move(size_field));
        }
        Bytes copy;
        if (place.level_header) {
            auto header = formats::parse_level_header(bytes);
            if (!header.ok()) throw std::runtime_error(fmt::format("{}: the new container's header: {}", place.iso_path, header.error().describe()));
            copy = patch.read(toc_at + place.toc_header, place.header_size);
            formats::put_level_extents(copy, *header);
        } else {
            if (bytes.size() < place.header_size) throw std::runtime_error(fmt::format("{}: shorter than its header", place.iso_path));
            copy.assign(bytes.begin(), bytes.begin() + static_cast<int64_t>(place.header_size));
            const Bytes old = patch.read(toc_at + place.toc_header, 8);
            std::copy(old.begin(), old.end(), copy.begin());  // header_size and the LBA word stay the TOC's
        }
        put_u32(copy, 4, static_cast<uint32_t>(lba));
        patch.write(toc_at + place.toc_header, std::move(copy));

        // §2.2: the ISO9660 record of the same file.
        for (const auto& file : scan.files) {
            if (file.lba != place.lba || !file.record_byte) continue;
            Bytes record = patch.read(file.record_byte, kRecordBytes);
            formats::iso9660::put_record_extent(record, static_cast<uint32_t>(lba), static_cast<uint32_t>(bytes.size()));
            patch.write(file.record_byte, std::move(record));
        }
    }
    if (end > formats::align_up(original.size(), kSectorSize)) {  // ECMA-119 8.4.8: the volume grew
        const uint64_t pvd_at = uint64_t{formats::iso9660::kPvdLba} * kSectorSize;
        Bytes pvd = patch.read(pvd_at, kSectorSize);
        formats::iso9660::put_volume_sectors(pvd, static_cast<uint32_t>(end / kSectorSize));
        patch.write(pvd_at, std::move(pvd));
    }
    return patch.take();
}

}  // namespace gcfs::edit
