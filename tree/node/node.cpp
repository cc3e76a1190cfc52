#include "tree/node/node.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

namespace gcfs::tree {

const std::map<std::string, uint64_t>& Node::children() const {
    static const std::map<std::string, uint64_t> none;
    return branch ? branch->children : none;
}

const std::string& Node::link_target() const {
    static const std::string none;
    return branch ? branch->link_target : none;
}

Tree::Tree() {
    Node root;
    root.ino = kRootIno;
    root.parent = kRootIno;
    root.branch = std::make_unique<Node::Branch>();
    nodes_.push_back(std::move(root));
}

Tree::Tree(uint64_t number, const Tree& parent) : timestamp(parent.timestamp), base_(number << kTreeShift) {}

uint64_t Tree::add_subtree(uint64_t parent, const std::string& name, SubtreeBuilder build) {
    if (base_ != 0) throw std::invalid_argument("only the root tree has subtrees");
    if (subtrees_.size() + 1 >= (1ull << (64 - kTreeShift))) throw std::length_error("too many subtrees");
    const uint64_t folder = add(parent, name, NodeType::directory);
    auto sub = std::make_unique<Subtree>();
    sub->tree.reset(new Tree(subtrees_.size() + 1, *this));
    // The folder node lives in the subtree (its children are added there);
    // the root keeps only the name -> inode entry, pointing at it.
    Node moved = std::move(own(folder));
    moved.ino = sub->tree->base_ + 1;
    moved.lazy = true;
    own(parent).branch->children[name] = moved.ino;
    nodes_.pop_back();  // `folder` was the last node added
    sub->tree->nodes_.push_back(std::move(moved));
    sub->folder = &sub->tree->nodes_.front();
    sub->build = std::move(build);
    subtrees_.push_back(std::move(sub));
    return subtrees_.back()->folder->ino;
}

Tree::Subtree* Tree::subtree_of(uint64_t ino) const {
    const uint64_t number = ino >> kTreeShift;
    if (base_ != 0 || number == 0 || number > subtrees_.size()) return nullptr;
    return subtrees_[number - 1].get();
}

const Tree& Tree::built(Subtree& sub) const {
    std::call_once(sub.once, [&] {
        try {
            sub.error = sub.build(*sub.tree, sub.folder->ino);
        } catch (const std::exception& e) {
            // What was added stays (every node is whole); the rest is missing.
            spdlog::error("{}: building the folder stopped: {}", sub.folder->name, e.what());
        }
        sub.built = true;
    });
    return *sub.tree;
}

std::string Tree::folder_error(uint64_t ino) const {
    Subtree* sub = subtree_of(ino);
    if (!sub || ino != sub->folder->ino) return {};
    built(*sub);
    return sub->error;
}

void Tree::build_all() const {
    for (const auto& sub : subtrees_) built(*sub);
}

uint64_t Tree::size() const {
    uint64_t n = nodes_.size() + next_run_ino_ - base_ - kRunBase;
    for (const auto& sub : subtrees_)
        n += sub->built ? sub->tree->size() : 1;
    return n;
}

Node* Tree::own_directory(uint64_t ino) {
    if (!owns(ino) || is_run_file(ino) || ino - base_ > nodes_.size()) return nullptr;
    return own(ino).type == NodeType::directory ? &own(ino) : nullptr;
}

bool Tree::run_claims(const Node& dir, const std::string& name) const {
    return std::any_of(dir.branch->runs.begin(), dir.branch->runs.end(), [&](size_t r) { return runs_[r].files->position(name).has_value(); });
}

uint64_t Tree::add(uint64_t parent, const std::string& name, NodeType type) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw std::invalid_argument("bad node name '" + name + "'");
    Node* dir = own_directory(parent);
    if (!dir) throw std::invalid_argument(name + ": parent is not a directory of this tree");
    const uint64_t ino = base_ + nodes_.size() + 1;
    auto& children = dir->branch->children;
    const size_t before = children.size();
    // Children mostly arrive in name order, so the end is the usual spot.
    children.emplace_hint(children.end(), name, ino);
    if (children.size() == before || run_claims(*dir, name))
        throw std::invalid_argument("duplicate node " + dir->name + "/" + name);
    Node n;
    n.ino = ino;
    n.parent = parent;
    n.name = name;
    n.type = type;
    if (type != NodeType::file) n.branch = std::make_unique<Node::Branch>();
    nodes_.push_back(std::move(n));
    return ino;
}

uint64_t Tree::add_directory(uint64_t parent, const std::string& name) { return add(parent, name, NodeType::directory); }

uint64_t Tree::folders_of(uint64_t parent, const std::string& path) {
    uint64_t at = parent;
    size_t start = 0;
    for (size_t slash; (slash = path.find('/', start)) != std::string::npos; start = slash + 1) {
        const std::string part = path.substr(start, slash - start);
        auto existing = lookup(at, part);
        at = existing ? *existing : add_directory(at, part);
    }
    return at;
}

std::string Tree::relative_path(uint64_t dir) const {
    std::string path;
    for (uint64_t at = dir; at != base_ + 1 && owns(at); at = own(at).parent)
        path = path.empty() ? own(at).name : own(at).name + "/" + path;
    return path;
}

uint64_t Tree::add_file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source,
                        std::shared_ptr<const Provenance> provenance) {
    if (memo_) {
        const std::string dir = relative_path(parent);
        source = memo_->file(dir.empty() ? name : dir + "/" + name, std::move(source));
    }
    const uint64_t ino = add(parent, name, NodeType::file);
    own(ino).source = std::move(source);
    own(ino).provenance = std::move(provenance);
    return ino;
}

uint64_t Tree::add_symlink(uint64_t parent, const std::string& name, const std::string& target) {
    const uint64_t ino = add(parent, name, NodeType::symlink);
    own(ino).branch->link_target = target;
    return ino;
}

void Tree::add_file_run(uint64_t parent, std::shared_ptr<const FileRun> run) {
    Node* found = own_directory(parent);
    if (!found) throw std::invalid_argument("file run: parent is not a directory of this tree");
    Node& dir = *found;
    if (memo_) run = memo_->run(relative_path(parent), dir.branch->runs.size(), std::move(run));
    for (const auto& [name, ino] : dir.children())
        if (run->position(name)) throw std::invalid_argument("file run claims " + dir.name + "/" + name);
    for (uint64_t i = 0; !dir.branch->runs.empty() && i < run->count(); ++i)
        if (run_claims(dir, run->name(i)))
            throw std::invalid_argument("two file runs claim " + dir.name + "/" + run->name(i));
    dir.branch->runs.push_back(runs_.size());
    runs_.push_back({next_run_ino_, parent, std::move(run)});
    next_run_ino_ += runs_.back().files->capacity();
}

std::vector<std::shared_ptr<const FileRun>> Tree::runs_of(uint64_t dir) const {
    if (Subtree* sub = subtree_of(dir)) return built(*sub).runs_of(dir);
    std::vector<std::shared_ptr<const FileRun>> found;
    const NodeRef n = node(dir);
    if (!n || n->type != NodeType::directory) return found;
    for (size_t r : n->branch->runs) found.push_back(runs_[r].files);
    return found;
}

const Tree::Run* Tree::run_of(uint64_t ino) const {
    // runs_ is ordered by first_ino: the last run starting at or before ino.
    auto it = std::upper_bound(runs_.begin(), runs_.end(), ino, [](uint64_t i, const Run& r) { return i < r.first_ino; });
    if (it == runs_.begin()) return nullptr;
    --it;
    return ino - it->first_ino < it->files->count() ? &*it : nullptr;
}

NodeRef Tree::node(uint64_t ino) const {
    // Built nodes stay put for the life of the tree: the reference shares no ownership.
    auto built_node = [](const Node* n) { return n ? NodeRef(std::shared_ptr<const Node>(), n) : nullptr; };
    if (Subtree* sub = subtree_of(ino)) return ino == sub->folder->ino ? built_node(sub->folder) : built(*sub).node(ino);
    if (!owns(ino)) return nullptr;
    if (!is_run_file(ino)) return ino - base_ <= nodes_.size() ? built_node(&own(ino)) : nullptr;
    const Run* run = run_of(ino);
    if (!run) return nullptr;
    auto n = std::make_shared<Node>();
    n->ino = ino;
    n->parent = run->parent;
    n->name = run->files->name(ino - run->first_ino);
    n->type = NodeType::file;
    n->source = run->files->source(ino - run->first_ino);
    return n;
}

std::shared_ptr<const Provenance> Tree::provenance(const Node& file) const {
    if (Subtree* sub = subtree_of(file.ino)) return built(*sub).provenance(file);
    if (!is_run_file(file.ino)) return file.provenance;
    const Run* run = run_of(file.ino);
    return run ? run->files->provenance(file.ino - run->first_ino) : nullptr;
}

std::optional<uint64_t> Tree::lookup(uint64_t parent, const std::string& name) const {
    if (Subtree* sub = subtree_of(parent)) return built(*sub).lookup(parent, name);
    const NodeRef dir = node(parent);
    if (!dir || dir->type != NodeType::directory) return std::nullopt;
    if (name == ".") return parent;
    if (name == "..") return dir->parent;
    if (auto it = dir->children().find(name); it != dir->children().end()) return it->second;
    for (size_t r : dir->branch->runs)
        if (auto position = runs_[r].files->position(name)) return runs_[r].first_ino + *position;
    return std::nullopt;
}

void Tree::for_each_child(uint64_t ino, uint64_t skip, const ChildVisitor& visit) const {
    if (Subtree* sub = subtree_of(ino)) {
        if (skip == 0 && ino == sub->folder->ino && listener_) listener_(ino);
        return built(*sub).for_each_child(ino, skip, visit);
    }
    const NodeRef dir = node(ino);
    if (!dir || dir->type != NodeType::directory) return;
    for (const auto& [name, child] : dir->children()) {
        if (skip > 0) {
            --skip;
            continue;
        }
        // A subtree's folder is listed from the root: its node is the subtree's.
        if (!visit(name, child, owns(child) ? own(child).type : NodeType::directory)) return;
    }
    for (size_t r : dir->branch->runs) {
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
    for (NodeRef n = node(ino); n && n->ino != kRootIno; n = node(n->parent))
        path = path.empty() ? n->name : n->name + "/" + path;
    return path;
}

}  // namespace gcfs::tree
