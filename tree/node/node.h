// The virtual tree: every directory, file and symlink the mount shows, with
// inode numbers fixed for the life of the mount. Built nodes have ino =
// index + 1; files of a FileRun have inodes reserved from kRunBase and get a
// Node made for each caller that asks (Tree::node), kept by none. A folder may be a subtree of its own (a
// level folder), built on first listing or lookup inside it: its inodes
// carry the subtree's number above kTreeShift.
#pragma once

#include <cstdint>
#include <ctime>
#include <functional>
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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
    // Why a read would fail, decoding what it must to know. A scene asks this
    // of each file it embeds, so the scene sized at stat is the one it writes.
    virtual std::string read_error() const { return open_error(); }
};

enum class NodeType { directory, file, symlink };

// Where a file's bytes come from, shown as user.gcfs.* extended attributes.
struct Provenance {
    std::string container;      // the ISO9660 file holding the bytes read; empty: made by gcfs alone
    uint64_t image_offset = 0;  // the image bytes the file is read or decoded from
    uint64_t image_length = 0;
    std::string decoder;        // how those bytes become the file
    std::string detail;         // which part of the decoded data, with its formats.md section
};

// Sibling files whose names and contents follow from their position (one per
// tfrag patch): thousands of them cost nothing until one is looked up.
class FileRun {
public:
    virtual ~FileRun() = default;
    virtual uint64_t count() const = 0;
    // Inodes to reserve when the folder is built, >= count(): a run whose count is known only
    // after decoding (gameplay/help/, pvars/) answers a bound instead, so
    // building the tree decodes nothing.
    virtual uint64_t capacity() const { return count(); }
    virtual std::string name(uint64_t position) const = 0;
    virtual std::optional<uint64_t> position(std::string_view name) const = 0;
    virtual std::shared_ptr<const Source> source(uint64_t position) const = 0;
    virtual std::shared_ptr<const Provenance> provenance(uint64_t position) const = 0;
};

// What an earlier mount found a subtree's files to be (tree/index/remembered.h):
// each file and file run is handed over as it is added, and comes back as
// is or answering its size and names from the record instead of decoding.
class SubtreeMemo {
public:
    virtual ~SubtreeMemo() = default;
    // `path` is relative to the subtree's folder ("ties/tie_500.obj").
    virtual std::shared_ptr<const Source> file(const std::string& path, std::shared_ptr<const Source> made) const = 0;
    // The `ordinal`-th run added to folder `dir` ("" for the subtree's folder).
    virtual std::shared_ptr<const FileRun> run(const std::string& dir, size_t ordinal, std::shared_ptr<const FileRun> made) const = 0;
};

struct Node {
    uint64_t ino = 0;
    uint64_t parent = 0;
    std::string name;
    NodeType type = NodeType::directory;
    // A subtree's folder: its children are not known until it is built, so it
    // shows st_nlink 1 (subdirectories not counted) whether built or not.
    bool lazy = false;
    std::shared_ptr<const Source> source;      // files
    std::shared_ptr<const Provenance> provenance;  // built files; a run's files: Tree::provenance

    // What only directories and symlinks carry, kept apart: most built nodes
    // are files, which need none of it.
    struct Branch {
        std::map<std::string, uint64_t> children;  // directories: built children, sorted by name
        std::vector<size_t> runs;                  // directories: indices of their file runs
        std::string link_target;                   // symlinks
    };
    std::unique_ptr<Branch> branch;  // directories and symlinks only

    const std::map<std::string, uint64_t>& children() const;  // empty for a file
    const std::string& link_target() const;                   // empty but for a symlink
};

// A node for as long as it is held (Tree::node).
using NodeRef = std::shared_ptr<const Node>;

class Tree {
public:
    static constexpr uint64_t kRootIno = 1;

    Tree();
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;

    uint64_t add_directory(uint64_t parent, const std::string& name);
    // The folders of `path` before its last '/' ("a/b/leaf": a, then a/b),
    // made under `parent` where missing; returns the innermost.
    uint64_t folders_of(uint64_t parent, const std::string& path);
    uint64_t add_file(uint64_t parent, const std::string& name, std::shared_ptr<const Source> source,
                      std::shared_ptr<const Provenance> provenance);
    uint64_t add_symlink(uint64_t parent, const std::string& name, const std::string& target);
    void add_file_run(uint64_t parent, std::shared_ptr<const FileRun> run);
    // From now on the files and runs added to this subtree pass through `memo`.
    void remember(std::shared_ptr<const SubtreeMemo> memo) { memo_ = std::move(memo); }
    // The file runs of folder `dir`, in the order they were added.
    std::vector<std::shared_ptr<const FileRun>> runs_of(uint64_t dir) const;
    // A folder whose contents `build` adds to the subtree it is given, once,
    // when first needed (a listing or lookup inside it, not a stat of it).
    // Only the root tree has subtrees; the subtree's inodes are its own.
    // `build` returns why the folder cannot be shown at all (empty: it can).
    using SubtreeBuilder = std::function<std::string(Tree& subtree, uint64_t folder)>;
    uint64_t add_subtree(uint64_t parent, const std::string& name, SubtreeBuilder build);
    // Why folder `ino` (a subtree's, built by this call if need be) cannot be
    // looked into or listed; empty for every other folder.
    std::string folder_error(uint64_t ino) const;
    // Builds every subtree not built yet (whole-disc checks, tools).
    void build_all() const;
    // Told when a listing of a subtree's folder begins (tree/index/index_ahead.h).
    // Set once, before the tree is served.
    using ListingListener = std::function<void(uint64_t folder)>;
    void on_folder_listed(ListingListener listener) { listener_ = std::move(listener); }

    // Null when there is no such inode. A built node is the tree's own (the
    // reference owns nothing); a run's file is made afresh for the caller and
    // let go with the last reference, so a listing of 70,000 run files keeps
    // none of them (their sources' cache keys are fixed by the run, so a file
    // made again finds what it decoded before).
    NodeRef node(uint64_t ino) const;
    // Where a file's bytes come from. A run's files make theirs when asked.
    std::shared_ptr<const Provenance> provenance(const Node& file) const;
    std::optional<uint64_t> lookup(uint64_t parent, const std::string& name) const;
    // Built children in name order, then each run in position order, from
    // the `skip`-th entry on; stops when `visit` returns false.
    using ChildVisitor = std::function<bool(const std::string& name, uint64_t ino, NodeType type)>;
    void for_each_child(uint64_t dir, uint64_t skip, const ChildVisitor& visit) const;
    std::optional<uint64_t> resolve(const std::string& path) const;  // "LEVEL00/core_data.bin"
    std::string path_of(uint64_t ino) const;                         // the inverse, without a leading slash
    // Nodes built, plus the inodes reserved for runs (their capacity: a bound,
    // not a count), in this tree and the subtrees built so far.
    uint64_t size() const;

    std::time_t timestamp = 0;  // the volume's creation date, for every node

    static constexpr uint64_t kRunBase = 1ull << 40;
    static constexpr int kTreeShift = 48;
    // Whether `ino` is a run's file (its inode reserved from kRunBase in its tree).
    static constexpr bool is_run_file(uint64_t ino) { return (ino & ((1ull << kTreeShift) - 1)) >= kRunBase; }

private:
    struct Run {
        uint64_t first_ino;
        uint64_t parent;
        std::shared_ptr<const FileRun> files;
    };
    struct Subtree {
        std::unique_ptr<Tree> tree;
        const Node* folder;  // its first node, readable before the build
        SubtreeBuilder build;
        std::string error;  // what `build` returned
        std::once_flag once;
        std::atomic<bool> built{false};
    };

    explicit Tree(uint64_t number, const Tree& parent);
    uint64_t add(uint64_t parent, const std::string& name, NodeType type);
    Node& own(uint64_t ino) { return nodes_[ino - base_ - 1]; }
    const Node& own(uint64_t ino) const { return nodes_[ino - base_ - 1]; }
    bool owns(uint64_t ino) const { return ino > base_ && (ino >> kTreeShift) == (base_ >> kTreeShift); }
    Node* own_directory(uint64_t ino);  // a built directory of this tree, or null
    Subtree* subtree_of(uint64_t ino) const;   // null: not in a subtree of this tree
    const Tree& built(Subtree& subtree) const;
    const Run* run_of(uint64_t ino) const;
    bool run_claims(const Node& dir, const std::string& name) const;

    const uint64_t base_ = 0;  // this tree's number << kTreeShift
    std::deque<Node> nodes_;   // a deque: a subtree's folder node stays put while it is built
    std::vector<std::unique_ptr<Subtree>> subtrees_;
    std::vector<Run> runs_;  // by first_ino, ascending
    uint64_t next_run_ino_ = base_ + kRunBase;
    ListingListener listener_;
    std::shared_ptr<const SubtreeMemo> memo_;
    // The path of built folder `dir` under this subtree's folder ("" for the folder).
    std::string relative_path(uint64_t dir) const;
};

}  // namespace gcfs::tree
