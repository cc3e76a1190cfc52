// VIF1 code words and the walk over a VIF code list (formats.md §7.4).
#pragma once

#include <cstdint>
#include <vector>

#include "formats/common/bytes.h"

namespace gcfs::formats::vif {

enum Cmd : uint8_t {
    NOP = 0x00, STCYCL = 0x01, OFFSET = 0x02, BASE = 0x03, ITOP = 0x04, STMOD = 0x05, MSKPATH3 = 0x06,
    MARK = 0x07, FLUSHE = 0x10, FLUSH = 0x11, FLUSHA = 0x13, MSCAL = 0x14, MSCALF = 0x15, MSCNT = 0x17,
    STMASK = 0x20, STROW = 0x30, STCOL = 0x31, MPG = 0x4A, DIRECT = 0x50, DIRECTHL = 0x51,
};

// Unpack vector formats by (vn, vl) as tfrags use them (§7.4 table).
enum class Format : uint8_t { V4_32 = 0xC, V4_16 = 0xD, V3_16 = 0x9, V4_8 = 0xE };

struct Code {
    uint32_t raw = 0;

    uint8_t cmd() const { return (raw >> 24) & 0x7f; }
    uint32_t num() const { return (raw >> 16) & 0xff; }
    uint32_t imm() const { return raw & 0xffff; }
    bool is_unpack() const { return (cmd() & 0x60) == 0x60; }  // §7.4: bits 6 and 5 set
    // §7.4 / seed: the vector format lives in the command byte, not the immediate.
    uint32_t vn() const { return (raw >> 26) & 3; }
    uint32_t vl() const { return (raw >> 24) & 3; }
    Format format() const { return static_cast<Format>((vn() << 2) | vl()); }
    bool usn() const { return (raw >> 14) & 1; }
    uint32_t addr() const { return raw & 0x3ff; }
    uint32_t count() const { return num() == 0 ? 256 : num(); }
    uint32_t element_size() const { return ((32u >> vl()) * (vn() + 1)) / 8; }
};

// Size of the code word plus its inline payload (§7.4 "Packet size").
// Returns 0 for a command the walker does not know.
uint64_t packet_size(Code code);

// The rule a walk sizes packets by. Production always uses packet_size; the
// parameter exists so tests can substitute the seed's wrong readings and show
// that each one breaks the patch counts (seed "tfrag terrain", wrong turns).
using PacketSizer = uint64_t (*)(Code code);

struct Packet {
    uint64_t offset;   // of the code word inside the list
    Code code;
    ByteSpan payload;  // unpack data (unpadded) or the inline payload of STROW/STCOL/STMASK/MPG/DIRECT
};

// Walks a list of code words; an unknown command or a payload running past
// the list is Errc::desync / Errc::truncated with the offset of the code.
// NOPs (zero words, the lists' padding) are stepped over and not returned.
Result<std::vector<Packet>> walk(ByteSpan list, PacketSizer sizer = packet_size);

// Writer helpers.
uint32_t unpack(Format format, uint32_t count, uint32_t addr, bool usn);
uint32_t code(Cmd cmd, uint32_t num = 0, uint32_t imm = 0);

}  // namespace gcfs::formats::vif
