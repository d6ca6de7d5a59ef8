#include "notation/headers.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "movegen/text.h"
#include "movegen/variants.h"

namespace fived::notation {

using movegen::iequals;
using movegen::Multiverse;

namespace {

constexpr std::array<std::string_view, 7> LeadingKeys = {
    "Event", "Site", "Date", "Round", "White", "Black", "Result"};
constexpr std::array<std::string_view, 6> ComputedKeys = {
    "Board", "Mode", "Size", "Timeline", "Timelines", "Promotions"};

} // namespace

bool is_computed_header(std::string_view key) {
    return std::any_of(ComputedKeys.begin(), ComputedKeys.end(),
        [&](std::string_view c) { return iequals(c, key); });
}

bool is_leading_header(std::string_view key) {
    return std::any_of(LeadingKeys.begin(), LeadingKeys.end(),
        [&](std::string_view c) { return iequals(c, key); });
}

std::vector<std::pair<std::string, std::string>> canonical_headers(
    const std::vector<std::pair<std::string, std::string>>& headers) {
    std::vector<std::pair<std::string, std::string>> clean;
    // The keys kept, folded as iequals compares them: one look-up per header, not a scan of
    // the kept ones (100,000 headers took seconds).
    std::unordered_set<std::string> seen;
    for (const auto& [k, v] : headers) {
        std::string key, value;
        for (char c : k)
            key +=
                c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '[' || c == ']'
                ? '_'
                : c;
        if (key.empty()) continue;
        if (is_computed_header(key)) continue;
        std::string folded = key;
        for (char& c : folded)
            c = movegen::ascii_lower(c);
        if (!seen.insert(std::move(folded)).second) continue;
        for (char c : v)
            value += c == '"' ? '\'' : c == '\n' || c == '\r' ? ' ' : c;
        // A value ending in a backslash would escape the closing quote (`\"`).
        if (!value.empty() && value.back() == '\\') value.back() = '/';
        clean.emplace_back(std::move(key), std::move(value));
    }
    std::vector<std::pair<std::string, std::string>> ordered;
    for (std::string_view lead : LeadingKeys)
        for (const auto& h : clean)
            if (iequals(h.first, lead)) ordered.push_back(h);
    for (const auto& h : clean)
        if (iequals(h.first, "Puzzle")) ordered.push_back(h);
    for (const auto& h : clean)
        if (!iequals(h.first, "Puzzle") && !is_leading_header(h.first)) ordered.push_back(h);
    return ordered;
}

std::string board_header_value(const Multiverse& start) {
    const movegen::VariantDef* v = movegen::builtin_variant_of(start);
    return v ? v->name : "Custom";
}

} // namespace fived::notation
