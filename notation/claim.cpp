#include "notation/claim.h"

#include <cctype>
#include <charconv>
#include <vector>

namespace fived::notation {

namespace {

// Lower case, '-' and '_' as spaces, split on white space.
std::vector<std::string> claim_words(std::string_view v) {
    std::vector<std::string> words;
    std::string              w;
    for (char ch : v) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isspace(c) || c == '-' || c == '_') {
            if (!w.empty()) words.push_back(std::move(w));
            w.clear();
        } else {
            w += char(std::tolower(c));
        }
    }
    if (!w.empty()) words.push_back(std::move(w));
    return words;
}

// A mate length: digits, a number word, or "n" / "?" for an unstated length (0); -1 if none.
int claim_length(std::string_view w) {
    static constexpr const char* Words[] = {"one", "two", "three", "four", "five", "six", "seven",
        "eight", "nine", "ten", "eleven", "twelve"};
    if (w == "n" || w == "?") return 0;
    for (int i = 0; i < 12; ++i)
        if (w == Words[i]) return i + 1;
    int n                = -1;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), n);
    if (ec != std::errc{} || end != w.data() + w.size() || n < 1 || n > 60) return -1;
    return n;
}

// What kind of stipulation fived does not solve a value names, or nullptr.
const char* unsupported_kind(const std::vector<std::string>& words) {
    for (const std::string& w : words) {
        if (w.starts_with("help") || w.starts_with("h#") || w.starts_with("h="))
            return "a helpmate";
        if (w.starts_with("self") || w.starts_with("s#") || w.starts_with("s="))
            return "a selfmate";
        if (w.starts_with("reflex") || w.starts_with("r#") || w.starts_with("r="))
            return "a reflexmate";
        if (w.starts_with("ser") || w.starts_with("series")) return "a series-mover";
        if (w.starts_with("stale") || w.starts_with("=")) return "a stalemate stipulation";
        if (w.starts_with("softmate") || w.starts_with("soft")) return "a softmate stipulation";
        if (w.starts_with("draw") || w.starts_with("win") || w.starts_with("+"))
            return "a study (win or draw)";
    }
    return nullptr;
}

} // namespace

std::optional<Claim> parse_claim(std::string_view value, std::string& why) {
    std::vector<std::string> w = claim_words(value);
    Claim                    c;
    std::size_t              i = 0;
    // An optional side: "white", "black", "w", "b", then an optional "to".
    if (i < w.size() && (w[i] == "white" || w[i] == "w" || w[i] == "black" || w[i] == "b")) {
        c.side = w[i][0] == 'w' ? movegen::WHITE : movegen::BLACK;
        ++i;
        if (i < w.size() && w[i] == "to") ++i;
    }
    if (i < w.size() && w[i] == "direct") ++i;
    int n = -1;
    if (i < w.size() && w[i].size() > 1 && w[i][0] == '#') { // #2
        n = claim_length(std::string_view(w[i]).substr(1));
        ++i;
    } else if (i + 1 < w.size() && w[i] == "#") { // # 2
        n = claim_length(w[i + 1]);
        i += 2;
    } else if (i < w.size()
        && (w[i] == "mate" || w[i] == "mates" || w[i] == "checkmate" || w[i] == "checkmates")) {
        ++i; // mate in 2, mate-in-2, Mate-In-2, mates in two, mate 2
        if (i < w.size() && w[i] == "in") ++i;
        if (i < w.size()) n = claim_length(w[i++]);
    }
    // An optional unit: "moves", "move", "actions", "action", "turns", "turn".
    if (n >= 0 && i < w.size()
        && (w[i] == "move" || w[i] == "moves" || w[i] == "action" || w[i] == "actions"
            || w[i] == "turn" || w[i] == "turns"))
        ++i;
    if (n >= 0 && i == w.size()) {
        c.mateIn = n;
        return c;
    }
    if (const char* kind = unsupported_kind(w))
        why = std::string(kind) + "; fived solves direct mates only (mate-in-N, mate in N, #N)";
    else
        why = "not a stipulation fived reads (mate-in-N, mate in N, #N, with N from 1 to 60)";
    return std::nullopt;
}

std::optional<Claim> check_claim(std::string_view value, movegen::Color toMove, std::string& why) {
    std::optional<Claim> c = parse_claim(value, why);
    if (c && c->side && *c->side != toMove) {
        why = std::string("claims that ") + (*c->side == movegen::WHITE ? "White" : "Black")
            + " mates, but " + (toMove == movegen::WHITE ? "White" : "Black")
            + " is to move at the puzzle position";
        return std::nullopt;
    }
    return c;
}

std::string mate_text(int n) { return "mate in " + std::to_string(n); }

} // namespace fived::notation
