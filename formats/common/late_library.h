// A shared library opened on first use rather than at start. libsndfile,
// libpng's reader and libimagequant serve only edits (a user's WAV, PNG or
// palette), SQLite only the persistent index; linked outright they and the
// eleven libraries the first three pull in (codecs, OpenMP) were loaded
// before main on every start of gcfs, about 7 ms of a cold one
// (bench/results.md, issue 43).
#pragma once

#include <string>

namespace gcfs::formats {

class LateLibrary {
public:
    // Opens `soname` (dlopen, resolving every symbol now); a library that
    // cannot be opened leaves error() set and every function() null.
    explicit LateLibrary(const char* soname);
    LateLibrary(const LateLibrary&) = delete;
    LateLibrary& operator=(const LateLibrary&) = delete;
    // Never closed: its functions stay callable until the process ends.

    // The address of `name` typed as `Function`, or null with error() set.
    template <class Function>
    Function* function(const char* name) {
        return reinterpret_cast<Function*>(symbol(name));
    }
    // "" when the library and every function asked for were found.
    const std::string& error() const { return error_; }

private:
    void* symbol(const char* name);

    void* handle_ = nullptr;
    std::string error_;
};

// One table of a late library's functions (a struct whose first member is
// `LateLibrary library{...}` and whose others are GCFS_LATE_FUNCTION), made
// on first use and kept.
template <class Table>
const Table& late_table() {
    static const Table table;
    return table;
}

}  // namespace gcfs::formats

// A member of such a table: the library's `symbol`, typed as its header
// declares it, named `name`.
#define GCFS_LATE_FUNCTION(name, symbol) decltype(symbol)* const name = library.function<decltype(symbol)>(#symbol)
