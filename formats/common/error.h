// Typed parse errors and the Result type every parser returns.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <utility>
#include <variant>

namespace gcfs::formats {

enum class Errc {
    truncated,        // a read would pass the end of the bytes given
    bad_magic,        // a signature or fixed field does not match
    bad_value,        // a field holds a value the format forbids
    out_of_range,     // an offset or range points outside its container
    lookback,         // WAD LZ: a match reaches before the start of the output
    double_literal,   // WAD LZ: a literal packet followed by a flag byte < 0x10
    size_mismatch,    // a declared size disagrees with what was decoded
    too_large,        // a count that would allocate unreasonable memory
    desync,           // a VIF walk lost track of its code words
    restart_check,    // WAD LZ: a restart point's output is not what its check says
    unavailable,      // a library the reader needs could not be loaded
};

const char* errc_name(Errc code);

struct FormatError {
    Errc code;
    uint64_t offset;  // byte offset inside the structure being parsed
    std::string message;

    std::string describe() const;  // "lookback at byte 0x1234: ..."
};

// Thrown only inside formats/ by the bounds-checked readers; every public
// parser catches it and returns it as a Result (see `capture`).
class FormatFailure : public std::exception {
public:
    explicit FormatFailure(FormatError error) : error_(std::move(error)) {}
    const FormatError& error() const { return error_; }
    const char* what() const noexcept override { return error_.message.c_str(); }

private:
    FormatError error_;
};

[[noreturn]] void fail(Errc code, uint64_t offset, std::string message);

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::move(value)) {}
    Result(FormatError error) : state_(std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return unwrap(); }
    const T& value() const& { return std::get<0>(state_); }
    T&& value() && { return std::move(unwrap()); }
    T* operator->() { return &unwrap(); }
    const T* operator->() const { return &std::get<0>(state_); }
    T& operator*() & { return unwrap(); }
    const T& operator*() const& { return std::get<0>(state_); }

    const FormatError& error() const { return std::get<1>(state_); }

private:
    T& unwrap() {
        if (!ok()) throw FormatFailure(error());
        return std::get<0>(state_);
    }
    std::variant<T, FormatError> state_;
};

// Runs a parser body that may call fail(), turning the failure into a Result.
template <class F>
auto capture(F&& body) -> Result<decltype(body())> {
    try {
        return body();
    } catch (const FormatFailure& failure) {
        return failure.error();
    }
}

}  // namespace gcfs::formats
