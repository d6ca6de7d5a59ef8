#pragma once
// The JSON text fived writes (every --json output, batch records, --benchmark-out). nlohmann's
// dump() throws on a string that is not valid UTF-8 (a Latin-1 file name, a stray byte in a
// file's text quoted by a diagnostic); json_text never does: in such a string, each byte that
// is not part of a valid UTF-8 sequence is written as the four characters \xHH (upper-case
// hex), so the JSON stays valid and the byte stays readable (README "JSON output"). Strings
// that are valid UTF-8 are written unchanged.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fived::cli {

// s with each byte outside a valid UTF-8 sequence replaced by the text \xHH; s itself when it
// is valid UTF-8.
std::string readable_utf8(std::string_view s);

// j.dump(indent), with the strings (values and keys) that are not valid UTF-8 made readable
// as readable_utf8 does.
std::string json_text(const nlohmann::json& j, int indent = -1);

} // namespace fived::cli
