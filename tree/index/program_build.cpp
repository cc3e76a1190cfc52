#include "tree/index/program_build.h"

#include <elf.h>
#include <link.h>

#include <fmt/format.h>

#include <cstring>

namespace gcfs::tree {
namespace {

// dl_iterate_phdr's first object is the executable: its PT_NOTE segments.
int find_build_id(dl_phdr_info* info, size_t, void* out) {
    auto& id = *static_cast<std::string*>(out);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_NOTE) continue;
        const auto* at = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
        const uint8_t* end = at + ph.p_memsz;
        while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof note);
            const uint8_t* name = at + sizeof note;
            const uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
            if (desc + note.n_descsz > end) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                for (uint32_t k = 0; k < note.n_descsz; ++k) id += fmt::format("{:02x}", desc[k]);
                return 1;
            }
            at = desc + ((note.n_descsz + 3) & ~3u);
        }
    }
    return 1;  // only the executable is looked at
}

}  // namespace

const std::string& program_build() {
    static const std::string build = [] {
        std::string id;
        dl_iterate_phdr(find_build_id, &id);
        return id.empty() ? std::string("gcfs ") + GCFS_VERSION : id;
    }();
    return build;
}

}  // namespace gcfs::tree
