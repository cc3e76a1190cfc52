#include "formats/disc/iso9660.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <stdexcept>

namespace gcfs::formats::iso9660 {
namespace {

constexpr uint64_t kRootRecord = 0x9C;  // §2.2: root directory record inside the PVD

std::string trimmed(ByteSpan field) {
    std::string s(field.begin(), field.end());
    s.erase(s.find_last_not_of(" \0", std::string::npos, 2) + 1);
    return s;
}

int digits(ByteSpan d, uint64_t at, int count) {
    int value = 0;
    for (int i = 0; i < count; ++i) {
        const char c = static_cast<char>(d[at + i]);
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

// ISO9660 8.4.26.1 dec-datetime: "YYYYMMDDHHMMSScc" then a 15-minute offset.
std::time_t parse_dec_datetime(ByteSpan d, uint64_t at) {
    std::tm tm{};
    const int year = digits(d, at, 4);
    if (year <= 0) return 0;
    tm.tm_year = year - 1900;
    tm.tm_mon = digits(d, at + 4, 2) - 1;
    tm.tm_mday = digits(d, at + 6, 2);
    tm.tm_hour = digits(d, at + 8, 2);
    tm.tm_min = digits(d, at + 10, 2);
    tm.tm_sec = digits(d, at + 12, 2);
    const int8_t quarter_hours = static_cast<int8_t>(d[at + 16]);
    return timegm(&tm) - quarter_hours * 15 * 60;
}

}  // namespace

Result<PrimaryVolume> parse_primary_volume(ByteSpan s) {
    return capture([&] {
        require(s, 0, kSectorSize, "primary volume descriptor");
        if (s[0] != 0x01 || std::memcmp(s.data() + 1, "CD001", 5) != 0)
            fail(Errc::bad_magic, 0, "no ISO9660 primary volume descriptor at LBA 16 (type 1, \"CD001\")");
        PrimaryVolume v;
        v.system_id = trimmed(s.subspan(8, 32));
        v.volume_id = trimmed(s.subspan(40, 32));
        v.volume_space_sectors = u32_at(s, 80);
        v.root_lba = u32_at(s, kRootRecord + 2);
        v.root_size = u32_at(s, kRootRecord + 10);
        v.creation = parse_dec_datetime(s, 813);
        return v;
    });
}

namespace {

constexpr uint8_t kMinRecordSize = 34;  // ECMA-119 9.1: 33 fixed bytes and an identifier of at least one

// ECMA-119 6.8.2.2: a directory's first record is its own, identifier 0x00.
bool starts_with_own_record(ByteSpan d) {
    return d.size() >= kMinRecordSize && d[0] >= kMinRecordSize && d[32] == 1 && d[33] == 0 && (d[25] & 0x02) != 0;
}

// "NAME.;1" is how ISO9660 records a name without extension; "." and ".."
// recorded as names are names (shown escaped), not separators.
std::string recorded_name(std::string name) {
    if (const auto semicolon = name.find(';'); semicolon != std::string::npos) name.resize(semicolon);
    if (name.size() > 1 && name.back() == '.' && name.find_first_not_of('.') != std::string::npos) name.pop_back();
    return name;
}

}  // namespace

Directory parse_directory(ByteSpan d) {
    Directory out;
    auto problem = [&](uint64_t at, std::string what) { out.problems.push_back({at, std::move(what)}); };
    if (d.empty()) return out;
    if (!starts_with_own_record(d)) {
        problem(0, "its first record is not the directory's own (identifier 0x00, directory flag; ECMA-119 6.8.2.2): "
                   "the extent holds no directory");
        return out;
    }
    int dot_entries = 0;
    uint64_t at = 0;
    while (at < d.size()) {
        const uint8_t length = d[at];
        if (length == 0) {  // §2.2: padding up to the next sector
            ++at;
            continue;
        }
        if (length < kMinRecordSize) {
            const uint64_t next = (at / kSectorSize + 1) * kSectorSize;
            problem(at, fmt::format("a record of {} bytes is shorter than the {} any record needs; read on from the next "
                                    "sector (+0x{:x})", length, kMinRecordSize, next));
            at = next;
            continue;
        }
        if (length > d.size() - at) {
            problem(at, fmt::format("a record of {} bytes runs past the directory's {} bytes", length, d.size()));
            break;
        }
        const uint8_t name_length = d[at + 32];
        if (33u + name_length > length) {
            problem(at, fmt::format("a record's name of {} bytes runs past its {}-byte record; the record is skipped",
                                    name_length, length));
            at += length;
            continue;
        }
        DirectoryEntry e;
        e.record_offset = at;
        e.lba = u32_at(d, at + 2);
        e.size = u32_at(d, at + 10);
        e.is_directory = (d[at + 25] & 0x02) != 0;
        const std::string raw(reinterpret_cast<const char*>(d.data() + at + 33), name_length);
        const bool dot_record = e.is_directory && name_length == 1 && (raw[0] == 0 || raw[0] == 1);
        if (dot_record && dot_entries < 2) {
            ++dot_entries;
            at += length;
            continue;
        }
        if (dot_record && raw[0] == 0) {  // the next directory's own record: the declared size ran into it
            problem(at, "another directory's own record starts here: the declared size runs past this directory's records");
            break;
        }
        if (out.entries.size() == kMaxRecordsPerDirectory) {
            problem(at, fmt::format("more than {} records (formats.md 2.2); the rest are not shown", kMaxRecordsPerDirectory));
            break;
        }
        e.name = recorded_name(raw);
        out.entries.push_back(std::move(e));
        at += length;
    }
    return out;
}

// ---------------------------------------------------------------- writer
namespace {

void both16(ByteWriter& w, uint16_t v) {
    w.u16(v);
    w.u8(v >> 8);
    w.u8(v & 0xff);
}
void both32(ByteWriter& w, uint32_t v) {
    w.u32(v);
    for (int shift = 24; shift >= 0; shift -= 8) w.u8(static_cast<uint8_t>(v >> shift));
}
void padded_text(ByteWriter& w, std::string_view text, size_t width) {
    for (size_t i = 0; i < width; ++i) w.u8(i < text.size() ? static_cast<uint8_t>(text[i]) : ' ');
}

void record_date(ByteWriter& w, std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    w.u8(static_cast<uint8_t>(tm.tm_year));
    w.u8(static_cast<uint8_t>(tm.tm_mon + 1));
    w.u8(static_cast<uint8_t>(tm.tm_mday));
    w.u8(static_cast<uint8_t>(tm.tm_hour));
    w.u8(static_cast<uint8_t>(tm.tm_min));
    w.u8(static_cast<uint8_t>(tm.tm_sec));
    w.u8(0);  // GMT
}

void dec_datetime(ByteWriter& w, std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    const std::string text = fmt::format("{:04}{:02}{:02}{:02}{:02}{:02}00", tm.tm_year + 1900, tm.tm_mon + 1,
                                         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    padded_text(w, text, 16);
    w.u8(0);
}

void empty_dec_datetime(ByteWriter& w) {
    padded_text(w, "0000000000000000", 16);
    w.u8(0);
}

void directory_record(ByteWriter& w, std::string_view name, uint32_t lba, uint32_t size, bool directory,
                      std::time_t t) {
    const size_t name_length = name.size();
    const size_t length = 33 + name_length + (name_length % 2 == 0 ? 1 : 0);
    w.u8(static_cast<uint8_t>(length));
    w.u8(0);
    both32(w, lba);
    both32(w, size);
    record_date(w, t);
    w.u8(directory ? 0x02 : 0x00);
    w.u8(0);
    w.u8(0);
    both16(w, 1);
    w.u8(static_cast<uint8_t>(name_length));
    for (char c : name) w.u8(static_cast<uint8_t>(c));
    if (name_length % 2 == 0) w.u8(0);
}

struct Dir {
    std::string name;
    uint32_t lba = 0;
    uint32_t size = 0;
    std::vector<FileToWrite> files;  // names relative to this directory
};

// Records of one directory; they may not straddle a sector (ECMA-119 6.8.1.1).
Bytes directory_extent(const Dir& self, const Dir& parent, const std::vector<const Dir*>& subdirs, std::time_t t) {
    ByteWriter w;
    auto add = [&](std::string_view name, uint32_t lba, uint32_t size, bool dir) {
        const uint64_t length = 33 + name.size() + (name.size() % 2 == 0 ? 1 : 0);
        if (w.size() % kSectorSize + length > kSectorSize) w.pad_to(kSectorSize);
        directory_record(w, name, lba, size, dir, t);
    };
    add(std::string_view("\0", 1), self.lba, self.size, true);
    add(std::string_view("\1", 1), parent.lba, parent.size, true);
    for (const Dir* sub : subdirs) add(sub->name, sub->lba, sub->size, true);
    for (const auto& f : self.files) add(f.path + ";1", f.lba, f.size, false);
    w.pad_to(kSectorSize);
    return std::move(w.bytes());
}

}  // namespace

namespace {

void put_both_endian(std::span<uint8_t> b, uint64_t at, uint32_t v) {
    require(b, at, 8, "both-endian field");
    for (int i = 0; i < 4; ++i) {
        b[at + i] = static_cast<uint8_t>(v >> (8 * i));
        b[at + 7 - i] = static_cast<uint8_t>(v >> (8 * i));
    }
}

}  // namespace

void put_record_extent(std::span<uint8_t> record, uint32_t lba, uint32_t size) {
    put_both_endian(record, 2, lba);
    put_both_endian(record, 10, size);
}

void put_volume_sectors(std::span<uint8_t> pvd, uint32_t sectors) { put_both_endian(pvd, 80, sectors); }

Bytes write_volume(const VolumeToWrite& volume, uint32_t limit_lba) {
    // Group files by their directory; ISO9660 sorts records by name.
    Dir root{"", 0, 0, {}};
    std::map<std::string, Dir> subdirs;
    for (const auto& f : volume.files) {
        const auto slash = f.path.find('/');
        if (slash == std::string::npos) {
            root.files.push_back(f);
        } else {
            Dir& d = subdirs[f.path.substr(0, slash)];
            d.name = f.path.substr(0, slash);
            d.files.push_back({f.path.substr(slash + 1), f.lba, f.size});
        }
    }
    auto by_name = [](const FileToWrite& a, const FileToWrite& b) { return a.path < b.path; };
    std::sort(root.files.begin(), root.files.end(), by_name);
    std::vector<const Dir*> children;
    for (auto& [name, d] : subdirs) {
        std::sort(d.files.begin(), d.files.end(), by_name);
        children.push_back(&d);
    }

    // Two passes: sizes first (records are fixed-size per name), then LBAs.
    uint32_t next = kPathTableLba + 2;
    root.lba = next;
    root.size = static_cast<uint32_t>(directory_extent(root, root, children, 0).size());
    next += root.size / kSectorSize;
    for (auto& [name, d] : subdirs) {
        d.lba = next;
        d.size = static_cast<uint32_t>(directory_extent(d, root, {}, 0).size());
        next += d.size / kSectorSize;
    }
    if (next > limit_lba)
        throw std::invalid_argument(fmt::format("ISO directories end at LBA {}, past the limit {}", next, limit_lba));

    // Path table: root is record 1, every subdirectory has parent 1.
    auto path_table = [&](bool big_endian) {
        ByteWriter w;
        auto entry = [&](std::string_view name, uint32_t lba) {
            w.u8(static_cast<uint8_t>(name.size()));
            w.u8(0);
            if (big_endian) {
                for (int shift = 24; shift >= 0; shift -= 8) w.u8(static_cast<uint8_t>(lba >> shift));
                w.u8(0);
                w.u8(1);
            } else {
                w.u32(lba);
                w.u16(1);
            }
            for (char c : name) w.u8(static_cast<uint8_t>(c));
            if (name.size() % 2) w.u8(0);
        };
        entry(std::string_view("\0", 1), root.lba);
        for (const Dir* d : children) entry(d->name, d->lba);
        return std::move(w.bytes());
    };
    const Bytes l_table = path_table(false);
    const Bytes m_table = path_table(true);
    if (l_table.size() > kSectorSize) throw std::invalid_argument("path table exceeds one sector");

    ByteWriter pvd;
    pvd.u8(1);
    padded_text(pvd, "CD001", 5);
    pvd.u8(1);
    pvd.u8(0);
    padded_text(pvd, "PLAYSTATION", 32);
    padded_text(pvd, volume.volume_id, 32);
    pvd.zeros(8);
    both32(pvd, volume.volume_sectors);
    pvd.zeros(32);
    both16(pvd, 1);                                          // volume set size
    both16(pvd, 1);                                          // volume sequence number
    both16(pvd, static_cast<uint16_t>(kSectorSize));         // logical block size
    both32(pvd, static_cast<uint32_t>(l_table.size()));      // path table size
    pvd.u32(kPathTableLba);
    pvd.u32(0);
    for (int shift = 24; shift >= 0; shift -= 8) pvd.u8(static_cast<uint8_t>((kPathTableLba + 1) >> shift));
    pvd.u32(0);
    directory_record(pvd, std::string_view("\0", 1), root.lba, root.size, true, volume.creation);
    padded_text(pvd, "", 128);                               // volume set id
    padded_text(pvd, "GCFS", 128);                           // publisher
    padded_text(pvd, "GCFS-MKDISC", 128);                    // data preparer
    padded_text(pvd, "GCFS SYNTHETIC DISC", 128);            // application
    padded_text(pvd, "", 37);
    padded_text(pvd, "", 37);
    padded_text(pvd, "", 37);
    dec_datetime(pvd, volume.creation);
    dec_datetime(pvd, volume.creation);
    empty_dec_datetime(pvd);
    empty_dec_datetime(pvd);
    pvd.u8(1);  // file structure version
    pvd.bytes().resize(kSectorSize, 0);

    ByteWriter out;
    out.append(pvd.bytes());
    out.u8(0xFF);  // volume descriptor set terminator at LBA 17
    padded_text(out, "CD001", 5);
    out.u8(1);
    out.pad_to(kSectorSize);
    out.bytes().resize((kPathTableLba - kPvdLba) * kSectorSize, 0);
    out.append(l_table);
    out.pad_to(kSectorSize);
    out.append(m_table);
    out.pad_to(kSectorSize);
    out.append(directory_extent(root, root, children, volume.creation));
    for (const Dir* d : children) out.append(directory_extent(*d, root, {}, volume.creation));
    return std::move(out.bytes());
}

}  // namespace gcfs::formats::iso9660
