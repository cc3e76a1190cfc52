// gcfs's own on-disk format for what a first listing of a level folder found
// (tree/index/remembered.h): every file's size and, for each file run whose names
// come from decoded bytes, its names. Saved in the persistent index
// (cache/index_store.h) so that a later mount of the same image lists the
// folder without decoding. Not a disc format: the layout is ours, versioned,
// and checked like any untrusted input (a damaged record is ignored).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/common/bytes.h"
#include "formats/common/error.h"

namespace gcfs::formats::saved_index {

// Version of the record's layout; a record of another version is ignored.
constexpr uint32_t kRecordVersion = 1;

struct RunRecord {
    std::string dir;        // the run's folder, relative to the level folder ("" for the folder itself)
    uint32_t ordinal = 0;   // which of that folder's runs, in the order they were added
    std::vector<std::string> names;  // by position
    std::vector<uint64_t> sizes;     // by position
};

struct FolderRecord {
    std::map<std::string, uint64_t> files;  // built files: path under the level folder -> size
    std::vector<RunRecord> runs;
};

// Magic "GCIR", version, CRC-32 and length of the plain record, then the
// record deflated (zlib): file and run tables of length-prefixed strings.
Bytes encode_record(const FolderRecord& record);
// Every count is checked against the bytes left before anything is
// allocated; names must be names the tree itself makes (is_entry_name),
// paths relative ones made of them; every size at most `max_size` (the
// caller's bound from the image: what the level's bytes can decode to).
Result<FolderRecord> decode_record(ByteSpan blob, uint64_t max_size);

// Whether `name` is one the tree shows (tree/node/safe_name.h): 1 to 255 bytes of
// printable ASCII, no '/', '%' only as %XX with two upper-case hex digits,
// not "." or "..". A name from a record must be one; anything else is damage.
bool is_entry_name(std::string_view name);

}  // namespace gcfs::formats::saved_index
