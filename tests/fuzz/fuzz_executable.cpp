// libFuzzer: a ratchet executable (formats-globals.md §8) split into blocks
// and rebuilt as an ELF that our own ELF reader must then read, at the size
// elf_size promised; the bytes as an ELF; the IRX table; and the MISC, BONUS
// and HUD header tables.
#include "formats/bonus/bonus.h"
#include "formats/executable/executable.h"
#include "formats/hud/hud.h"
#include "formats/misc/misc.h"

using namespace gcfs::formats;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ByteSpan bytes(data, size);
    if (const auto blocks = executable::read_blocks(bytes); blocks.ok()) {
        const Bytes elf = executable::write_elf(bytes, *blocks);
        if (elf.size() != executable::elf_size(*blocks)) __builtin_trap();
        const auto outline = executable::read_elf(elf);
        if (!outline.ok() || outline->sections.size() != blocks->size() + 2) __builtin_trap();
    }
    (void)executable::read_elf(bytes);
    (void)misc::parse_irx_table(bytes, size);
    (void)read_range_tables(bytes, misc::kMiscHeaderSize, misc::kMiscTables, size, "MISC");
    (void)read_range_tables(bytes, bonus::kBonusHeaderSize, bonus::kBonusTables, size, "BONUS");
    (void)read_range_tables(bytes, hud::kHudHeaderSize, hud::kHudTables, size, "HUD");
    return 0;
}
