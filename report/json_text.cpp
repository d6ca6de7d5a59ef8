#include "report/json_text.h"

#include <cstdint>

#include "movegen/text.h"

namespace fived::report {

using movegen::utf8_sequence;

namespace {

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

} // namespace fived::report
