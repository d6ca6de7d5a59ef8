#pragma once
// ASCII text helpers shared by movegen (variant names) and notation (header keys, variant names).
// ASCII only, on purpose: 5DPGN keywords are ASCII, and std::tolower depends on the C locale.
// absl::EqualsIgnoreCase would do, but Debian's abseil has its own string_view type.

#include <cstddef>
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

} // namespace fived::movegen
