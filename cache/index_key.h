// The persistent index's key: what makes its records and restart points
// trustworthy. A check computed from public bytes alone (a CRC, a digest of
// the core) can be recomputed by whoever edits the file, so each saved
// record and point carries an HMAC-SHA256 under a key that lives outside
// the index folder: $XDG_STATE_HOME/gcfs/index.key, else
// $HOME/.local/state/gcfs/index.key, 32 random bytes made 0600 on first use.
// An index copied from another machine (another key) is rebuilt, not
// trusted. HMAC-SHA256 is libsodium's (crypto_auth_hmacsha256), opened on
// first use (formats/common/late_library.h).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "formats/common/bytes.h"

namespace gcfs::cache {

using IndexMac = std::array<uint8_t, 32>;

class IndexKey {
public:
    // The key at the default place, made there when absent; nullopt (with
    // `why` set) when it cannot be read or made, or libsodium is missing.
    static std::optional<IndexKey> load(std::string& why);
    // The key file's path: empty when neither variable is set.
    static std::string default_path();

    // The MAC of the parts, each length-prefixed so that no two lists of
    // parts share one byte string.
    IndexMac mac(std::initializer_list<formats::ByteSpan> parts) const;

private:
    explicit IndexKey(const std::array<uint8_t, 32>& bytes) : bytes_(bytes) {}
    std::array<uint8_t, 32> bytes_;
};

}  // namespace gcfs::cache
