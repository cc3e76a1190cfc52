#include "edit/mods/mod_stack.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "edit/edit_kinds.h"
#include "edit/edited_disc.h"
#include "edit/mods/merge.h"
#include "tree/node/log_escape.h"

namespace gcfs::edit::mods {
namespace {

formats::Bytes bytes_of(const std::string& text) { return formats::Bytes(text.begin(), text.end()); }

}  // namespace

ModStack::ModStack(tree::Disc& original, const std::vector<std::string>& dirs) {
    const std::string key = image_key(original);
    for (const std::string& dir : dirs) {
        EditStore store = EditStore::inspect(dir);
        if (store.image_key() != key)
            throw EditStoreError(fmt::format("{} holds edits of another image (its key {:?}, this image's {:?})", dir, store.image_key(), key));
        layers_.push_back({dir, std::move(store)});
    }
    std::vector<Planned> planned;
    plan(original, planned);
    for (const Planned& p : planned) paths_.push_back(p.path);
    build(original, planned);
    for (const auto& [path, why] : refused_) spdlog::warn("mod edit of {:?} refused: {}", path, why);
}

std::vector<std::string> ModStack::names(const std::vector<size_t>& layers) const {
    std::vector<std::string> out;
    for (size_t i : layers) out.push_back(layers_[i].dir);
    return out;
}

// One content per file: the folders' files merged in stacking order.
void ModStack::plan(tree::Disc& original, std::vector<Planned>& planned) {
    std::map<std::string, size_t> index;
    for (size_t li = 0; li < layers_.size(); ++li) {
        const EditStore& store = layers_[li].store;
        for (const EditRecord& r : store.records()) {
            const auto target = edit_target(original.scan, r.path);
            if (!r.applied() || !target || translated(*target)) continue;  // a level.glb save lives in the files it edited
            formats::Bytes theirs;
            try {
                theirs = store.stored(r);
            } catch (const EditStoreError& e) {
                refused_.emplace_back(r.path, e.what());
                continue;
            }
            const auto found = index.find(r.path);
            if (found == index.end()) {
                index[r.path] = planned.size();
                planned.push_back({r.path, {li}, theirs, theirs, li, r.sequence});
                continue;
            }
            Planned& p = planned[found->second];
            p.layers.push_back(li);
            Merged merged;
            try {
                const formats::Bytes base = file_bytes(original, r.path);
                merged = merge3(grain_of(r.path), formats::as_text(base), formats::as_text(p.content), formats::as_text(theirs));
            } catch (const std::exception& e) {
                merged = {std::string(formats::as_text(theirs)), {}};
                if (p.content != theirs) merged.conflicts.push_back(fmt::format("the whole file (not merged: {})", e.what()));
            }
            for (std::string& item : merged.conflicts) conflicts_.push_back({r.path, std::move(item), names(p.layers)});
            p.content = bytes_of(merged.text);
            p.last_whole = std::move(theirs);
            p.order_layer = li;
            p.order_sequence = r.sequence;
        }
    }
    std::stable_sort(planned.begin(), planned.end(), [](const Planned& a, const Planned& b) {
        return std::pair(a.order_layer, a.order_sequence) < std::pair(b.order_layer, b.order_sequence);
    });
}

// Each container with its files applied in order; a file that does not
// encode is refused and the rest go on, as a mount's replay does
// (edit/session.h); a level that would fail a check its image passes is
// left as the image has it, every edit of it refused.
void ModStack::build(tree::Disc& original, std::vector<Planned>& planned) {
    std::map<ContainerKey, std::vector<std::pair<const Planned*, EditTarget>>> by_container;
    for (const Planned& p : planned) {
        const auto target = edit_target(original.scan, p.path);
        by_container[target->key].emplace_back(&p, *target);
    }
    std::map<ContainerKey, std::vector<std::string>> applied;
    for (const auto& entry : by_container) {
        const ContainerKey key = entry.first;
        const auto& files = entry.second;
        std::unique_ptr<ContainerParts> parts;
        try {
            parts = open_parts(key, read_container(original, key));
        } catch (const std::exception& e) {
            for (const auto& [p, target] : files) refused_.emplace_back(p->path, e.what());
            continue;
        }
        for (const auto& file : files) {
            const Planned* p = file.first;
            const EditTarget& target = file.second;
            auto attempt = [&](const formats::Bytes& content) {
                auto trial = parts->clone();
                apply_edit(*trial, original, target, content);
                parts = std::move(trial);
                applied[key].push_back(p->path);
            };
            try {
                attempt(p->content);
            } catch (const std::exception& merged_error) {
                if (p->content == p->last_whole) {
                    refused_.emplace_back(p->path, merged_error.what());
                    continue;
                }
                try {
                    attempt(p->last_whole);
                    conflicts_.push_back({p->path, fmt::format("the merged file (it does not encode: {})", merged_error.what()), names(p->layers)});
                } catch (const std::exception& e) {
                    refused_.emplace_back(p->path, e.what());
                }
            }
        }
        if (!parts->changed()) continue;
        auto rebuilt = parts->rebuild();
        std::string problem = rebuilt.ok() ? container_problem(key, *rebuilt) : rebuilt.error().describe();
        if (!problem.empty()) {
            for (const std::string& path : applied[key]) refused_.emplace_back(path, fmt::format("the re-encoded container does not read: {}", problem));
            continue;
        }
        containers_[key] = std::move(*rebuilt);
    }
    if (std::none_of(containers_.begin(), containers_.end(), [](const auto& c) { return c.first.kind == ContainerKey::level; })) return;
    // Each edited level reads as the image's does: no check it passes fails.
    const auto edited = open_edited_disc(original.image->path(), original, containers_, std::make_shared<cache::LruCache>(64ull << 20), [] { return std::string(); });
    for (auto it = containers_.begin(); it != containers_.end();) {
        std::string problem;
        if (it->first.kind == ContainerKey::level) {
            const auto before = failing_checks(original, it->first.index);
            for (const auto& [name, detail] : failing_checks(*edited, it->first.index))
                if (!before.count(name) && problem.empty()) problem = fmt::format("the edited level fails its check \"{}\": {}", name, detail);
        }
        if (problem.empty()) {
            ++it;
            continue;
        }
        for (const std::string& path : applied[it->first]) refused_.emplace_back(path, problem);
        it = containers_.erase(it);
    }
}

std::vector<std::string> ModStack::paths() const { return paths_; }

std::string ModStack::render() const {
    std::string out = "mod folders, read-only, applied in this order:\n";
    for (size_t i = 0; i < layers_.size(); ++i) {
        const auto& records = layers_[i].store.records();
        const size_t n = static_cast<size_t>(std::count_if(records.begin(), records.end(), [](const EditRecord& r) { return r.applied(); }));
        out += fmt::format("  {}. {} ({} applied edit{})\n", i + 1, tree::escape_log_text(layers_[i].dir), n, n == 1 ? "" : "s");
    }
    if (conflicts_.empty()) out += "no conflicts\n";
    for (const Conflict& c : conflicts_) {
        std::vector<std::string> folders;
        for (const std::string& f : c.folders) folders.push_back(tree::escape_log_text(f));
        out += fmt::format("conflict  {}  {}  between {}; the last one's is applied\n", tree::escape_log_text(c.path), tree::escape_log_text(c.item),
                           fmt::join(folders, ", "));
    }
    for (const auto& [path, why] : refused_) out += fmt::format("refused  {}  {}\n", tree::escape_log_text(path), tree::escape_log_text(why));
    for (const Layer& layer : layers_) out += "\n" + layer.store.render();
    return out;
}

}  // namespace gcfs::edit::mods
