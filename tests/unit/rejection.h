// Checks that a class reader rejects damaged bytes with the error at the
// byte it names, shared by the tie, shrub and moby tests.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "formats/common/bytes.h"

namespace gcfs::test {

inline void set_u8(formats::Bytes& b, size_t at, uint8_t v) { b.at(at) = v; }

// `read` rejects `bytes` with an error at `offset` whose message contains `says`.
template <class Reader>
void expect_rejected_at(Reader read, const formats::Bytes& bytes, uint64_t offset, const char* says) {
    auto result = read(bytes);
    REQUIRE_FALSE(result.ok());
    CHECK_MESSAGE(result.error().offset == offset, result.error().describe());
    CHECK_MESSAGE(result.error().message.find(says) != std::string::npos, result.error().describe());
}

}  // namespace gcfs::test
