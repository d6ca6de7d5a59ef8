#include "notation/syntax.h"

namespace fived::notation {

std::string Diagnostic::to_string() const {
    return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) + ": " + cause;
}

const Header* Document::find_header(std::string_view key) const {
    for (const Header& h : headers)
        if (iequals(h.key, key)) return &h;
    return nullptr;
}

} // namespace fived::notation
