#include "edit/edit_store.h"

#include <sys/file.h>
#include <unistd.h>
#include <zlib.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace gcfs::edit {
namespace {

constexpr const char* kJournal = "journal.json";
constexpr const char* kLock = "lock";

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

int64_t now_seconds() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string parent_of(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

formats::ByteSpan text_bytes(const std::string& text) { return {reinterpret_cast<const uint8_t*>(text.data()), text.size()}; }

}  // namespace

EditStore::EditStore(const std::string& dir, std::string image_key, std::string volume_id) : folder_(dir) {
    lock();
    journal_.image_key = std::move(image_key);
    journal_.volume_id = std::move(volume_id);
    folder_.folder("files", true);
    folder_.remove_tree("open");  // an earlier mount's open writers: never applied
    folder_.folder("open", true);
    if (!folder_.read(kJournal, kMaxJournalBytes)) {
        write_journal();
        folder_.sync_folder("");
        return;
    }
    load(true);
    recover();
}

EditStore EditStore::inspect(const std::string& dir) {
    EditStore store{SafeFolder(dir, false)};
    store.load(false);
    return store;
}

void EditStore::lock() {
    lock_ = folder_.open_file(kLock, true, false);
    if (::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = {};
        (void)::pread(lock_.get(), pid, sizeof pid - 1, 0);
        throw EditStoreError(fmt::format("{} is in use by another gcfs (pid {}): one mount or pack per edits folder at a time",
                                         folder_.root(), std::string(pid).substr(0, std::string(pid).find('\n'))));
    }
    claim_lock();
}

void EditStore::claim_lock() const {
    if (!lock_) return;
    const std::string pid = fmt::format("{}\n", ::getpid());
    if (::ftruncate(lock_.get(), 0) == 0) (void)::pwrite(lock_.get(), pid.data(), pid.size(), 0);
}

void EditStore::load(bool for_image) {
    const auto text = folder_.read(kJournal, kMaxJournalBytes);
    if (!text) throw EditStoreError(fmt::format("{}: there is no journal", folder_.describe(kJournal)));
    Journal parsed = parse_journal(formats::as_text(*text), folder_.describe(kJournal));
    if (for_image && parsed.image_key != journal_.image_key)
        throw EditStoreError(fmt::format("{} holds edits of another image (its key {:?}, this image's {:?}); give each image "
                                         "its own edits folder",
                                         folder_.root(), parsed.image_key, journal_.image_key));
    if (for_image && parsed.volume_id.empty()) parsed.volume_id = journal_.volume_id;  // written with the next edit
    journal_ = std::move(parsed);
}

std::string EditStore::stored_path(const EditRecord& record) {
    return (record.state == EditState::kept ? "drafts/" : "files/") + record.path;
}

// Finishes what a crash cut short: a committed edit whose new file was not
// yet renamed is renamed now; a new file no journal entry names is dropped;
// a stored file that disagrees with its entry makes that edit a refused one.
void EditStore::recover() {
    bool changed = false;
    for (auto& r : journal_.records) {
        if (r.state == EditState::refused || r.state == EditState::translated) continue;
        const std::string file = stored_path(r), fresh = file + kStagedSuffix;
        auto matches = [&](const std::string& path) {
            try {
                const auto bytes = folder_.read(path, kMaxStoredBytes);
                return bytes && bytes->size() == r.size && crc_of(*bytes) == r.crc;
            } catch (const EditStoreError&) {
                return false;  // a FIFO or a link there holds no edit
            }
        };
        if (matches(file)) {
            if (r.state == EditState::applied) folder_.unlink(fresh);
        } else if (r.state == EditState::applied && matches(fresh)) {
            folder_.rename(fresh, file);
            folder_.sync_folder(parent_of(file));
        } else {
            r.status = fmt::format("its stored file {} is missing or is not what the journal recorded ({} bytes, CRC-32 {:08x}); "
                                   "the disc's content is shown",
                                   folder_.describe(file), r.size, r.crc);
            r.state = EditState::refused;
            changed = true;
        }
    }
    for (const auto& path : folder_.files_below("files"))
        if (path.ends_with(kStagedSuffix)) folder_.unlink(path);
    if (changed) write_journal();
}

const EditRecord* EditStore::find(const std::string& path) const {
    for (const auto& r : journal_.records)
        if (r.path == path) return &r;
    return nullptr;
}

formats::Bytes EditStore::stored(const EditRecord& record) const {
    const std::string file = stored_path(record);
    if (batch_)
        if (const auto it = batch_->staged.find(file); it != batch_->staged.end()) return it->second;
    auto bytes = folder_.read(file, kMaxStoredBytes);
    if (!bytes || bytes->size() != record.size || crc_of(*bytes) != record.crc)
        throw EditStoreError(fmt::format("{} is missing or is not what the journal recorded ({} bytes, CRC-32 {:08x})", folder_.describe(file),
                                         record.size, record.crc));
    return std::move(*bytes);
}

void EditStore::commit(EditRecord record, const formats::Bytes* content, const std::vector<Follower>& then) {
    if (!valid_mount_path(record.path)) throw EditStoreError(fmt::format("{:?} is not a mount path", record.path));
    const std::string file = "files/" + record.path;
    record.sequence = journal_.next_sequence++;
    record.time = now_seconds();
    if (record.applied() && content) {
        record.size = content->size();
        record.crc = crc_of(*content);
        folder_.write_synced(file + kStagedSuffix, *content);
        if (batch_) batch_->staged[file] = *content;
    } else if (record.applied()) {
        throw EditStoreError("an applied edit needs its content");
    } else if (const EditRecord* before = find(record.path); before && before->applied()) {
        // A refused edit leaves the applied one before it in force, and says so.
        for (auto& r : journal_.records)
            if (r.path == record.path) {
                r.last_refusal = record.status;
                r.refusal_sequence = record.sequence;
                r.refusal_time = record.time;
            }
        write_journal();
        return;
    }
    if (const EditRecord* before = find(record.path); before && before->state == EditState::kept) folder_.unlink(stored_path(*before));
    std::erase_if(journal_.records, [&](const EditRecord& r) { return r.path == record.path; });
    journal_.records.push_back(record);
    for (const Follower& follower : then) {
        const auto it = std::find_if(journal_.records.begin(), journal_.records.end(), [&](const EditRecord& r) { return r.path == follower.path; });
        if (it == journal_.records.end() || follower.path == record.path) continue;
        EditRecord moved = std::move(*it);
        journal_.records.erase(it);
        moved.sequence = journal_.next_sequence++;
        journal_.records.push_back(std::move(moved));
    }
    stage(then);
    if (batch_) return;  // finish_batch() writes the journal and renames
    write_journal();  // the commit point
    if (record.applied()) {
        folder_.rename(file + kStagedSuffix, file);
        folder_.sync_folder(parent_of(file));
    }
    settle(then);
}

void EditStore::stage(const std::vector<Follower>& followers) {
    for (const Follower& follower : followers)
        for (auto& r : journal_.records)
            if (follower.content && r.path == follower.path && r.applied()) {
                r.size = follower.content->size();
                r.crc = crc_of(*follower.content);
                folder_.write_synced(stored_path(r) + kStagedSuffix, *follower.content);
                if (batch_) batch_->staged[stored_path(r)] = *follower.content;
            }
}

void EditStore::begin_batch() { batch_ = Batch{journal_, {}}; }

void EditStore::finish_batch() {
    if (!batch_) return;
    try {
        write_journal();  // the commit point of every edit of the batch
    } catch (const EditStoreError&) {
        abort_batch();
        throw;
    }
    const Batch batch = std::move(*batch_);
    batch_.reset();
    for (const auto& [file, content] : batch.staged) {
        folder_.rename(file + kStagedSuffix, file);
        folder_.sync_folder(parent_of(file));
    }
}

void EditStore::abort_batch() noexcept {
    if (!batch_) return;
    journal_ = std::move(batch_->before);
    for (const auto& [file, content] : batch_->staged) {
        try {
            folder_.unlink(file + kStagedSuffix);
        } catch (const EditStoreError&) {
            // Left for recover(): a staged file no journal names is dropped at the next mount.
        }
    }
    batch_.reset();
}

void EditStore::settle(const std::vector<Follower>& followers) {
    for (const Follower& follower : followers)
        if (const EditRecord* r = find(follower.path); follower.content && r && r->applied()) {
            folder_.rename(stored_path(*r) + kStagedSuffix, stored_path(*r));
            folder_.sync_folder(parent_of(stored_path(*r)));
        }
}

void EditStore::keep(const std::string& path, const std::string& draft, const std::string& why) {
    if (!valid_mount_path(path)) throw EditStoreError(fmt::format("{:?} is not a mount path", path));
    EditRecord record{path, EditState::kept, why};
    const auto bytes = folder_.read(draft, kMaxStoredBytes);
    record.size = bytes ? bytes->size() : 0;
    record.crc = crc_of(bytes ? formats::ByteSpan(*bytes) : formats::ByteSpan());
    record.sequence = journal_.next_sequence++;
    record.time = now_seconds();
    folder_.rename(draft, stored_path(record));
    std::erase_if(journal_.records, [&](const EditRecord& r) { return r.path == path; });
    journal_.records.push_back(std::move(record));
    write_journal();
}

void EditStore::forget(const std::string& path, const std::vector<Follower>& followers) {
    const EditRecord* before = find(path);
    if (!before) return;
    const std::string file = stored_path(*before);
    std::erase_if(journal_.records, [&](const EditRecord& r) { return r.path == path; });
    stage(followers);
    write_journal();
    folder_.unlink(file);
    settle(followers);
}

void EditStore::demote(const std::string& path, const std::string& reason) {
    for (auto& r : journal_.records)
        if (r.path == path) {
            r.state = EditState::refused;
            r.status = reason;
        }
    write_journal();
}

std::string EditStore::new_draft_path() { return fmt::format("open/{}", next_draft_++); }

void EditStore::write_journal() const {
    const std::string temporary = std::string(kJournal) + ".tmp";
    folder_.write_synced(temporary, text_bytes(write_journal_text(journal_)));
    folder_.rename(temporary, kJournal);
    folder_.sync_folder("");
}

std::string EditStore::render() const { return render_journal(journal_, folder_.root()); }

}  // namespace gcfs::edit
