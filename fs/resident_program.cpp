#include "fs/resident_program.h"

#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace gcfs::fs {
namespace {

struct Range {
    uintptr_t begin, end;
};

// The loadable segments of the program itself (not of the libraries, which
// other processes keep resident or which the daemon barely uses).
std::vector<Range> program_segments() {
    std::vector<Range> ranges;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) -> int {
            auto& found = *static_cast<std::vector<Range>*>(out);
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& segment = info->dlpi_phdr[i];
                if (segment.p_type != PT_LOAD || (segment.p_flags & PF_W)) continue;
                const uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
                found.push_back({begin, begin + segment.p_memsz});
            }
            return 1;  // the first object listed is the program
        },
        &ranges);
    return ranges;
}

}  // namespace

std::thread map_program_in_background() {
    return std::thread([] {
        const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
        for (const Range& range : program_segments())
            for (uintptr_t at = range.begin & ~(page - 1); at < range.end; at += page)
                (void)*reinterpret_cast<const volatile uint8_t*>(at);
    });
}

}  // namespace gcfs::fs
