// Libraries opened on first use (formats/common/late_library.h): a missing
// one is named in the error, never a crash at a call.
#include <doctest/doctest.h>

#include <zlib.h>

#include <string>

#include "formats/common/late_library.h"

using gcfs::formats::LateLibrary;

TEST_CASE("a late library resolves the functions it has") {
    LateLibrary zlib("libz.so.1");
    auto* version = zlib.function<decltype(zlibVersion)>("zlibVersion");
    REQUIRE(zlib.error().empty());
    const bool found = version != nullptr;
    REQUIRE(found);
    CHECK(std::string(version()) == zlibVersion());
}

TEST_CASE("a late library names what it could not find") {
    LateLibrary missing("libgcfs-no-such-library.so.9");
    const bool none = missing.function<int()>("anything") == nullptr;
    CHECK(none);
    CHECK(missing.error().find("libgcfs-no-such-library.so.9 could not be loaded") == 0);

    LateLibrary zlib("libz.so.1");
    const bool absent = zlib.function<int()>("no_such_function_in_zlib") == nullptr;
    CHECK(absent);
    CHECK(zlib.error() == "the library has no no_such_function_in_zlib");
}
