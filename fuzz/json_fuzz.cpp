// libFuzzer target of json_text() (report/json_text.h), the writer of every --json output and batch
// record: any bytes, as a file name, a comment, a header name and value and a diagnostic, are
// put in a JSON document shaped like fived's; its text must be valid JSON (nlohmann reads it
// back), and every string must come back as the writer promises (README "JSON output"):
//   * a string that is valid UTF-8 comes back unchanged;
//   * any other string comes back as readable_utf8() of it: valid UTF-8, each byte outside a
//     valid UTF-8 sequence written as \xHH, so decoding \xHH gives back the original bytes
//     exactly unless the original already held the text \xHH (then two strings can read the
//     same: the README says so, and batch refuses two file names that do);
//   * json_text(j) is the same text as j.dump() whenever dump() succeeds.
// The input is cut at its 0x00 bytes into the strings; the first byte picks the indentation.
//
// Build and run with scripts/fuzz.sh (clang, ASan + UBSan).

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "movegen/text.h"
#include "report/json_text.h"

namespace {

using nlohmann::json;

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "json_fuzz: %s\n%s\n", what, detail.c_str());
    std::abort();
}

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = fived::movegen::utf8_sequence(s, i);
        if (!n) return false;
        i += n;
    }
    return true;
}

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The text \xHH (upper-case hex) read back as the byte; `literal` tells whether s held it.
std::string decoded(std::string_view s, bool& literal) {
    std::string out;
    literal = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x' && hex(s[i + 2]) >= 0
            && hex(s[i + 3]) >= 0) {
            out += char(hex(s[i + 2]) * 16 + hex(s[i + 3]));
            i += 3;
            literal = true;
        } else {
            out += s[i];
        }
    }
    return out;
}

// The string as written and read back (`back`) against the original.
void check_string(const std::string& original, const std::string& back) {
    if (valid_utf8(original)) {
        if (back != original) fail("a valid UTF-8 string changed", original);
        return;
    }
    if (back != fived::report::readable_utf8(original))
        fail("an invalid string is not written as readable_utf8", original);
    if (!valid_utf8(back)) fail("readable_utf8 is not valid UTF-8", back);
    bool              inOriginal = false, inBack = false;
    const std::string unescaped = decoded(back, inBack);
    decoded(original, inOriginal);
    if (!inOriginal && unescaped != original)
        fail("decoding \\xHH does not give back the original bytes", original + "\n" + back);
    if (!inBack) fail("an invalid string written without any \\xHH", back);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const int                indent = data[0] % 3 == 0 ? -1 : data[0] % 3 == 1 ? 0 : 2;
    const std::string_view   text(reinterpret_cast<const char*>(data) + 1, size - 1);
    std::vector<std::string> parts;
    for (std::size_t pos = 0;;) {
        const std::size_t z = text.find('\0', pos);
        parts.emplace_back(text.substr(pos, z == std::string_view::npos ? z : z - pos));
        if (z == std::string_view::npos) break;
        pos = z + 1;
    }
    while (parts.size() < 4)
        parts.push_back(parts.back());
    const std::string &file = parts[0], &comment = parts[1], &key = parts[2], &value = parts[3];

    // Shaped like the records and --json objects fived writes.
    json j;
    j["file"]                = file;
    j["exit_code"]           = 2;
    j["headers"]             = json::object({{key, value}});
    j["comments"]            = json::array({comment, value});
    j["errors"]              = json::array({json{{"file", file}, {"message", comment}}});
    j["nested"][key]["deep"] = json::array({json::array({file})});

    const std::string out  = fived::report::json_text(j, indent);
    const json        back = json::parse(out, nullptr, false);
    if (back.is_discarded()) fail("json_text wrote invalid JSON", out);
    if (!valid_utf8(out)) fail("json_text wrote invalid UTF-8", out);
    try {
        if (j.dump(indent) != out) fail("json_text differs from a dump() that succeeds", out);
    } catch (const json::type_error&) { // 316: invalid UTF-8, json_text's own case
    }
    check_string(file, back["file"].get<std::string>());
    check_string(comment, back["comments"][0].get<std::string>());
    check_string(value, back["comments"][1].get<std::string>());
    check_string(file, back["errors"][0]["file"].get<std::string>());
    check_string(comment, back["errors"][0]["message"].get<std::string>());
    check_string(file, back["nested"].begin().value()["deep"][0][0].get<std::string>());
    // The key: one entry, named as the writer promises.
    const json& headers = back["headers"];
    if (headers.size() != 1) fail("the headers object lost its entry", out);
    check_string(key, headers.begin().key());
    check_string(value, headers.begin().value().get<std::string>());
    return 0;
}
