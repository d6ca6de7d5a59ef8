#pragma once
// The JSON text fived writes (every --json output, batch records, --benchmark-out). nlohmann's
// dump() throws on a string that is not valid UTF-8 (a Latin-1 file name, a stray byte in a
// file's text quoted by a diagnostic); json_text never does: in such a string, each byte that
// is not part of a valid UTF-8 sequence is written as the four characters \xHH (upper-case
// hex), so the JSON stays valid and the byte stays readable (README "JSON output"). So that
// the text \xHH always means a byte, a backslash followed by `x` is written \x5C (the text
// \xE9 becomes \x5CxE9) in every string: replacing each \xHH by the byte HH, left to right,
// gives back the original bytes exactly, and two different strings are never written alike.
// Every other string is written unchanged.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fived::report {

// s with each byte outside a valid UTF-8 sequence replaced by the text \xHH and each backslash
// followed by `x` by the text \x5C; s itself when it has neither.
std::string readable_utf8(std::string_view s);

// j.dump(indent), with every string (values and keys) written as readable_utf8 writes it.
std::string json_text(const nlohmann::json& j, int indent = -1);

} // namespace fived::report
