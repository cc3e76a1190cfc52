#include "formats/saved_index/folder_record.h"

#include <fmt/format.h>
#include <zlib.h>

#include <cstring>

namespace gcfs::formats::saved_index {
namespace {

constexpr char kMagic[4] = {'G', 'C', 'I', 'R'};
constexpr uint64_t kBlobHeader = 16;  // magic, version, crc, plain size
// A level folder's record holds a few thousand names: 64 MiB is far past any
// disc and bounds what a damaged length may make us allocate.
constexpr uint64_t kMaxPlain = 64ull << 20;
// deflate's best case is about 1032:1; a plain size past that is a lie.
constexpr uint64_t kMaxDeflateRatio = 1032;

void put_string(ByteWriter& w, const std::string& s) {
    if (s.size() > 0xffff) throw std::length_error("saved index: name longer than 65535 bytes");
    w.u16(static_cast<uint16_t>(s.size()));
    w.append({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
}

void put_u64(ByteWriter& w, uint64_t v) {
    w.u32(static_cast<uint32_t>(v));
    w.u32(static_cast<uint32_t>(v >> 32));
}

// Reads the plain record front to back; every read is bounds-checked.
class Reader {
public:
    explicit Reader(ByteSpan data) : data_(data) {}
    uint32_t u32() {
        const uint32_t v = u32_at(data_, at_);
        at_ += 4;
        return v;
    }
    uint64_t u64() {
        const uint64_t low = u32();
        return low | uint64_t{u32()} << 32;
    }
    std::string string(const char* what) {
        const uint16_t length = u16_at(data_, at_);
        const ByteSpan bytes = slice(data_, at_ + 2, length, what);
        at_ += 2 + length;
        return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
    }
    // A count of entries at least `smallest` bytes each, checked against what is left.
    uint32_t count(uint64_t smallest, const char* what) {
        const uint32_t n = u32();
        if (n > (data_.size() - at_) / smallest)
            fail(Errc::too_large, at_ - 4, fmt::format("{} {} of at least {} bytes in {} bytes left", n, what, smallest,
                                                       data_.size() - at_));
        return n;
    }
    uint64_t at() const { return at_; }
    bool done() const { return at_ == data_.size(); }

private:
    ByteSpan data_;
    uint64_t at_ = 0;
};

bool is_relative_path(std::string_view path) {
    if (path.empty()) return true;  // the level folder itself
    size_t start = 0;
    while (true) {
        const size_t slash = path.find('/', start);
        if (!is_entry_name(path.substr(start, slash == std::string_view::npos ? slash : slash - start))) return false;
        if (slash == std::string_view::npos) return true;
        start = slash + 1;
    }
}

}  // namespace

bool is_entry_name(std::string_view name) {
    if (name.empty() || name.size() > 255 || name == "." || name == "..") return false;
    auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); };
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c < 0x20 || c > 0x7E || c == '/') return false;
        if (c == '%' && !(i + 2 < name.size() && hex(name[i + 1]) && hex(name[i + 2]))) return false;
    }
    return true;
}

Bytes encode_record(const FolderRecord& record) {
    ByteWriter plain;
    plain.u32(kRecordVersion);
    plain.u32(static_cast<uint32_t>(record.files.size()));
    for (const auto& [path, size] : record.files) {
        put_string(plain, path);
        put_u64(plain, size);
    }
    plain.u32(static_cast<uint32_t>(record.runs.size()));
    for (const auto& run : record.runs) {
        if (run.names.size() != run.sizes.size()) throw std::invalid_argument("saved index: a run's names and sizes differ in count");
        put_string(plain, run.dir);
        plain.u32(run.ordinal);
        plain.u32(static_cast<uint32_t>(run.names.size()));
        for (size_t i = 0; i < run.names.size(); ++i) {
            put_string(plain, run.names[i]);
            put_u64(plain, run.sizes[i]);
        }
    }
    const Bytes& raw = plain.bytes();
    uLongf packed_size = compressBound(raw.size());
    Bytes blob(kBlobHeader + packed_size);
    if (compress2(blob.data() + kBlobHeader, &packed_size, raw.data(), raw.size(), Z_BEST_SPEED) != Z_OK)
        throw std::runtime_error("saved index: deflate failed");
    blob.resize(kBlobHeader + packed_size);
    std::memcpy(blob.data(), kMagic, 4);
    ByteWriter head;
    head.u32(kRecordVersion);
    head.u32(static_cast<uint32_t>(crc32(0, raw.data(), static_cast<uInt>(raw.size()))));
    head.u32(static_cast<uint32_t>(raw.size()));
    std::memcpy(blob.data() + 4, head.bytes().data(), 12);
    return blob;
}

Result<FolderRecord> decode_record(ByteSpan blob, uint64_t max_size) {
    return capture([&] {
        require(blob, 0, kBlobHeader, "saved index record header");
        if (std::memcmp(blob.data(), kMagic, 4) != 0) fail(Errc::bad_magic, 0, "not a saved index record (no \"GCIR\")");
        if (const uint32_t version = u32_at(blob, 4); version != kRecordVersion)
            fail(Errc::bad_value, 4, fmt::format("record version {}, this gcfs reads {}", version, kRecordVersion));
        const uint32_t crc = u32_at(blob, 8);
        const uint64_t plain_size = u32_at(blob, 12);
        const uint64_t packed = blob.size() - kBlobHeader;
        if (plain_size > kMaxPlain || plain_size > packed * kMaxDeflateRatio)
            fail(Errc::too_large, 12, fmt::format("plain size {} from {} deflated bytes", plain_size, packed));
        Bytes raw(plain_size);
        uLongf got = plain_size;
        if (uncompress(raw.data(), &got, blob.data() + kBlobHeader, packed) != Z_OK || got != plain_size)
            fail(Errc::size_mismatch, kBlobHeader, fmt::format("the deflated record does not inflate to the {} bytes declared", plain_size));
        if (crc32(0, raw.data(), static_cast<uInt>(raw.size())) != crc)
            fail(Errc::bad_value, 8, "CRC-32 of the record disagrees");

        Reader r(raw);
        FolderRecord record;
        if (r.u32() != kRecordVersion) fail(Errc::bad_value, 0, "inner version disagrees with the header's");
        for (uint32_t n = r.count(10, "files"); n > 0; --n) {
            const uint64_t at = r.at();
            std::string path = r.string("file path");
            if (path.empty() || !is_relative_path(path)) fail(Errc::bad_value, at, "file path is not a relative path");
            const uint64_t size = r.u64();
            if (size > max_size) fail(Errc::too_large, at, fmt::format("{} bytes for {}, past the {} the level can decode to", size, path, max_size));
            if (!record.files.emplace(std::move(path), size).second) fail(Errc::bad_value, at, "file path listed twice");
        }
        for (uint32_t n = r.count(10, "runs"); n > 0; --n) {
            RunRecord run;
            const uint64_t at = r.at();
            run.dir = r.string("run folder");
            if (!is_relative_path(run.dir)) fail(Errc::bad_value, at, "run folder is not a relative path");
            run.ordinal = r.u32();
            const uint32_t files = r.count(10, "run files");
            run.names.reserve(files);
            run.sizes.reserve(files);
            for (uint32_t i = 0; i < files; ++i) {
                const uint64_t name_at = r.at();
                run.names.push_back(r.string("run file name"));
                if (!is_entry_name(run.names.back())) fail(Errc::bad_value, name_at, "run file name is not one the tree makes");
                run.sizes.push_back(r.u64());
                if (run.sizes.back() > max_size)
                    fail(Errc::too_large, name_at, fmt::format("{} bytes for {}, past the {} the level can decode to", run.sizes.back(),
                                                              run.names.back(), max_size));
            }
            record.runs.push_back(std::move(run));
        }
        if (!r.done()) fail(Errc::size_mismatch, r.at(), "bytes left after the last run");
        return record;
    });
}

}  // namespace gcfs::formats::saved_index
