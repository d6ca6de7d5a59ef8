#pragma once
// A claim: the value of a `[Puzzle "..."]` header read as a direct mate (README.md, "Claims"):
// `mate-in-2`, `mate in two`, `#2`, `White to mate in 2`, `mate-in-N` (unstated length). Shared
// by `fived solve` / `verify` and the Python module.

#include <optional>
#include <string>
#include <string_view>

#include "movegen/types.h"

namespace fived::notation {

struct Claim {
    int                           mateIn = 0; // 0: a mate of unstated length ("mate-in-N")
    std::optional<movegen::Color> side;       // when the claim names the mating side
};

// Reads a Puzzle header value. On a stipulation fived does not solve (helpmate, selfmate,
// ...) or a value it cannot read, returns nullopt with `why` saying so.
std::optional<Claim> parse_claim(std::string_view value, std::string& why);
// parse_claim() for a puzzle with `toMove` to move: a claim naming the other side as the mating
// one is refused too (`why`: "claims that White mates, but Black is to move ...").
std::optional<Claim> check_claim(std::string_view value, movegen::Color toMove, std::string& why);

// "mate in N".
std::string mate_text(int n);

} // namespace fived::notation
