#include "report/json_text.h"

#include <cstdint>

#include "movegen/text.h"

namespace fived::report {

using movegen::utf8_sequence;

namespace {

// Whether readable_utf8(s) is s: valid UTF-8 without the text \x.
bool readable(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence(s, i);
        if (!n || (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'x')) return false;
        i += n;
    }
    return true;
}

// Writes every string of j (values and keys) as readable_utf8 does.
void make_readable(nlohmann::json& j) {
    if (j.is_string()) {
        std::string& s = j.get_ref<std::string&>();
        if (!readable(s)) s = readable_utf8(s);
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
        const std::size_t n = utf8_sequence(s, i);
        if (n && !(s[i] == '\\' && i + 1 < s.size() && s[i + 1] == 'x')) {
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
    // The common case, all valid and no text \x (which dump() writes as \\x), costs one dump;
    // only the others copy the document.
    try {
        std::string text = j.dump(indent);
        if (text.find("\\\\x") == std::string::npos) return text;
    } catch (const nlohmann::json::type_error& e) {
        if (e.id != 316) throw; // 316: invalid UTF-8
    }
    nlohmann::json copy = j;
    make_readable(copy);
    return copy.dump(indent);
}

} // namespace fived::report
