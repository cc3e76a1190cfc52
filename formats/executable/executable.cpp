#include "formats/executable/executable.h"

#include <fmt/format.h>

#include <array>
#include <cstring>

namespace gcfs::formats::executable {
namespace {

constexpr uint64_t kElfHeader = 52, kProgramHeader = 32, kSectionHeader = 40, kDataStart = 0x1000;
constexpr uint32_t kEeFlags = 0x20924001;  // noreorder, 5900, eabi64, mips3: what Wrench writes (src/core/elf.cpp)
constexpr uint32_t kWrite = 1, kAlloc = 2, kExec = 4, kMaskProc = 0xf0000000;

struct SectionStyle {
    const char* name;
    uint32_t flags, align;
};
// Wrench's level overlay donor table (src/core/elf.cpp): names, flags, alignment.
constexpr std::array<SectionStyle, 7> kOverlay = {{{".lit", kWrite | kAlloc | kMaskProc, 64},
                                                   {".bss", kWrite | kAlloc | kMaskProc, 64},
                                                   {".data", kWrite | kAlloc, 64},
                                                   {"lvl.vtbl", kAlloc, 1},
                                                   {"lvl.camvtbl", kAlloc, 1},
                                                   {"lvl.sndvtbl", kAlloc, 1},
                                                   {".text", kAlloc | kExec, 64}}};

// Whether the blocks' addresses ascend without overlapping, each gap no
// more than alignment padding (a page): one segment, its bytes spaced as its
// addresses. A damaged address cannot make the file large this way.
constexpr int64_t kMaxGap = 0x1000;
bool contiguous(const std::vector<Block>& blocks) {
    for (size_t i = 1; i < blocks.size(); ++i) {
        const int64_t end = int64_t{blocks[i - 1].address} + blocks[i - 1].size;
        if (blocks[i].address < end || blocks[i].address - end > kMaxGap) return false;
    }
    return !blocks.empty();
}

// Each block's file offset, and the end of the data.
std::vector<uint64_t> data_offsets(const std::vector<Block>& blocks, uint64_t& end) {
    std::vector<uint64_t> at;
    const bool one_segment = contiguous(blocks);
    end = kDataStart;
    for (const Block& b : blocks) {
        const uint64_t offset = one_segment ? kDataStart + static_cast<uint64_t>(int64_t{b.address} - blocks[0].address) : align_up(end, 16);
        at.push_back(offset);
        end = offset + static_cast<uint64_t>(b.size);
    }
    return at;
}

std::string string_table(const std::vector<Block>& blocks, std::vector<uint32_t>& name_at) {
    std::string table(1, '\0');
    for (size_t i = 0; i < blocks.size(); ++i) {
        name_at.push_back(static_cast<uint32_t>(table.size()));
        table += section_name(blocks, i) + '\0';
    }
    name_at.push_back(static_cast<uint32_t>(table.size()));
    table += std::string(".shstrtab") + '\0';
    return table;
}

}  // namespace

Result<std::vector<Block>> read_blocks(ByteSpan exe) {
    return capture([&]() -> std::vector<Block> {
        std::vector<Block> blocks;
        for (uint64_t at = 0; at + kBlockHeaderSize <= exe.size();) {
            Block b{s32_at(exe, at), s32_at(exe, at + 4), s32_at(exe, at + 8), s32_at(exe, at + 12), at + kBlockHeaderSize};
            if (blocks.empty() && b.entry == 0) fail(Errc::bad_value, at + 12, "the first block has no entry point");
            if (!blocks.empty() && b.entry != blocks[0].entry) break;  // the game's end rule (§8)
            if (b.size < 0 || static_cast<uint64_t>(b.size) > exe.size() - b.data_at)
                fail(Errc::out_of_range, at + 4, fmt::format("block {} of {} bytes runs past the {}-byte executable", blocks.size(), b.size, exe.size()));
            blocks.push_back(b);
            at = b.data_at + static_cast<uint64_t>(b.size);
        }
        if (blocks.empty()) fail(Errc::truncated, 0, "no block");
        return blocks;
    });
}

bool overlay_shape(const std::vector<Block>& blocks) {
    if (blocks.size() != kOverlay.size()) return false;
    for (size_t i = 0; i < blocks.size(); ++i)
        if (blocks[i].type != (i == 1 ? kNoBits : kProgBits)) return false;
    return true;
}

std::string section_name(const std::vector<Block>& blocks, size_t i) {
    return overlay_shape(blocks) ? kOverlay[i].name : fmt::format(".block_{}", i);
}

uint64_t elf_size(const std::vector<Block>& blocks) {
    uint64_t end = 0;
    data_offsets(blocks, end);
    std::vector<uint32_t> names;
    const uint64_t strings = string_table(blocks, names).size();
    return align_up(end + strings, 4) + kSectionHeader * (blocks.size() + 2);
}

Bytes write_elf(ByteSpan exe, const std::vector<Block>& blocks) {
    uint64_t end = 0;
    const std::vector<uint64_t> at = data_offsets(blocks, end);
    std::vector<uint32_t> name_at;
    const std::string strings = string_table(blocks, name_at);
    const bool one_segment = contiguous(blocks), overlay = overlay_shape(blocks);
    const uint64_t segments = one_segment ? 1 : blocks.size();
    const uint64_t section_headers = align_up(end + strings.size(), 4);
    Bytes out(section_headers + kSectionHeader * (blocks.size() + 2), 0);
    auto put = [&](uint64_t offset, std::initializer_list<uint32_t> words) {
        for (uint32_t w : words) {
            for (int k = 0; k < 4; ++k) out[offset + k] = static_cast<uint8_t>(w >> (8 * k));
            offset += 4;
        }
    };
    const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};  // 32-bit, little-endian, version 1, System V
    std::memcpy(out.data(), ident, sizeof ident);
    put(16, {2u | 8u << 16, 1, static_cast<uint32_t>(blocks[0].entry), static_cast<uint32_t>(kElfHeader),
             static_cast<uint32_t>(section_headers), kEeFlags});  // EXEC, MIPS, version, entry, phoff, shoff, flags
    put(40, {static_cast<uint32_t>(kElfHeader | kProgramHeader << 16), static_cast<uint32_t>(segments | kSectionHeader << 16),
             static_cast<uint32_t>((blocks.size() + 2) | (blocks.size() + 1) << 16)});
    for (size_t i = 0; i < blocks.size(); ++i) std::memcpy(out.data() + at[i], exe.data() + blocks[i].data_at, static_cast<size_t>(blocks[i].size));
    std::memcpy(out.data() + end, strings.data(), strings.size());
    for (uint64_t s = 0; s < segments; ++s) {  // PT_LOAD, read-write-execute
        const size_t first = one_segment ? 0 : s, last = one_segment ? blocks.size() - 1 : s;
        const uint64_t bytes = at[last] + static_cast<uint64_t>(blocks[last].size) - at[first];
        const auto address = static_cast<uint32_t>(blocks[first].address);
        put(kElfHeader + kProgramHeader * s,
            {1, static_cast<uint32_t>(at[first]), address, address, static_cast<uint32_t>(bytes), static_cast<uint32_t>(bytes), 7,
             one_segment ? 0x1000u : 1u});
    }
    for (size_t i = 0; i < blocks.size(); ++i) {
        const uint32_t flags = overlay ? kOverlay[i].flags : blocks[i].type == kNoBits ? kWrite | kAlloc : kAlloc;
        const uint32_t align = overlay ? kOverlay[i].align : 1;
        put(section_headers + kSectionHeader * (i + 1),
            {name_at[i], static_cast<uint32_t>(blocks[i].type), flags, static_cast<uint32_t>(blocks[i].address), static_cast<uint32_t>(at[i]),
             static_cast<uint32_t>(blocks[i].size), 0, 0, align, 0});
    }
    put(section_headers + kSectionHeader * (blocks.size() + 1),
        {name_at.back(), 3, 0, 0, static_cast<uint32_t>(end), static_cast<uint32_t>(strings.size()), 0, 0, 1, 0});  // SHT_STRTAB
    return out;
}

Result<ElfOutline> read_elf(ByteSpan elf) {
    return capture([&]() -> ElfOutline {
        require(elf, 0, kElfHeader, "ELF header");
        if (std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0) fail(Errc::bad_magic, 0, "no ELF magic");
        if (elf[4] != 1 || elf[5] != 1) fail(Errc::bad_value, 4, "not a 32-bit little-endian ELF");
        ElfOutline o{u16_at(elf, 16), u16_at(elf, 18), u32_at(elf, 24)};
        const uint32_t shoff = u32_at(elf, 32);
        const uint16_t shentsize = u16_at(elf, 46), shnum = u16_at(elf, 48), shstrndx = u16_at(elf, 50);
        if (shnum == 0) return o;
        if (shentsize != kSectionHeader) fail(Errc::bad_value, 46, fmt::format("section headers of {} bytes", shentsize));
        require(elf, shoff, uint64_t{shnum} * kSectionHeader, "section headers");
        if (shstrndx >= shnum) fail(Errc::out_of_range, 50, fmt::format("section name table {} of {} sections", shstrndx, shnum));
        const uint64_t names_at = u32_at(elf, shoff + uint64_t{kSectionHeader} * shstrndx + 16);
        const uint64_t names_size = u32_at(elf, shoff + uint64_t{kSectionHeader} * shstrndx + 20);
        require(elf, names_at, names_size, "section name table");
        for (uint64_t i = 0; i < shnum; ++i) {
            const uint64_t h = shoff + kSectionHeader * i;
            const uint32_t name = u32_at(elf, h), type = u32_at(elf, h + 4), offset = u32_at(elf, h + 16), size = u32_at(elf, h + 20);
            if (type != kNoBits && type != 0) require(elf, offset, size, "section data");
            if (name >= names_size) fail(Errc::out_of_range, h, fmt::format("section {}'s name is past the name table", i));
            const auto* text = reinterpret_cast<const char*>(elf.data() + names_at + name);
            o.sections.emplace_back(text, strnlen(text, names_size - name));
        }
        return o;
    });
}

Bytes write_executable(const std::vector<BlockSpec>& blocks, int32_t entry) {
    ByteWriter out;
    for (const BlockSpec& b : blocks) {
        out.s32(b.address);
        out.s32(static_cast<int32_t>(b.bytes.size()));
        out.s32(b.type);
        out.s32(entry);
        out.append(b.bytes);
    }
    return std::move(out.bytes());
}

Bytes write_relocatable(const std::vector<std::pair<std::string, Bytes>>& sections) {
    ByteWriter out;
    const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};
    out.append(ident);
    out.u16(1), out.u16(8), out.u32(1), out.u32(0), out.u32(0);  // REL, MIPS, version, entry, phoff
    const uint64_t shoff_at = out.size();
    out.u32(0), out.u32(kEeFlags);
    out.u16(static_cast<uint16_t>(kElfHeader)), out.u16(0), out.u16(0);  // ehsize, no program headers
    out.u16(static_cast<uint16_t>(kSectionHeader)), out.u16(static_cast<uint16_t>(sections.size() + 2)),
        out.u16(static_cast<uint16_t>(sections.size() + 1));
    std::vector<uint64_t> at;
    for (const auto& [name, bytes] : sections) {
        out.pad_to(4);
        at.push_back(out.size());
        out.append(bytes);
    }
    std::string names(1, '\0');
    std::vector<uint32_t> name_at;
    for (const auto& [name, bytes] : sections) name_at.push_back(static_cast<uint32_t>(names.size())), names += name + '\0';
    name_at.push_back(static_cast<uint32_t>(names.size()));
    names += std::string(".shstrtab") + '\0';
    const uint64_t names_at = out.size();
    out.append(ByteSpan(reinterpret_cast<const uint8_t*>(names.data()), names.size()));
    out.pad_to(4);
    out.patch_u32(shoff_at, static_cast<uint32_t>(out.size()));
    out.zeros(kSectionHeader);  // the null section
    for (size_t i = 0; i < sections.size(); ++i) {
        const bool text = sections[i].first == ".text";
        out.u32(name_at[i]), out.u32(kProgBits), out.u32(text ? kAlloc | kExec : kWrite | kAlloc), out.u32(0);
        out.u32(static_cast<uint32_t>(at[i])), out.u32(static_cast<uint32_t>(sections[i].second.size())), out.u32(0), out.u32(0), out.u32(4), out.u32(0);
    }
    out.u32(name_at.back()), out.u32(3), out.u32(0), out.u32(0), out.u32(static_cast<uint32_t>(names_at)), out.u32(static_cast<uint32_t>(names.size())),
        out.u32(0), out.u32(0), out.u32(1), out.u32(0);
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::executable
