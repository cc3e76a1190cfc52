#include <algorithm>
#include <optional>
#include <stdexcept>

#include "formats/mpeg/pes.h"
#include "formats/mpeg/pss.h"

namespace gcfs::formats::mpeg {
namespace {

// MSB-first bits, as every MPEG header field is written.
class BitWriter {
public:
    void put(uint32_t value, int bits) {
        for (int i = bits - 1; i >= 0; --i) {
            current_ = static_cast<uint8_t>(current_ << 1 | (value >> i & 1));
            if (++used_ == 8) flush();
        }
    }
    void align() {
        while (used_ != 0) put(0, 1);
    }
    void start_code(uint8_t code) {
        align();
        put(0x000001, 24);
        put(code, 8);
    }
    Bytes take() {
        align();
        return std::move(out_);
    }

private:
    void flush() {
        out_.push_back(current_);
        current_ = 0;
        used_ = 0;
    }
    Bytes out_;
    uint8_t current_ = 0;
    int used_ = 0;
};

struct Code {
    uint32_t bits;
    int length;
};
// 13818-2 Tables B.12 and B.13: dct_dc_size for luminance and chrominance.
constexpr Code kDcSizeLuma[] = {{0b100, 3}, {0b00, 2}, {0b01, 2}, {0b101, 3}, {0b110, 3}, {0b1110, 4}, {0b11110, 5}, {0b111110, 6}, {0b1111110, 7}};
constexpr Code kDcSizeChroma[] = {{0b00, 2}, {0b01, 2}, {0b10, 2}, {0b110, 3}, {0b1110, 4}, {0b11110, 5}, {0b111110, 6}, {0b1111110, 7}, {0b11111110, 8}};

// One intra block whose 64 samples all equal the predicted DC plus `diff`:
// with intra_dc_precision 8 bits the block's flat value is QF[0][0] itself.
void flat_block(BitWriter& bits, int diff, const Code* sizes) {
    int size = 0;
    for (int magnitude = diff < 0 ? -diff : diff; magnitude; magnitude >>= 1) ++size;
    bits.put(sizes[size].bits, sizes[size].length);
    if (size) bits.put(static_cast<uint32_t>(diff > 0 ? diff : diff + (1 << size) - 1), size);
    bits.put(0b10, 2);  // Table B.14: end of block (no AC coefficient)
}

void sequence_headers(BitWriter& bits, uint32_t width, uint32_t height) {
    bits.start_code(0xB3);  // sequence_header
    bits.put(width, 12);
    bits.put(height, 12);
    bits.put(1, 4);        // aspect ratio: square samples
    bits.put(4, 4);        // frame rate code 4: 30000/1001
    bits.put(5000, 18);    // bit rate, 400 bit/s units (2 Mbit/s)
    bits.put(1, 1);        // marker
    bits.put(112, 10);     // VBV buffer, 16 kbit units (Main Level's bound)
    bits.put(0, 3);        // constrained parameters, no quantiser matrices
    bits.start_code(0xB5);  // sequence_extension
    bits.put(1, 4);
    bits.put(0x48, 8);     // Main Profile @ Main Level
    bits.put(1, 1);        // progressive sequence
    bits.put(1, 2);        // 4:2:0
    bits.put(0, 4);        // size extensions
    bits.put(0, 12);       // bit rate extension
    bits.put(1, 1);        // marker
    bits.put(0, 8);        // VBV extension
    bits.put(0, 1);        // low delay
    bits.put(0, 7);        // frame rate extension n, d
    bits.start_code(0xB8);  // group_of_pictures_header
    bits.put(0, 1);        // drop frame
    bits.put(0, 5 + 6);    // hours, minutes
    bits.put(1, 1);        // marker
    bits.put(0, 6 + 6);    // seconds, pictures
    bits.put(1, 1);        // closed GOP
    bits.put(0, 1);        // broken link
}

void picture(BitWriter& bits, uint32_t width, uint32_t height, const FlatPicture& pic, uint32_t temporal_reference) {
    bits.start_code(0x00);  // picture_header
    bits.put(temporal_reference, 10);
    bits.put(1, 3);        // I picture
    bits.put(0xFFFF, 16);  // VBV delay: not given
    bits.put(0, 1);        // extra bit
    bits.start_code(0xB5);  // picture_coding_extension
    bits.put(8, 4);
    bits.put(0xFFFF, 16);  // f_codes: none in an I picture
    bits.put(0, 2);        // intra DC precision: 8 bits
    bits.put(3, 2);        // frame picture
    bits.put(0, 1);        // top field first
    bits.put(1, 1);        // frame_pred_frame_dct
    bits.put(0, 5);        // concealment vectors, q_scale_type, intra VLC format, alternate scan, repeat first field
    bits.put(1, 1);        // chroma 4:2:0 type
    bits.put(1, 1);        // progressive frame
    bits.put(0, 1);        // composite display
    const uint32_t columns = width / 16, rows = height / 16;
    for (uint32_t row = 0; row < rows; ++row) {
        bits.start_code(static_cast<uint8_t>(row + 1));  // slice_start_code: its row + 1
        bits.put(8, 5);                                   // quantiser scale (no AC coefficient uses it)
        bits.put(0, 1);                                   // extra bit
        int y = 128, cb = 128, cr = 128;                  // DC predictors reset at each slice
        for (uint32_t column = 0; column < columns; ++column) {
            const YCbCr& c = pic.macroblocks.at(row * columns + column);
            bits.put(1, 1);  // macroblock_address_increment 1
            bits.put(1, 1);  // macroblock_type: intra
            for (int block = 0; block < 4; ++block) {
                flat_block(bits, c.y - y, kDcSizeLuma);
                y = c.y;
            }
            flat_block(bits, c.cb - cb, kDcSizeChroma);
            cb = c.cb;
            flat_block(bits, c.cr - cr, kDcSizeChroma);
            cr = c.cr;
        }
    }
}

// 13818-1 2.5.3.3: a pack header whose clock reference is `scr` (90 kHz).
void pack_header(ByteWriter& out, uint64_t scr) {
    BitWriter bits;
    bits.start_code(0xBA);
    bits.put(0b01, 2);
    bits.put(static_cast<uint32_t>(scr >> 30 & 7), 3);  // the SCR base: 3, 15 and 15 bits, each with a marker
    bits.put(1, 1);
    bits.put(static_cast<uint32_t>(scr >> 15 & 0x7FFF), 15);
    bits.put(1, 1);
    bits.put(static_cast<uint32_t>(scr & 0x7FFF), 15);
    bits.put(1, 1);
    bits.put(0, 9);       // SCR extension
    bits.put(1, 1);
    bits.put(25200, 22);  // program mux rate, 50-byte units (10.08 Mbit/s)
    bits.put(0b11, 2);    // markers
    bits.put(0x1F, 5);    // reserved
    bits.put(0, 3);       // no stuffing
    out.append(bits.take());
}

// 13818-1 2.5.3.5: the system header naming the video stream and, with
// sound, private stream 1.
void system_header(ByteWriter& out, bool sound) {
    BitWriter bits;
    bits.start_code(0xBB);
    bits.put(6 + 3 * (sound ? 2 : 1), 16);  // header length
    bits.put(1, 1);
    bits.put(25200, 22);  // rate bound
    bits.put(1, 1);
    bits.put(sound ? 1 : 0, 6);  // audio bound
    bits.put(0, 4);       // fixed, CSPS, audio lock, video lock
    bits.put(1, 1);
    bits.put(1, 5);       // video bound
    bits.put(0, 1);       // packet rate restriction
    bits.put(0x7F, 7);    // reserved
    bits.put(0xE0, 8);    // stream 0xE0: video
    bits.put(0b11, 2);
    bits.put(1, 1);       // buffer bound scale: 1024 bytes
    bits.put(232, 13);    // buffer size bound
    if (sound) {
        bits.put(kPrivateStream1, 8);
        bits.put(0b11, 2);
        bits.put(0, 1);   // buffer bound scale: 128 bytes
        bits.put(64, 13); // 8 KiB
    }
    out.append(bits.take());
}

// A private stream 1 packet of the sound track (pss_audio.h): sub-stream 0,
// three zero bytes, then `piece`, presented at `pts`.
void sound_packet(ByteWriter& out, uint64_t pts, ByteSpan piece) {
    pes_header_with_pts(out.bytes(), kPrivateStream1, kSubStreamHeader + piece.size(), pts);
    out.append(Bytes{kSoundSubStream, 0, 0, 0});
    out.append(piece);
}

// 13818-1 2.4.3.6: a video PES packet carrying `payload`, presented at `pts`.
void pes_packet(ByteWriter& out, uint64_t pts, const Bytes& payload) {
    pes_header_with_pts(out.bytes(), 0xE0, payload.size(), pts);
    out.append(payload);
}

constexpr uint64_t kFrameTicks = 3003;  // 90 kHz / (30000/1001)
constexpr uint64_t kSoundPiece = 2048;  // sound bytes per packet

// When the sound track's byte `at` plays: its block's first sample, from the
// first picture's time on.
uint64_t sound_pts(const SpuStreamHeader& h, uint64_t at) {
    const uint64_t body = at < kSpuStreamHeader ? 0 : at - kSpuStreamHeader;
    const uint64_t samples = body / (uint64_t{h.interleave} * h.channels) * (h.interleave / 16 * 28);
    return kFrameTicks + samples * 90000 / h.sample_rate;
}

}  // namespace

Bytes write_pss(uint32_t width, uint32_t height, const std::vector<FlatPicture>& pictures, const Bytes& audio) {
    if (width == 0 || height == 0 || width % 16 || height % 16 || width > 4080 || height > 2800)
        throw std::invalid_argument("a PSS picture's sides are multiples of 16, at most 4080 x 2800");
    std::optional<SpuStreamHeader> sound;
    if (!audio.empty()) {
        auto parsed = parse_spu_header(audio);
        if (!parsed.ok()) throw std::invalid_argument("a PSS sound track: " + parsed.error().describe());
        sound = *parsed;
    }
    ByteWriter out;
    uint64_t sent = 0;  // sound bytes out so far
    auto send_sound = [&] {
        const uint64_t piece = std::min<uint64_t>(kSoundPiece, audio.size() - sent);
        sound_packet(out, sound_pts(*sound, sent), ByteSpan(audio).subspan(sent, piece));
        sent += piece;
    };
    for (size_t i = 0; i < pictures.size(); ++i) {
        BitWriter video;
        if (i == 0) sequence_headers(video, width, height);
        picture(video, width, height, pictures[i], static_cast<uint32_t>(i));
        if (i + 1 == pictures.size()) video.start_code(0xB7);  // sequence_end_code
        const Bytes payload = video.take();
        pack_header(out, i * kFrameTicks);
        if (i == 0) system_header(out, sound.has_value());
        pes_packet(out, kFrameTicks * (i + 1), payload);
        if (sound && sent < audio.size()) send_sound();
    }
    while (sound && sent < audio.size()) {  // what is left after the last picture
        pack_header(out, pictures.size() * kFrameTicks);
        send_sound();
    }
    BitWriter end;
    end.start_code(0xB9);  // MPEG_program_end_code
    out.append(end.take());
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::mpeg
