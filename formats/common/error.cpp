#include "formats/common/error.h"

#include <fmt/format.h>

namespace gcfs::formats {

const char* errc_name(Errc code) {
    switch (code) {
        case Errc::truncated: return "truncated";
        case Errc::bad_magic: return "bad magic";
        case Errc::bad_value: return "bad value";
        case Errc::out_of_range: return "out of range";
        case Errc::lookback: return "lookback before start";
        case Errc::double_literal: return "double literal";
        case Errc::size_mismatch: return "size mismatch";
        case Errc::too_large: return "too large";
        case Errc::desync: return "VIF desync";
        case Errc::restart_check: return "restart point check";
        case Errc::unavailable: return "library unavailable";
    }
    return "unknown";
}

std::string FormatError::describe() const {
    return fmt::format("{} at byte 0x{:x}: {}", errc_name(code), offset, message);
}

void fail(Errc code, uint64_t offset, std::string message) {
    throw FormatFailure(FormatError{code, offset, std::move(message)});
}

}  // namespace gcfs::formats
