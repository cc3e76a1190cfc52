#include "formats/mpeg/pes.h"

#include <stdexcept>

namespace gcfs::formats::mpeg {

void pes_header_with_pts(Bytes& out, uint8_t stream_id, uint64_t payload, uint64_t pts) {
    const uint64_t length = kPesHeaderWithPts - 6 + payload;  // what follows the length field
    if (length > 0xFFFF) throw std::invalid_argument("a PES packet holds at most 65535 bytes after its length");
    out.insert(out.end(), {0, 0, 1, stream_id, static_cast<uint8_t>(length >> 8), static_cast<uint8_t>(length)});
    out.insert(out.end(), {0x84, 0x80, 5});  // '10', not scrambled, data aligned; a PTS only; 5 header bytes
    out.push_back(static_cast<uint8_t>(0x21 | (pts >> 29 & 0x0E)));
    out.push_back(static_cast<uint8_t>(pts >> 22));
    out.push_back(static_cast<uint8_t>(pts >> 14 | 1));
    out.push_back(static_cast<uint8_t>(pts >> 7));
    out.push_back(static_cast<uint8_t>(pts << 1 | 1));
}

}  // namespace gcfs::formats::mpeg
