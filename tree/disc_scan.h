// Reads the headers of a disc image: ISO9660 directories and the table of
// contents at mount (scan_table), then each level's container, data lump and
// core header when its folder is first needed (scan_level). Nothing is
// decompressed here but the 16-byte tfrags header.
#pragma once

#include <optional>
#include <stdexcept>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "formats/core/bank_textures.h"
#include "formats/core/core_tables.h"
#include "formats/disc/data_lump.h"
#include "formats/disc/iso9660.h"
#include "formats/core/level_core.h"
#include "formats/core/ratchet_seqs.h"
#include "formats/core/sound_remap.h"
#include "formats/disc/level_wad.h"
#include "formats/tfrag/tfrag_read.h"
#include "formats/disc/toc.h"
#include "formats/mpeg/subtitles.h"
#include "formats/particles/particle_defs.h"
#include "tree/node/image.h"

namespace gcfs::tree {

// An image that is not a Going Commando disc at all (not ISO9660, no TOC).
class NotAGameDisc : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Check {
    std::string name;
    bool ok;
    std::string detail;
};

struct IsoFile {
    std::string path;  // "LEVELS/LEVEL00.WAD"
    uint32_t lba;
    uint32_t size;
    uint64_t record_byte = 0;  // image byte of its ISO9660 directory record (an edit that moves the file rewrites it)
};

// What part of the ISO9660 tree could not be read, listed in disc/.damaged.
constexpr std::string_view kIsoDamageNote = ".damaged";
struct IsoDamage {
    std::string folder;  // "disc/LEVELS"
    uint32_t lba;        // the directory's
    uint64_t byte;       // image byte of the record (or of the extent)
    std::string what;
};

// CRC-32 and Adler-32 of every header byte read for one thing, and their
// count: how the persistent index (cache/index_store.h) tells that what it
// saved was made from the same headers. Any one changed byte changes it.
class HeaderDigest {
public:
    void add(formats::ByteSpan bytes);
    std::string text() const;  // "crc32-adler32-bytes", hex

private:
    uint32_t crc_ = 0, adler_ = 1;
    uint64_t bytes_ = 0;
};

struct LevelScan {
    int index = 0;
    std::string folder;             // "LEVEL00": table index, not id (§2.4)
    formats::LevelPart part{};
    std::optional<formats::LevelPart> audio, scene;
    uint64_t file_offset = 0;       // bytes
    uint64_t file_size = 0;         // bytes, from the table's sector count
    std::optional<formats::LevelHeader> header;      // the copy at the file's start
    std::optional<formats::LevelHeader> toc_header;  // the TOC's copy
    uint64_t data_offset = 0;       // absolute image offset of the data lump
    std::optional<formats::DataLumpHeader> lump;
    formats::Bytes core_index;      // kept: later decoders read its tables
    std::optional<formats::LevelCoreHeader> core;
    std::vector<formats::CoreRegion> regions;
    std::set<uint64_t> boundaries;  // where DAT blocks and classes end (§6.2, formats-tie-sky.md A.1)
    std::array<std::vector<formats::ClassEntry>, 3> classes;      // moby, tie, shrub (§6.3)
    std::vector<formats::NamedTextureTable> textures;             // tfrag, moby, tie, shrub
    // formats-moby.md §10.2: where stashed moby textures start in gs_ram, and
    // the moby texture rows stashed classes use (their texels live there).
    std::optional<uint64_t> moby_stash_address;
    // The particle and fx texture tables (their texels and palettes are in DAT's banks).
    std::vector<formats::BankTexture> particle_textures, fx_textures;
    std::set<size_t> stashed_moby_rows;
    std::set<int32_t> stashed_moby_classes;  // the stash list's class ids (formats-moby.md §10.2)
    // formats-globals.md §13 (tree/level/core_blocks.h): each set when its header
    // offset is set and the block passed its checks.
    std::optional<formats::particles::ParticleDefs> particle_defs;
    std::optional<formats::SoundRemap> sound_remap;
    std::vector<formats::RatchetSeq> ratchet_seqs;
    std::string particle_defs_error, sound_remap_error;  // set offset, block failed: its files read EIO with this
    // §7.1: the tfrags block header, the only bytes of core_data decoded at
    // mount (16 of them), so the tfrag/ folder knows its patch count.
    std::optional<formats::TfragsHeader> tfrags;
    std::vector<Check> checks;
    // The image had changed (size or mtime) when these headers were to be read.
    bool stale = false;
    // Of the container header sector, data lump header, core_index and
    // core_data stream header, as read.
    HeaderDigest digest;

    bool ok() const;
    // The region of DAT named `name` ("tfrag", ...), or null.
    const formats::CoreRegion* region(const std::string& name) const;
    // The texture table named `name` ("tfrag", "moby", ...); empty when it is
    // absent or did not parse (a failed table is not replaced by the next one).
    const std::vector<formats::TextureEntry>& texture_table(const std::string& name) const;
    // Whether row `row` of texture table `table` is a stashed moby class's:
    // its texels and palette are in gs_ram (formats-moby.md §10.2).
    bool stashed_row(std::string_view table, size_t row) const { return table == "moby" && stashed_moby_rows.contains(row); }
};

struct DiscScan {
    formats::iso9660::PrimaryVolume volume;
    std::vector<IsoFile> files;
    std::vector<std::string> directories;  // every ISO9660 folder shown, empty ones too
    std::vector<IsoDamage> iso_damage;
    formats::Toc toc;
    HeaderDigest toc_digest;  // of the primary volume descriptor and the table of contents, as read
    std::vector<LevelScan> levels;
};

// The ISO9660 directories and the table of contents; each level has its
// table entry only (index, folder, container extent, the TOC's header copy).
DiscScan scan_table(const Image& image);

// formats-globals.md §4: subtitle frames count at the disc's video rate. A
// PAL disc boots an SCES/SLES executable; the GC US disc (SCUS_972.68) and
// any other is NTSC.
formats::mpeg::VideoRegion video_region(const DiscScan& scan);
// The rest of one level's headers and checks.
void scan_level(const Image& image, LevelScan& level);
// `level` with its core read again from `core_index` (an edit's, after the
// core grew: formats/core/core_growth.h moves what follows): the core
// header, the class tables, the block boundaries and the regions; the rest
// as scanned. Fails naming what does not read.
formats::Result<LevelScan> rescan_core(const LevelScan& level, formats::ByteSpan core_index);
// Both, for every level.
DiscScan scan_disc(const Image& image);

}  // namespace gcfs::tree
