#pragma once
// Text helpers shared by movegen (variant names), notation (header keys, variant names) and the
// writers above them (render's SVG, the CLI's JSON: UTF-8 validity). The case helpers are ASCII
// only, on purpose: 5DPGN keywords are ASCII, and std::tolower depends on the C locale.
// absl::EqualsIgnoreCase would do, but Debian's abseil has its own string_view type.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fived::movegen {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

// ASCII case-insensitive equality.
constexpr bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

// Whether s starts with prefix, ignoring ASCII case.
constexpr bool istarts_with(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

static_assert(iequals("Misc - Small", "misc - SMALL") && !iequals("Odd", "Odds"));
static_assert(istarts_with("Custom - Even", "custom") && !istarts_with("Cust", "custom"));

// Length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), 0 if the byte does not start one.
inline std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    const auto         byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
    const std::uint8_t b    = byte(i);
    if (b < 0x80) return 1;
    std::size_t  n  = 0;
    std::uint8_t lo = 0x80, hi = 0xBF; // the range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
        n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        n  = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
        n  = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

} // namespace fived::movegen
