// Every kind of name the mount shows, once, with what it is. README.txt's
// list is written from it, README.md carries the same list (the docs test
// compares them), user.gcfs.what gives each file its entry, and the tests
// walk a built tree: every name must match an entry, every entry a name.
//
// A pattern is a path from the mount's root. <N>, <NN>, <NNN>, <NNNN> and
// <nn> stand for decimal digits, <path> for one or more path steps, and any
// other <word> for part of one step. A folder's pattern ends with '/'.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gcfs::tree {

struct CatalogueEntry {
    std::string_view pattern;
    std::string_view what;
    // Empty for names every disc the builder writes shows; else when the name
    // appears ("a part cannot be read").
    std::string_view only_when = {};
};

std::span<const CatalogueEntry> catalogue();

// Whether `path` (no leading '/'; a folder's ends with '/') fits `pattern`.
// A step may end with "~<N>": the second and later records that claim one
// name in a folder (tree/node/safe_name.h).
bool matches(std::string_view pattern, std::string_view path);

// The entry `path` fits, or null.
const CatalogueEntry* describe(std::string_view path);

// The list as README.txt and README.md show it: a pattern and its
// description per line, the description indented past the longest pattern.
std::string catalogue_text();

}  // namespace gcfs::tree
