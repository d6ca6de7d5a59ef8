#include "cli/json_text.h"

#include <cstdint>

namespace fived::cli {

namespace {

// Length of the valid UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), 0 if the byte does not start one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
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

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence(s, i);
        if (!n) return false;
        i += n;
    }
    return true;
}

// Makes every string of j (values and keys) valid UTF-8.
void make_readable(nlohmann::json& j) {
    if (j.is_string()) {
        std::string& s = j.get_ref<std::string&>();
        if (!valid_utf8(s)) s = readable_utf8(s);
    } else if (j.is_array()) {
        for (nlohmann::json& e : j)
            make_readable(e);
    } else if (j.is_object()) {
        nlohmann::json fixed = nlohmann::json::object();
        for (auto& [k, v] : j.items()) {
            make_readable(v);
            fixed[readable_utf8(k)] = std::move(v);
        }
        j = std::move(fixed);
    }
}

} // namespace

std::string readable_utf8(std::string_view s) {
    static constexpr char Hex[] = "0123456789ABCDEF";
    std::string           out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t n = utf8_sequence(s, i)) {
            out.append(s.substr(i, n));
            i += n;
        } else {
            const auto b = static_cast<std::uint8_t>(s[i++]);
            out += "\\x";
            out += Hex[b >> 4];
            out += Hex[b & 15];
        }
    }
    return out;
}

std::string json_text(const nlohmann::json& j, int indent) {
    // The common case, all valid, costs one dump; only a failed one copies the document.
    try {
        return j.dump(indent);
    } catch (const nlohmann::json::type_error& e) {
        if (e.id != 316) throw; // 316: invalid UTF-8
    }
    nlohmann::json copy = j;
    make_readable(copy);
    return copy.dump(indent);
}

} // namespace fived::cli
