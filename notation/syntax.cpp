#include "notation/syntax.h"

namespace fived::notation {

namespace {

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

} // namespace

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return true;
}

std::string Diagnostic::to_string() const {
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + cause;
}

const Header* Document::find_header(std::string_view key) const {
    for (const Header& h : headers)
        if (iequals(h.key, key)) return &h;
    return nullptr;
}

} // namespace fived::notation
