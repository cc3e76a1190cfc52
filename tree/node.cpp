#include "tree/node.h"

#include <stdexcept>

namespace gcfs::tree {

Tree::Tree() {
    Node root;
    root.ino = kRootIno;
    root.parent = kRootIno;
    nodes_.push_back(std::move(root));
}

uint64_t Tree::add(uint64_t parent, const std::string& name, NodeType type) {
    if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
        throw std::invalid_argument("bad node name '" + name + "'");
    Node& dir = nodes_.at(parent - 1);
    if (dir.type != NodeType::directory) throw std::invalid_argument(name + ": parent is not a directory");
    if (dir.children.count(name)) throw std::invalid_argument("duplicate node " + path_of(parent) + "/" + name);
    Node n;
    n.ino = nodes_.size() + 1;
    n.parent = parent;
    n.name = name;
    n.type = type;
    nodes_.at(parent - 1).children.emplace(name, n.ino);
    nodes_.push_back(std::move(n));
    return nodes_.size();
}

uint64_t Tree::add_directory(uint64_t parent, const std::string& name) { return add(parent, name, NodeType::directory); }

uint64_t Tree::add_file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source) {
    const uint64_t ino = add(parent, name, NodeType::file);
    nodes_[ino - 1].source = std::move(source);
    return ino;
}

uint64_t Tree::add_symlink(uint64_t parent, const std::string& name, const std::string& target) {
    const uint64_t ino = add(parent, name, NodeType::symlink);
    nodes_[ino - 1].link_target = target;
    return ino;
}

const Node* Tree::node(uint64_t ino) const {
    if (ino == 0 || ino > nodes_.size()) return nullptr;
    return &nodes_[ino - 1];
}

std::optional<uint64_t> Tree::lookup(uint64_t parent, const std::string& name) const {
    const Node* dir = node(parent);
    if (!dir || dir->type != NodeType::directory) return std::nullopt;
    if (name == ".") return parent;
    if (name == "..") return dir->parent;
    auto it = dir->children.find(name);
    if (it == dir->children.end()) return std::nullopt;
    return it->second;
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
