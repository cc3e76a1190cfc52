#include "tree/node.h"

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace gcfs::tree {

Tree::Tree() {
    Node root;
    root.ino = kRootIno;
    root.parent = kRootIno;
    nodes_.push_back(std::move(root));
}

bool Tree::run_claims(const Node& dir, const std::string& name) const {
    return std::any_of(dir.runs.begin(), dir.runs.end(), [&](size_t r) { return runs_[r].files->position(name).has_value(); });
}

uint64_t Tree::add(uint64_t parent, const std::string& name, NodeType type) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw std::invalid_argument("bad node name '" + name + "'");
    if (parent >= kRunBase || nodes_.at(parent - 1).type != NodeType::directory)
        throw std::invalid_argument(name + ": parent is not a directory");
    const uint64_t ino = nodes_.size() + 1;
    auto& children = nodes_[parent - 1].children;
    const size_t before = children.size();
    // Children mostly arrive in name order, so the end is the usual spot.
    children.emplace_hint(children.end(), name, ino);
    if (children.size() == before || run_claims(nodes_[parent - 1], name))
        throw std::invalid_argument("duplicate node " + path_of(parent) + "/" + name);
    Node n;
    n.ino = ino;
    n.parent = parent;
    n.name = name;
    n.type = type;
    nodes_.push_back(std::move(n));
    return ino;
}

uint64_t Tree::add_directory(uint64_t parent, const std::string& name) { return add(parent, name, NodeType::directory); }

uint64_t Tree::add_file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source,
                        std::shared_ptr<const Provenance> provenance) {
    const uint64_t ino = add(parent, name, NodeType::file);
    nodes_[ino - 1].source = std::move(source);
    nodes_[ino - 1].provenance = std::move(provenance);
    return ino;
}

uint64_t Tree::add_symlink(uint64_t parent, const std::string& name, const std::string& target) {
    const uint64_t ino = add(parent, name, NodeType::symlink);
    nodes_[ino - 1].link_target = target;
    return ino;
}

void Tree::add_file_run(uint64_t parent, std::shared_ptr<const FileRun> run) {
    if (parent >= kRunBase || nodes_.at(parent - 1).type != NodeType::directory)
        throw std::invalid_argument("file run: parent is not a directory");
    Node& dir = nodes_[parent - 1];
    for (const auto& [name, ino] : dir.children)
        if (run->position(name)) throw std::invalid_argument("file run claims " + path_of(parent) + "/" + name);
    for (uint64_t i = 0; !dir.runs.empty() && i < run->count(); ++i)
        if (run_claims(dir, run->name(i)))
            throw std::invalid_argument("two file runs claim " + path_of(parent) + "/" + run->name(i));
    dir.runs.push_back(runs_.size());
    runs_.push_back({next_run_ino_, parent, std::move(run)});
    next_run_ino_ += runs_.back().files->capacity();
}

const Tree::Run* Tree::run_of(uint64_t ino) const {
    // runs_ is ordered by first_ino: the last run starting at or before ino.
    auto it = std::upper_bound(runs_.begin(), runs_.end(), ino, [](uint64_t i, const Run& r) { return i < r.first_ino; });
    if (it == runs_.begin()) return nullptr;
    --it;
    return ino - it->first_ino < it->files->count() ? &*it : nullptr;
}

const Node* Tree::node(uint64_t ino) const {
    if (ino == 0) return nullptr;
    if (ino < kRunBase) return ino <= nodes_.size() ? &nodes_[ino - 1] : nullptr;
    {
        std::shared_lock lock(run_nodes_mutex_);
        if (auto it = run_nodes_.find(ino); it != run_nodes_.end()) return &it->second;
    }
    const Run* run = run_of(ino);
    if (!run) return nullptr;
    Node n;
    n.ino = ino;
    n.parent = run->parent;
    n.name = run->files->name(ino - run->first_ino);
    n.type = NodeType::file;
    n.source = run->files->source(ino - run->first_ino);
    std::unique_lock lock(run_nodes_mutex_);
    return &run_nodes_.try_emplace(ino, std::move(n)).first->second;  // a racing thread's node wins; same content
}

std::shared_ptr<const Provenance> Tree::provenance(const Node& file) const {
    if (file.ino < kRunBase) return file.provenance;
    const Run* run = run_of(file.ino);
    return run ? run->files->provenance(file.ino - run->first_ino) : nullptr;
}

std::optional<uint64_t> Tree::lookup(uint64_t parent, const std::string& name) const {
    const Node* dir = node(parent);
    if (!dir || dir->type != NodeType::directory) return std::nullopt;
    if (name == ".") return parent;
    if (name == "..") return dir->parent;
    if (auto it = dir->children.find(name); it != dir->children.end()) return it->second;
    for (size_t r : dir->runs)
        if (auto position = runs_[r].files->position(name)) return runs_[r].first_ino + *position;
    return std::nullopt;
}

void Tree::for_each_child(uint64_t ino, uint64_t skip, const ChildVisitor& visit) const {
    const Node* dir = node(ino);
    if (!dir || dir->type != NodeType::directory) return;
    for (const auto& [name, child] : dir->children) {
        if (skip > 0) {
            --skip;
            continue;
        }
        if (!visit(name, child, nodes_[child - 1].type)) return;
    }
    for (size_t r : dir->runs) {
        const Run& run = runs_[r];
        const uint64_t count = run.files->count();
        if (skip >= count) {
            skip -= count;
            continue;
        }
        for (uint64_t i = skip; i < count; ++i)
            if (!visit(run.files->name(i), run.first_ino + i, NodeType::file)) return;
        skip = 0;
    }
}

std::optional<uint64_t> Tree::resolve(const std::string& path) const {
    uint64_t at = kRootIno;
    size_t start = 0;
    while (start <= path.size()) {
        const size_t slash = path.find('/', start);
        const std::string part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        if (!part.empty()) {
            auto next = lookup(at, part);
            if (!next) return std::nullopt;
            at = *next;
        }
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    return at;
}

std::string Tree::path_of(uint64_t ino) const {
    std::string path;
    for (const Node* n = node(ino); n && n->ino != kRootIno; n = node(n->parent))
        path = path.empty() ? n->name : n->name + "/" + path;
    return path;
}

}  // namespace gcfs::tree
