#include "tree/disc_scan.h"

#include "tree/level/core_blocks.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <zlib.h>

#include <tuple>

#include <algorithm>
#include <set>

#include "formats/wad_lz/wad_lz.h"
#include "tree/node/safe_name.h"
#include "tree/node/sources.h"

namespace gcfs::tree {
namespace {

using namespace formats;

// How much of a level's container its header scan asks for at once (scan_level).
constexpr uint64_t kHeadersAhead = 256 * 1024;

// The ISO9660 tree as far as it can be read. The game reaches every WAD
// through the table of contents (formats.md 2.3), so a damaged directory
// costs only the part of disc/ it describes: each problem is logged once,
// naming LBA and image byte, and listed in disc/.damaged. At most kMaxDepth
// levels deep and each directory extent walked once (§2.2), so records that
// point back at a directory (or many at one) cannot multiply the work.
class IsoWalk {
public:
    IsoWalk(const Image& image, DiscScan& disc) : image_(image), disc_(disc) {}

    void directory(uint32_t lba, uint64_t size, const std::string& path, int depth, uint64_t max_size) {
        const uint64_t at = static_cast<uint64_t>(lba) * kSectorSize;
        if (depth > iso9660::kMaxDepth)
            return note(path, lba, at, fmt::format("deeper than {} levels (formats.md 2.2); shown empty", iso9660::kMaxDepth));
        if (!walked_.insert(lba).second) return note(path, lba, at, "is recorded twice; shown empty the second time");
        if (at >= image_.size())
            return note(path, lba, at, fmt::format("lies past the image end (sector {}); shown empty", image_.size() / kSectorSize));
        if (size > max_size) {
            note(path, lba, at, fmt::format("declares {} bytes, more than the {} its records can fill; read up to that", size, max_size));
            size = max_size;
        }
        if (size > image_.size() - at)
            note(path, lba, at, fmt::format("runs {} bytes past the image end; read up to the end", size - (image_.size() - at)));
        const Bytes extent = image_.read_clamped(at, size);
        const auto parsed = iso9660::parse_directory(extent);
        for (const auto& p : parsed.problems) note(path, lba, at + p.offset, p.what);
        FolderNames names;
        if (depth == 0) names.claim(std::string(kIsoDamageNote));  // a record of that name shows as ".damaged~2"
        for (const auto& e : parsed.entries) {
            // A recorded name is one path step, escaped if need be, and distinct in its folder.
            const std::string name = names.claim(safe_name(e.name));
            if (name != e.name)
                spdlog::warn("ISO9660 directory at LBA {}: the record named {:?} is shown as {}", lba, e.name, name);
            const std::string child = path.empty() ? name : path + "/" + name;
            if (e.is_directory) {
                disc_.directories.push_back(child);
                directory(e.lba, e.size, child, depth + 1, iso9660::kMaxDirectoryBytes);
            } else {
                disc_.files.push_back({child, e.lba, e.size, at + e.record_offset});
            }
        }
    }

private:
    void note(const std::string& path, uint32_t lba, uint64_t byte, const std::string& what) {
        const std::string folder = "disc/" + path;
        spdlog::warn("{}: ISO9660 directory at LBA {}, image byte {}: {}", folder, lba, byte, what);
        disc_.iso_damage.push_back({folder, lba, byte, what});
    }

    const Image& image_;
    DiscScan& disc_;
    std::set<uint32_t> walked_;
};

bool same_except_sector(const LevelHeader& a, const LevelHeader& b) {
    auto same = [](SectorRange x, SectorRange y) { return x.offset == y.offset && x.size == y.size; };
    bool equal = a.header_size == b.header_size && a.id == b.id && a.reverb == b.reverb && same(a.data, b.data) &&
                 same(a.sound_bank, b.sound_bank) && same(a.gameplay, b.gameplay) && same(a.occlusion, b.occlusion);
    for (int i = 0; i < 3; ++i)
        equal = equal && same(a.chunks[i], b.chunks[i]) && same(a.chunk_sound_banks[i], b.chunk_sound_banks[i]);
    return equal;
}

void scan_tfrags_header(const Image& image, LevelScan& level) {
    const CoreRegion* region = level.region("tfrag");
    if (!region || region->size == 0) return;
    const auto& stream = level.lump->core_data;
    auto head = decode_stream_window(image, level.data_offset + static_cast<uint64_t>(stream.offset),
                                     static_cast<uint64_t>(stream.size), region->offset, kTfragsHeaderSize);
    if (!head.ok()) {
        level.checks.push_back({"tfrags header", false, "core_data.wad " + head.error().describe()});
        return;
    }
    auto header = parse_tfrags_header((*head)->bytes(), region->size);
    if (!header.ok()) {
        level.checks.push_back({"tfrags header", false, "core/tfrag.bin " + header.error().describe()});
        return;
    }
    level.tfrags = *header;
    level.checks.push_back({"tfrags header", true,
                            fmt::format("{} patch headers at 0x{:x} inside the {}-byte tfrag region (§7.1)",
                                        header->tfrag_count, header->table_offset, region->size)});
}

// §6.3: class models and texture pixels lie in the decompressed core (a class
// offset of 0 means "no model"), palettes in the GS-RAM lump.
void scan_class_and_texture_offsets(LevelScan& level, const LevelCoreHeader& core) {
    const auto core_size = static_cast<uint64_t>(core.assets_decompressed_size);
    std::string class_detail;
    int models = 0;
    for (const auto& table : level.classes)
        for (const auto& entry : table) {
            if (entry.offset_in_asset_wad == 0) continue;
            ++models;
            if (class_detail.empty()) class_detail = class_problem(entry, core_size);
        }
    level.checks.push_back({"class models inside core_data", class_detail.empty(),
                            class_detail.empty() ? fmt::format("{} models; offset 0 = no model (§6.3)", models) : class_detail});

    // formats-moby.md §10.2: a stashed class's rows read their texels from the GS-RAM stash.
    auto stash = parse_moby_stash(level.core_index, core);
    std::string stash_detail = "no moby class stashed";
    if (!stash.ok()) {
        stash_detail = "moby stash list " + stash.error().describe();
    } else if (!stash->classes.empty()) {
        stash_detail = fmt::format("{} moby classes stashed", stash->classes.size());
        if (!stash->address) stash_detail = "moby classes are stashed, but moby_gs_stash_count is 0";
        else if (*stash->address > static_cast<uint64_t>(INT32_MAX)) stash_detail = "the stash address passes 2 GiB";
        else {
            level.moby_stash_address = stash->address;
            level.stashed_moby_classes = stash->classes;
            for (const auto& entry : level.classes[0])
                if (stash->classes.contains(static_cast<int16_t>(entry.o_class)))
                    for (uint8_t row : entry.textures)
                        if (row != 0xff) level.stashed_moby_rows.insert(row);
        }
    }
    // A row a stashed class names and an unstashed one names too has its
    // texels in two places (the stash, the core): the textures/ file shows the
    // stash's, so such a class is named.
    std::string mixed;
    for (const auto& entry : level.classes[0])
        if (!level.stashed_moby_classes.contains(static_cast<int16_t>(entry.o_class)))
            for (uint8_t row : entry.textures)
                if (mixed.empty() && row != 0xff && level.stashed_moby_rows.contains(row))
                    mixed = fmt::format("moby class {} is not stashed but names row {}, which stashed classes read from the stash",
                                        entry.o_class, row);
    if (!mixed.empty()) stash_detail = mixed;
    const bool stash_ok = stash.ok() && (stash->classes.empty() || level.moby_stash_address) && mixed.empty();
    level.checks.push_back({"moby stash", stash_ok, stash_detail + " (formats-moby.md 10.2)"});

    const std::pair<const char*, ArrayRange> texture_tables[4] = {
        {"tfrag", core.tfrag_textures}, {"moby", core.moby_textures}, {"tie", core.tie_textures}, {"shrub", core.shrub_textures}};
    const uint64_t gs_ram_size = static_cast<uint64_t>(std::max(level.lump->gs_ram.size, 0));
    std::string texture_detail;
    size_t textures = 0;
    for (const auto& [name, range] : texture_tables) {
        auto table = parse_texture_table(level.core_index, range);
        if (!table.ok()) {
            texture_detail = std::string(name) + " texture table " + table.error().describe();
            continue;
        }
        for (size_t row = 0; row < table->size(); ++row) {
            const TextureEntry& t = (*table)[row];
            // A stashed row's texels are in gs_ram from the stash address (formats-moby.md §10.2).
            const bool stashed = level.stashed_row(name, row);
            const auto problem =
                texture_problem(t, core.textures_base_offset, core_size, gs_ram_size, stashed ? level.moby_stash_address : std::nullopt);
            if (!problem.empty() && texture_detail.empty()) texture_detail = fmt::format("{} texture: {}", name, problem);
        }
        textures += table->size();
        level.textures.push_back({name, std::move(*table)});
    }
    // Particle and fx textures: texels and palettes in their banks in DAT.
    for (auto [particle, range, bank, out] : {std::tuple{true, core.part_textures, core.part_bank_offset, &level.particle_textures},
                                              std::tuple{false, core.fx_textures, core.fx_bank_offset, &level.fx_textures}}) {
        const char* name = particle ? "particle" : "fx";
        auto table = parse_bank_textures(level.core_index, range, particle);
        if (!table.ok()) {
            if (texture_detail.empty()) texture_detail = std::string(name) + " texture table " + table.error().describe();
            continue;
        }
        for (const auto& t : *table)
            if (const auto problem = bank_texture_problem(t, bank, core_size); !problem.empty() && texture_detail.empty())
                texture_detail = fmt::format("{} texture: {}", name, problem);
        textures += table->size();
        *out = std::move(*table);
    }
    level.checks.push_back({"textures inside core_data and gs_ram", texture_detail.empty(),
                            texture_detail.empty() ? fmt::format("{} textures: pixels and palettes in range (§6.3)", textures)
                                                   : texture_detail});
}

// §6.1: the moby, tie and shrub tables ((count, offset) pairs into
// core_index) into level.classes; a table that does not parse is left
// empty and the others still read. "" when all three read, else the last
// one's error.
std::string read_class_tables(LevelScan& level, const LevelCoreHeader& core) {
    const std::pair<ArrayRange, uint64_t> tables[3] = {
        {core.moby_classes, kClassEntrySize}, {core.tie_classes, kClassEntrySize}, {core.shrub_classes, kShrubClassEntrySize}};
    std::string problem;
    for (int k = 0; k < 3; ++k) {
        auto table = parse_class_table(level.core_index, tables[k].first, tables[k].second);
        if (!table.ok()) {
            problem = table.error().describe();
            continue;
        }
        level.classes[k] = std::move(*table);
    }
    return problem;
}

// Where each class's model starts in DAT (§6.3 offset_in_asset_wad), every table's.
std::vector<int32_t> class_offsets(const LevelScan& level) {
    std::vector<int32_t> out;
    for (const auto& table : level.classes)
        for (const auto& entry : table) out.push_back(entry.offset_in_asset_wad);
    return out;
}

void scan_core(const Image& image, LevelScan& level) {
    const DataLumpHeader& lump = *level.lump;
    level.core_index = image.read_clamped(level.data_offset + static_cast<uint64_t>(lump.core_index.offset),
                                          static_cast<uint64_t>(lump.core_index.size));
    level.digest.add(level.core_index);
    auto core = parse_level_core_header(level.core_index);
    if (!core.ok()) {
        level.checks.push_back({"core header parses", false, "core_index " + core.error().describe()});
        return;
    }
    level.core = *core;
    level.checks.push_back({"core header parses", true, "0xBC-byte level core header (§6.1)"});

    // §6.1 0x88: the core_data stream's own declared size must equal both the
    // core header's and what the data lump allots (the seed's arithmetic check).
    const Bytes wad_header = image.read_clamped(level.data_offset + static_cast<uint64_t>(lump.core_data.offset),
                                                wad_lz::kHeaderSize);
    level.digest.add(wad_header);
    auto stream = wad_lz::read_header(wad_header, static_cast<uint64_t>(lump.core_data.size));
    if (!stream.ok()) {
        level.checks.push_back({"core_data stream header", false, "core_data.wad " + stream.error().describe()});
    } else {
        const bool sizes_agree = stream->compressed_size == static_cast<uint32_t>(core->assets_compressed_size) &&
                                 stream->compressed_size <= static_cast<uint32_t>(lump.core_data.size);
        level.checks.push_back({"core_data compressed size", sizes_agree,
                                fmt::format("stream declares {} bytes, core header 0x88 says {}, data lump allots {}",
                                            stream->compressed_size, core->assets_compressed_size,
                                            lump.core_data.size)});
    }

    const std::string tables_problem = read_class_tables(level, *core);
    level.checks.push_back({"class tables", tables_problem.empty(),
                            tables_problem.empty() ? "moby, tie, shrub tables inside core_index ((count, offset) pairs, §6.1)" : tables_problem});
    scan_class_and_texture_offsets(level, *core);

    level.boundaries = block_boundaries(*core, class_offsets(level), level.core_index);
    scan_core_blocks(level);
    auto regions = core_regions(*core, level.boundaries);
    if (!regions.ok()) {
        level.checks.push_back({"core regions ordered", false, regions.error().describe()});
        return;
    }
    level.regions = *regions;
    level.checks.push_back({"core regions ordered", true,
                            "tfrag < occlusion < sky < collision < textures_base, all inside core_data (§6.1)"});
    scan_tfrags_header(image, level);
}

void scan_container(const Image& image, LevelScan& level) {
    level.file_offset = static_cast<uint64_t>(level.part.file_lba) * kSectorSize;
    level.file_size = static_cast<uint64_t>(std::max(level.part.size_sectors, 0)) * kSectorSize;
    const bool inside = level.part.file_lba > 0 && level.file_offset + level.file_size <= image.size();
    const int64_t end = static_cast<int64_t>(level.part.file_lba) + level.part.size_sectors;
    level.checks.push_back(
        {"container inside image", inside,
         // Passing, it names the level's own sectors only: a level untouched by an
         // edit (edit/) keeps its info.json when another container grows the image.
         inside ? fmt::format("LBA {} + {} sectors, inside the image", level.part.file_lba, level.part.size_sectors)
         : level.part.file_lba <= 0
             ? fmt::format("LBA {} + {} sectors, image has {} sectors", level.part.file_lba, level.part.size_sectors,
                           image.size() / kSectorSize)
             : fmt::format("the image ends at sector {}; the level's container needs sectors {} to {} (LBA {} + {} "
                           "sectors)", image.size() / kSectorSize, level.part.file_lba, end - 1, level.part.file_lba,
                           level.part.size_sectors)});
    if (!inside) return;

    const Bytes first = image.read_clamped(level.file_offset, kSectorSize);
    level.digest.add(first);
    auto header = parse_level_header(first);
    if (!header.ok()) {
        level.checks.push_back({"level header parses", false, "header.bin " + header.error().describe()});
        return;
    }
    level.header = *header;
    level.checks.push_back({"level header parses", true, fmt::format("0x{:x}-byte header, id {}", header->header_size, header->id)});

    const auto problems = extent_problems(*header, level.file_size / kSectorSize);
    std::string detail = "every extent inside the container, none overlapping (sizes in sectors, §3.1)";
    if (!problems.empty()) detail = problems.front().message;
    level.checks.push_back({"extents inside and disjoint", problems.empty(), detail});

    const uint64_t covered = claimed_sectors(*header);
    level.checks.push_back({"extents tile the container", covered == level.file_size / kSectorSize,
                            fmt::format("header sector + extents = {} sectors, container has {}", covered,
                                        level.file_size / kSectorSize)});
    if (!problems.empty()) return;

    level.data_offset = level.file_offset + level.header->data.byte_offset();
    const uint64_t data_size = level.header->data.byte_size();
    const Bytes lump_header = image.read_clamped(level.data_offset, kDataLumpHeaderSize);
    level.digest.add(lump_header);
    auto lump = parse_data_lump_header(lump_header, data_size);
    if (!lump.ok()) {
        level.checks.push_back({"data lump header", false, "data.bin " + lump.error().describe()});
        return;
    }
    level.lump = *lump;
    level.checks.push_back({"data lump header", true, "every section inside the data extent (byte ranges, §4.1)"});
    scan_core(image, level);
}

}  // namespace

formats::Result<LevelScan> rescan_core(const LevelScan& level, formats::ByteSpan core_index) {
    LevelScan out = level;
    out.core_index.assign(core_index.begin(), core_index.end());
    auto core = parse_level_core_header(out.core_index);
    if (!core.ok()) return core.error();
    out.core = *core;
    if (const std::string problem = read_class_tables(out, *core); !problem.empty()) return FormatError{Errc::bad_value, 0, problem};
    out.boundaries = block_boundaries(*core, class_offsets(out), out.core_index);
    auto regions = core_regions(*core, out.boundaries);
    if (!regions.ok()) return regions.error();
    out.regions = *regions;
    return out;
}

void HeaderDigest::add(formats::ByteSpan bytes) {
    crc_ = static_cast<uint32_t>(crc32(crc_, bytes.data(), static_cast<uInt>(bytes.size())));
    adler_ = static_cast<uint32_t>(adler32(adler_, bytes.data(), static_cast<uInt>(bytes.size())));
    bytes_ += bytes.size();
}

std::string HeaderDigest::text() const { return fmt::format("{:08x}-{:08x}-{:x}", crc_, adler_, bytes_); }

const CoreRegion* LevelScan::region(const std::string& name) const {
    for (const auto& r : regions)
        if (r.name == name) return &r;
    return nullptr;
}

const std::vector<TextureEntry>& LevelScan::texture_table(const std::string& name) const {
    static const std::vector<TextureEntry> kNone;
    for (const auto& t : textures)
        if (t.name == name) return t.entries;
    return kNone;
}

bool LevelScan::ok() const {
    return std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.ok; });
}

void scan_level(const Image& image, LevelScan& level) {
    // Headers of a file rewritten since it was opened would describe other bytes.
    if (!image.unchanged()) {
        level.stale = true;
        level.checks.push_back({"image unchanged since it was opened", false,
                                "its size or modification time changed before this level's headers were read; "
                                "unmount and mount it again"});
        return;
    }
    // The reads below follow one another (each header says where the next
    // one is), and from a cold page cache each waited on the disc in turn.
    // Asked for together first, they come in one or two requests: the level
    // header, the data lump's header and core_index, and the core stream's
    // first packets lie in the container's first sectors on the discs the
    // builder writes (formats.md §3-4 fix no such bound: a level whose lump
    // is laid out wider just reads the rest as before), and the level's sound
    // WAD's header is read when its folder is built (formats-globals.md §3).
    image.prefetch(static_cast<uint64_t>(std::max(level.part.file_lba, 0)) * kSectorSize, kHeadersAhead);
    if (level.audio && level.audio->file_lba > 0)
        image.prefetch(static_cast<uint64_t>(level.audio->file_lba) * kSectorSize, kLevelAudioHeaderSize);
    scan_container(image, level);
    if (level.header && level.toc_header)
        level.checks.push_back({"TOC copy matches container header", same_except_sector(*level.header, *level.toc_header),
                                "every field but +4 (sector) equal (§2.3)"});
}

DiscScan scan_disc(const Image& image) {
    DiscScan disc = scan_table(image);
    for (auto& level : disc.levels) scan_level(image, level);
    return disc;
}

DiscScan scan_table(const Image& image) {
    DiscScan disc;
    if (image.size() < (iso9660::kPvdLba + 1) * kSectorSize)
        throw NotAGameDisc(fmt::format("{} bytes is too small for an ISO9660 image", image.size()));
    const Bytes pvd = image.read_clamped(iso9660::kPvdLba * kSectorSize, kSectorSize);
    disc.toc_digest.add(pvd);
    auto volume = iso9660::parse_primary_volume(pvd);
    if (!volume.ok()) throw NotAGameDisc("not an ISO9660 image: " + volume.error().describe());
    disc.volume = *volume;
    IsoWalk(image, disc).directory(volume->root_lba, volume->root_size, "", 0, iso9660::kMaxRootSize);

    // The TOC's own bytes: the ISO9660 file at its LBA (RC2.HDR, §2.3).
    // Reading only those, not Wrench's 2 MiB, is most of a warm mount's
    // work that is not loading the program (measured: 2 MiB zeroed and
    // copied). A table that does not parse from them is read again as
    // Wrench reads it, so what parses is the same either way.
    const auto toc_file = std::find_if(disc.files.begin(), disc.files.end(), [](const IsoFile& f) { return f.lba == kTocLba; });
    const bool recorded = toc_file != disc.files.end();
    const uint64_t toc_at = static_cast<uint64_t>(kTocLba) * kSectorSize;
    const uint64_t toc_size = recorded && toc_file->size > 0 ? std::min<uint64_t>(toc_file->size, kTocMaxSize) : kTocMaxSize;
    Bytes toc_bytes = image.read_clamped(toc_at, toc_size);
    auto toc = parse_toc(toc_bytes);
    if (!toc.ok() && toc_size < kTocMaxSize) {
        toc_bytes = image.read_clamped(toc_at, kTocMaxSize);
        toc = parse_toc(toc_bytes);
    }
    // Digested as far as the file reaches (the levels' headers have digests of their own).
    disc.toc_digest.add(ByteSpan(toc_bytes).first(recorded ? std::min<uint64_t>(toc_file->size, toc_bytes.size()) : toc_bytes.size()));
    // Cut before the table (and perhaps before its directories): the volume
    // descriptor says how many sectors the image should have (ECMA-119 8.4.8).
    if (!toc.ok() && image.size() <= toc_at && image.size() / kSectorSize < volume->volume_space_sectors)
        throw NotAGameDisc(fmt::format("the image is truncated: it ends at sector {} of the volume's {}, before the table of contents at LBA {}{}",
                                       image.size() / kSectorSize, volume->volume_space_sectors, kTocLba,
                                       image.size() / kSectorSize <= volume->root_lba
                                           ? fmt::format(" and the ISO9660 root directory at LBA {}", volume->root_lba) : ""));
    if (!toc.ok()) {
        // An image whose ISO9660 directory records the TOC at LBA 1001 but
        // that ends before it says where it ends, not what it found there
        // (§2.3: the TOC is that file; its recorded size says how far it reaches).
        if (recorded) {
            const uint64_t last = kTocLba + std::max<uint64_t>(1, sectors_for(toc_file->size)) - 1;
            if (image.size() / kSectorSize <= last)
                throw NotAGameDisc(fmt::format("the image ends at sector {}; the table of contents needs sector {}",
                                               image.size() / kSectorSize, last));
        }
        throw NotAGameDisc("no Going Commando table of contents at LBA 1001: " + toc.error().describe());
    }
    disc.toc = *toc;

    for (const auto& entry : disc.toc.levels) {
        if (!entry.level) continue;  // audio/scene-only slots have no level container to show
        LevelScan level;
        level.index = entry.index;
        level.folder = fmt::format("LEVEL{:02d}", entry.index);
        level.part = *entry.level;
        level.audio = entry.audio;
        level.scene = entry.scene;
        auto copy = parse_level_header(ByteSpan(toc_bytes).subspan(entry.level->toc_offset));
        if (copy.ok()) level.toc_header = *copy;
        disc.levels.push_back(std::move(level));
    }
    return disc;
}

formats::mpeg::VideoRegion video_region(const DiscScan& scan) {
    for (const IsoFile& f : scan.files)
        if (f.path.rfind("SCES_", 0) == 0 || f.path.rfind("SLES_", 0) == 0) return formats::mpeg::VideoRegion::pal;
    return formats::mpeg::VideoRegion::ntsc;
}

}  // namespace gcfs::tree
