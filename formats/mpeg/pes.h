// The PES packet header every packet gcfs writes into a program stream
// carries (the builder's video and sound, NN.mpg's LPCM): ISO/IEC 13818-1
// 2.4.3.6 with a PTS alone.
#pragma once

#include <cstdint>

#include "formats/common/bytes.h"

namespace gcfs::formats::mpeg {

constexpr uint64_t kPesHeaderWithPts = 14;  // start code, length, flags, header length, PTS

// Appends the start code of `stream_id`, the packet length for `payload`
// bytes after the header, '10' with data alignment, the PTS flag, five header
// bytes and `pts` (90 kHz, 2.4.3.7: '0010', then 3, 15 and 15 bits, each
// followed by a marker bit).
void pes_header_with_pts(Bytes& out, uint8_t stream_id, uint64_t payload, uint64_t pts);

}  // namespace gcfs::formats::mpeg
