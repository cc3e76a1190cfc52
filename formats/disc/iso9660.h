// ISO9660 as the game disc uses it (formats.md §2.1, §2.2): the primary
// volume descriptor at LBA 16 and plain directory records. Reader and writer.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::iso9660 {

constexpr uint32_t kPvdLba = 16;
constexpr uint64_t kMaxRootSize = 0x10000;       // §2.2: Wrench rejects a larger root; gcfs reads this much of it
constexpr size_t kMaxRecordsPerDirectory = 1000;  // §2.2
constexpr int kMaxDepth = 8;                      // §2.2
constexpr uint32_t kMaxFilesystemSectors = 1500;  // §2.1: Wrench parses only the first 1500 sectors

struct PrimaryVolume {
    std::string system_id;
    std::string volume_id;
    uint32_t volume_space_sectors = 0;
    uint32_t root_lba = 0;
    uint32_t root_size = 0;
    std::time_t creation = 0;  // UTC; 0 when the field is unset
};

// `sector` is the 2048 bytes at LBA 16.
Result<PrimaryVolume> parse_primary_volume(ByteSpan sector);

struct DirectoryEntry {
    std::string name;  // as recorded, with ";1" stripped (case kept)
    uint32_t lba = 0;
    uint32_t size = 0;
    bool is_directory = false;
    uint64_t record_offset = 0;  // the record's byte in its directory extent
};

// ECMA-119 9.1.3, 9.1.4: a record's extent LBA and data length, each both-endian.
void put_record_extent(std::span<uint8_t> record, uint32_t lba, uint32_t size);
// ECMA-119 8.4.8: the PVD's volume space size, both-endian at byte 80.
void put_volume_sectors(std::span<uint8_t> pvd, uint32_t sectors);

// What one directory extent could not give: `offset` is the record's byte in
// the extent.
struct DirectoryProblem {
    uint64_t offset = 0;
    std::string what;
};

struct Directory {
    std::vector<DirectoryEntry> entries;
    std::vector<DirectoryProblem> problems;
};

// Parses one directory extent; "." and ".." are skipped, a zero length byte
// skips to the next byte (sector padding, §2.2). Never fails: the game reads
// no ISO9660 directory (formats.md 2.3), so a damaged record costs only what
// it describes. A record too short to hold a name skips to the next sector
// (records never straddle one, ECMA-119 6.8.1.1), a name past its record
// skips that record, a record past the extent or the 1001st ends the walk, an
// extent whose first record is not its own "." holds no directory at all.
Directory parse_directory(ByteSpan extent);

// The largest extent a directory of kMaxRecordsPerDirectory records can
// fill: each record in a sector of its own, with "." and "..".
constexpr uint64_t kMaxDirectoryBytes = (kMaxRecordsPerDirectory + 2) * kSectorSize;

// ---- writer ----
struct FileToWrite {
    std::string path;  // "SYSTEM.CNF" or "LEVELS/LEVEL00.WAD": at most one directory level
    uint32_t lba = 0;
    uint32_t size = 0;
};

struct VolumeToWrite {
    std::string volume_id;
    std::time_t creation = 0;
    uint32_t volume_sectors = 0;
    std::vector<FileToWrite> files;
};

constexpr uint32_t kPathTableLba = 257;  // §2.1: Wrench puts the L path table at 0x101

// Returns the bytes of LBA 16 up to the end of the last directory sector:
// PVD, terminator, L and M path tables (257, 258), root at 259, then subdirs.
// Fails (std::invalid_argument) if the directories would reach `limit_lba`.
Bytes write_volume(const VolumeToWrite& volume, uint32_t limit_lba);

}  // namespace gcfs::formats::iso9660
