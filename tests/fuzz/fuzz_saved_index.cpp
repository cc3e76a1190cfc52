// libFuzzer: a persistent index record (formats/saved_index/folder_record.h),
// read back from whatever bytes the index file holds. A record that reads
// must write back to one that reads the same.
#include "formats/saved_index/folder_record.h"

using namespace gcfs::formats::saved_index;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    constexpr uint64_t kMaxSize = uint64_t{1} << 40;  // a level's bound (tree/index/persistent_index.cpp)
    auto record = decode_record({data, size}, kMaxSize);
    if (!record.ok()) return 0;
    for (const auto& [path, bytes] : record->files)
        if (bytes > kMaxSize || path.size() > 65535) __builtin_trap();
    for (const auto& run : record->runs)
        for (size_t i = 0; i < run.names.size(); ++i)
            if (run.sizes[i] > kMaxSize || !is_entry_name(run.names[i])) __builtin_trap();
    auto again = decode_record(encode_record(*record), kMaxSize);
    if (!again.ok() || again->files != record->files || again->runs.size() != record->runs.size()) __builtin_trap();
    for (size_t i = 0; i < record->runs.size(); ++i)
        if (again->runs[i].names != record->runs[i].names || again->runs[i].sizes != record->runs[i].sizes) __builtin_trap();
    return 0;
}
