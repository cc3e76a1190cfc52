// A "ratchet executable" (formats-globals.md §8): the game's code as it loads
// it, blocks of {s32 load_address, s32 size, s32 section_type, s32
// entry_point} each followed by its bytes, for as long as a block's entry
// point equals the first's. The MISC WAD's frontbin and each level's code
// overlay are one. gcfs rebuilds an ELF from the blocks so that readelf,
// objdump and disassemblers open it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::executable {

constexpr uint64_t kBlockHeaderSize = 16;
constexpr int32_t kProgBits = 1, kNoBits = 8;  // ELF section types, as the blocks store them

struct Block {
    int32_t address = 0, size = 0, type = 0, entry = 0;
    uint64_t data_at = 0;  // where its bytes start in the executable
};

// The blocks, checked: the first has an entry point; every block's bytes lie
// inside `executable`; reading stops at the first header whose entry point
// differs (the game's rule) or where fewer than 16 bytes remain.
Result<std::vector<Block>> read_blocks(ByteSpan executable);

// §8: seven blocks typed PROGBITS, NOBITS, then PROGBITS five times are the
// level overlay's layout, whose sections Wrench names .lit .bss .data
// lvl.vtbl lvl.camvtbl lvl.sndvtbl .text. Any other shape gets neutral names
// (.block_N).
bool overlay_shape(const std::vector<Block>& blocks);
std::string section_name(const std::vector<Block>& blocks, size_t i);

// The rebuilt ELF (32-bit little-endian MIPS EXEC, the EE's flags as Wrench
// writes them): a section per block, the bytes at file offset 0x1000 on. When
// the blocks' addresses ascend without overlapping they form one loadable
// segment, the bytes spaced as their addresses are; otherwise each block is
// a segment of its own. Its size follows from the block headers alone.
uint64_t elf_size(const std::vector<Block>& blocks);
Bytes write_elf(ByteSpan executable, const std::vector<Block>& blocks);

// An ELF file's outline, checked as a reader needs it: the magic, 32-bit
// little-endian, every section header and section inside the file.
struct ElfOutline {
    uint16_t type = 0, machine = 0;
    uint32_t entry = 0;
    std::vector<std::string> sections;  // names, the null section's included
};
Result<ElfOutline> read_elf(ByteSpan elf);

// ---- writer (the disc builder) ----
struct BlockSpec {
    int32_t address = 0, type = kProgBits;
    Bytes bytes;
};
Bytes write_executable(const std::vector<BlockSpec>& blocks, int32_t entry);
// A small relocatable ELF (32-bit little-endian MIPS, ET_REL) of PROGBITS
// sections and their name table: what the builder puts in the IRX table
// where the disc has IOP modules.
Bytes write_relocatable(const std::vector<std::pair<std::string, Bytes>>& sections);

}  // namespace gcfs::formats::executable
