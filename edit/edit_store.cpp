#include "edit/edit_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tree/safe_name.h"

namespace gcfs::edit {
namespace {

constexpr const char* kJournal = "journal.json";
constexpr int kJournalVersion = 1;
constexpr size_t kMaxRecords = 100000;       // a journal past this is not one gcfs wrote
constexpr uint64_t kMaxJournalBytes = 64 << 20;
constexpr uint64_t kMaxStoredBytes = 1ull << 31;  // no editable file decodes from more (a 2 GiB WAD-LZ stream)
constexpr const char* kNewSuffix = ".gcfs-new";

std::string system_error(const std::string& what, const std::string& path) {
    return fmt::format("{} {}: {}", what, path, std::strerror(errno));
}

uint32_t crc_of(formats::ByteSpan bytes) {
    uLong crc = crc32(0, nullptr, 0);
    const uint8_t* at = bytes.data();
    for (uint64_t left = bytes.size(); left;) {
        const uInt step = static_cast<uInt>(std::min<uint64_t>(left, 1u << 30));
        crc = crc32(crc, at, step);
        at += step;
        left -= step;
    }
    return static_cast<uint32_t>(crc);
}

void sync_directory(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)::fsync(fd);
    ::close(fd);
}

// Writes `bytes` to `path` (never through a symlink) and syncs it.
void write_synced(const std::string& path, formats::ByteSpan bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) throw EditStoreError(system_error("cannot write", path));
    uint64_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string error = system_error("cannot write", path);
            ::close(fd);
            throw EditStoreError(error);
        }
        done += static_cast<uint64_t>(n);
    }
    if (::fsync(fd) != 0) {
        const std::string error = system_error("cannot sync", path);
        ::close(fd);
        throw EditStoreError(error);
    }
    ::close(fd);
}

// A regular file's bytes, at most `limit` of them; nullopt when it is absent
// or not a regular file (a symlink is not followed).
std::optional<formats::Bytes> read_regular(const std::string& path, uint64_t limit) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > limit) {
        ::close(fd);
        return std::nullopt;
    }
    formats::Bytes out(static_cast<uint64_t>(st.st_size));
    uint64_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<uint64_t>(n);
    }
    ::close(fd);
    if (done != out.size()) return std::nullopt;
    return out;
}

void make_directories(const std::string& path) {
    std::error_code error;
    std::filesystem::create_directories(path, error);
    if (error) throw EditStoreError(fmt::format("cannot create {}: {}", path, error.message()));
}

std::string parent_of(const std::string& path) { return path.substr(0, path.rfind('/')); }

}  // namespace

bool valid_mount_path(const std::string& path) {
    if (path.empty() || path.size() > 4096 || path.front() == '/') return false;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        const std::string step = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        // Held to exactly the rules a disc name follows (tree/safe_name.h).
        if (tree::safe_name(step) != step || step.ends_with(kNewSuffix))
            return false;
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return true;
}

EditStore::EditStore(std::string dir, std::string image_key) {
    dir_ = std::move(dir);
    image_key_ = std::move(image_key);
    make_directories(dir_ + "/files");
    std::error_code ignored;
    std::filesystem::remove_all(dir_ + "/drafts", ignored);  // an earlier mount's open writers: never applied
    make_directories(dir_ + "/drafts");
    if (::access((dir_ + "/" + kJournal).c_str(), F_OK) != 0) {
        write_journal();
        sync_directory(dir_);
        return;
    }
    load(true);
    recover();
}

EditStore EditStore::inspect(const std::string& dir) {
    EditStore store;
    store.dir_ = dir;
    store.load(false);
    return store;
}

void EditStore::load(bool for_image) {
    const std::string path = dir_ + "/" + kJournal;
    const auto text = read_regular(path, kMaxJournalBytes);
    if (!text) throw EditStoreError(fmt::format("{}: cannot be read as a regular file of at most {} bytes", path, kMaxJournalBytes));
    auto bad = [&](const std::string& why) {
        return EditStoreError(fmt::format("{}: {}; it is not a journal gcfs can use (move the folder away to start afresh)", path, why));
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text->begin(), text->end());
    } catch (const nlohmann::json::exception& e) {
        throw bad(fmt::format("not JSON ({})", e.what()));
    }
    try {
        if (!j.is_object() || j.value("gcfs_edits", 0) != kJournalVersion) throw bad(fmt::format("not a version {} gcfs journal", kJournalVersion));
        const std::string key = j.at("image").get<std::string>();
        if (for_image && key != image_key_)
            throw EditStoreError(fmt::format("{} holds edits of another image (its key {:?}, this image's {:?}); give each image "
                                             "its own edits folder",
                                             dir_, key, image_key_));
        image_key_ = key;
        next_sequence_ = j.at("next_sequence").get<uint64_t>();
        const auto& edits = j.at("edits");
        if (!edits.is_array() || edits.size() > kMaxRecords) throw bad("\"edits\" is not an array of at most 100000 entries");
        for (const auto& e : edits) {
            EditRecord r;
            r.path = e.at("path").get<std::string>();
            if (!valid_mount_path(r.path)) throw bad(fmt::format("the edit path {:?} is not a mount path", r.path));
            const std::string state = e.at("state").get<std::string>();
            if (state != "applied" && state != "refused") throw bad(fmt::format("the state {:?} is neither applied nor refused", state));
            r.applied = state == "applied";
            r.status = e.at("status").get<std::string>();
            r.sequence = e.at("sequence").get<uint64_t>();
            r.size = e.at("size").get<uint64_t>();
            r.crc = e.at("crc32").get<uint32_t>();
            if (r.size > kMaxStoredBytes) throw bad(fmt::format("{:?} declares {} bytes", r.path, r.size));
            const auto& containers = e.at("containers");
            if (!containers.is_array() || containers.size() > 64) throw bad("\"containers\" is not a short array");
            for (const auto& c : containers) r.containers.push_back({c.at("path").get<std::string>(), c.at("bytes").get<uint64_t>()});
            r.last_refusal = e.value("last_refusal", std::string());
            if (find(r.path)) throw bad(fmt::format("{:?} is listed twice", r.path));
            records_.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception& e) {
        throw bad(fmt::format("a field is missing or of the wrong type ({})", e.what()));
    }
    std::sort(records_.begin(), records_.end(), [](const EditRecord& a, const EditRecord& b) { return a.sequence < b.sequence; });
    for (const auto& r : records_)
        if (r.sequence >= next_sequence_) next_sequence_ = r.sequence + 1;
}

// Finishes what a crash cut short: a committed edit whose new file was not
// yet renamed is renamed now; a new file no journal entry names is dropped;
// a stored file that disagrees with its entry makes that edit a refused one.
void EditStore::recover() {
    bool changed = false;
    for (auto& r : records_) {
        if (!r.applied) continue;
        const std::string file = dir_ + "/files/" + r.path, fresh = file + kNewSuffix;
        auto matches = [&](const std::string& path) {
            const auto bytes = read_regular(path, kMaxStoredBytes);
            return bytes && bytes->size() == r.size && crc_of(*bytes) == r.crc;
        };
        if (matches(file)) {
            ::unlink(fresh.c_str());
        } else if (matches(fresh) && ::rename(fresh.c_str(), file.c_str()) == 0) {
            sync_directory(parent_of(file));
        } else {
            r.applied = false;
            r.status = fmt::format("its stored file {} is missing or is not what the journal recorded ({} bytes, CRC-32 {:08x}); "
                                   "the disc's content is shown",
                                   file, r.size, r.crc);
            changed = true;
        }
    }
    std::error_code ignored;
    for (auto it = std::filesystem::recursive_directory_iterator(dir_ + "/files", ignored);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ignored)) {
        const std::string path = it->path().string();
        if (path.ends_with(kNewSuffix) && it->is_regular_file(ignored)) std::filesystem::remove(it->path(), ignored);
    }
    if (changed) write_journal();
}

const EditRecord* EditStore::find(const std::string& path) const {
    for (const auto& r : records_)
        if (r.path == path) return &r;
    return nullptr;
}

formats::Bytes EditStore::stored(const EditRecord& record) const {
    const std::string file = dir_ + "/files/" + record.path;
    auto bytes = read_regular(file, kMaxStoredBytes);
    if (!bytes || bytes->size() != record.size || crc_of(*bytes) != record.crc)
        throw EditStoreError(fmt::format("{} is missing or is not what the journal recorded ({} bytes, CRC-32 {:08x})", file,
                                         record.size, record.crc));
    return std::move(*bytes);
}

void EditStore::commit(EditRecord record, const formats::Bytes* content) {
    if (!valid_mount_path(record.path)) throw EditStoreError(fmt::format("{:?} is not a mount path", record.path));
    const std::string file = dir_ + "/files/" + record.path;
    record.sequence = next_sequence_++;
    if (record.applied && content) {
        record.size = content->size();
        record.crc = crc_of(*content);
        make_directories(parent_of(file));
        write_synced(file + kNewSuffix, *content);
    } else if (record.applied) {
        throw EditStoreError("an applied edit needs its content");
    } else if (const EditRecord* before = find(record.path); before && before->applied) {
        // A refused edit leaves the applied one before it in force, and says so.
        for (auto& r : records_)
            if (r.path == record.path) r.last_refusal = record.status;
        write_journal();
        return;
    }
    std::erase_if(records_, [&](const EditRecord& r) { return r.path == record.path; });
    records_.push_back(record);
    write_journal();  // the commit point
    if (record.applied) {
        if (::rename((file + kNewSuffix).c_str(), file.c_str()) != 0) throw EditStoreError(system_error("cannot rename into", file));
        sync_directory(parent_of(file));
    }
}

void EditStore::forget(const std::string& path) {
    std::erase_if(records_, [&](const EditRecord& r) { return r.path == path; });
    write_journal();
    ::unlink((dir_ + "/files/" + path).c_str());
}

void EditStore::demote(const std::string& path, const std::string& reason) {
    for (auto& r : records_)
        if (r.path == path) {
            r.applied = false;
            r.status = reason;
        }
    write_journal();
}

std::string EditStore::new_draft_path() { return fmt::format("{}/drafts/{}", dir_, next_draft_++); }

void EditStore::write_journal() const {
    nlohmann::ordered_json j;
    j["gcfs_edits"] = kJournalVersion;
    j["image"] = image_key_;
    j["next_sequence"] = next_sequence_;
    j["edits"] = nlohmann::ordered_json::array();
    for (const auto& r : records_) {
        nlohmann::ordered_json e;
        e["path"] = r.path;
        e["state"] = r.applied ? "applied" : "refused";
        e["status"] = r.status;
        e["sequence"] = r.sequence;
        e["size"] = r.size;
        e["crc32"] = r.crc;
        if (!r.last_refusal.empty()) e["last_refusal"] = r.last_refusal;
        e["containers"] = nlohmann::ordered_json::array();
        for (const auto& c : r.containers) e["containers"].push_back({{"path", c.path}, {"bytes", c.bytes}});
        j["edits"].push_back(std::move(e));
    }
    // Invalid UTF-8 (a disc name's raw byte in a reason) is replaced, never thrown on.
    const std::string text = j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const std::string path = dir_ + "/" + kJournal, temporary = path + ".tmp";
    write_synced(temporary, formats::ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
    if (::rename(temporary.c_str(), path.c_str()) != 0) throw EditStoreError(system_error("cannot rename into", path));
    sync_directory(dir_);
}

std::string EditStore::render() const {
    std::string out = fmt::format("edits folder: {}\nimage key: {}\n", dir_, image_key_);
    if (records_.empty()) return out + "no edits\n";
    for (const auto& r : records_) {
        out += fmt::format("{}  {}  {}\n", r.applied ? "applied" : "refused", r.path, r.status);
        if (!r.last_refusal.empty()) out += fmt::format("refused  {}  {} (the applied content above stays)\n", r.path, r.last_refusal);
        for (const auto& c : r.containers) out += fmt::format("    changes {} ({} bytes)\n", c.path, c.bytes);
    }
    return out;
}

}  // namespace gcfs::edit
