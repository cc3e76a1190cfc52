// libFuzzer: a persistent index record (formats/saved_index/folder_record.h),
// read back from whatever bytes the index file holds. A record that reads
// must write back to one that reads the same.
#include "formats/saved_index/folder_record.h"

using namespace gcfs::formats::saved_index;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto record = decode_record({data, size});
    if (!record.ok()) return 0;
    auto again = decode_record(encode_record(*record));
    if (!again.ok() || again->files != record->files || again->runs.size() != record->runs.size()) __builtin_trap();
    for (size_t i = 0; i < record->runs.size(); ++i)
        if (again->runs[i].names != record->runs[i].names || again->runs[i].sizes != record->runs[i].sizes) __builtin_trap();
    return 0;
}
