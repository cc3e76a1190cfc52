// The virtual tree: every directory, file and symlink the mount shows, with
// inode numbers fixed for the life of the mount (ino = index + 1).
#pragma once

#include <cstdint>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gcfs::tree {

struct ReadOutcome {
    uint64_t bytes = 0;
    std::string error;  // empty on success; names the byte offset of the damage
    bool ok() const { return error.empty(); }
};

// What a file's bytes come from. size() must be cheap: it is answered at stat
// time from headers, never by decoding.
class Source {
public:
    virtual ~Source() = default;
    virtual uint64_t size() const = 0;
    virtual ReadOutcome read(uint64_t offset, std::span<uint8_t> out) const = 0;
    // Content that changes while mounted (.gcfs/stats): served with direct I/O.
    virtual bool dynamic() const { return false; }
    // Why the file cannot be read at all (its size could not be established,
    // or what it decodes from is damaged); opening it is then EIO.
    virtual std::string open_error() const { return {}; }
};

enum class NodeType { directory, file, symlink };

struct Node {
    uint64_t ino = 0;
    uint64_t parent = 0;
    std::string name;
    NodeType type = NodeType::directory;
    std::map<std::string, uint64_t> children;  // directories, sorted by name
    std::string link_target;                   // symlinks
    std::shared_ptr<const Source> source;      // files
};

class Tree {
public:
    static constexpr uint64_t kRootIno = 1;

    Tree();

    uint64_t add_directory(uint64_t parent, const std::string& name);
    uint64_t add_file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source);
    uint64_t add_symlink(uint64_t parent, const std::string& name, const std::string& target);

    const Node* node(uint64_t ino) const;
    std::optional<uint64_t> lookup(uint64_t parent, const std::string& name) const;
    std::optional<uint64_t> resolve(const std::string& path) const;  // "LEVEL00/core_data.bin"
    std::string path_of(uint64_t ino) const;                         // the inverse, without a leading slash
    size_t size() const { return nodes_.size(); }

    std::time_t timestamp = 0;  // the volume's creation date, for every node

private:
    uint64_t add(uint64_t parent, const std::string& name, NodeType type);
    std::vector<Node> nodes_;
};

}  // namespace gcfs::tree
