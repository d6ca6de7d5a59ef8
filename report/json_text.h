#pragma once
// The JSON text fived writes (every --json output, batch records, --benchmark-out). nlohmann's
// dump() throws on a string that is not valid UTF-8 (a Latin-1 file name, a stray byte in a
// file's text quoted by a diagnostic); json_text never does: in such a string, each byte that
// is not part of a valid UTF-8 sequence is written as the four characters \xHH (upper-case
// hex), so the JSON stays valid and the byte stays readable (README "JSON output"). Strings
// that are valid UTF-8 are written unchanged, so that text read back from fived's own JSON (a
// child's record in batch, the records batch-merge and shard-merge join) is written again as
// it was. The price: the text \xE9 and the byte E9 are written alike; batch refuses two input
// names that would be (escaping a literal \x too would write read-back text differently).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace fived::report {

// s with each byte outside a valid UTF-8 sequence replaced by the text \xHH; s itself when it
// is valid UTF-8.
std::string readable_utf8(std::string_view s);

// j.dump(indent), with the strings (values and keys) that are not valid UTF-8 made readable
// as readable_utf8 does.
std::string json_text(const nlohmann::json& j, int indent = -1);

} // namespace fived::report
