#pragma once
// Built-in variants (RULES.md §6), selectable by the PGN `Board`/`Variant` header.
//
// Unmoved flags: every pawn and brawn, and every king and rook (the recommendation of RULES.md §6
// for all presets; it only matters for castling and double steps). Promotions default to {Q}.

#include <span>
#include <string>
#include <string_view>

#include "movegen/multiverse.h"

namespace fived::movegen {

struct VariantBoard {
    int         l;    // internal timeline index ℓ
    int         t;    // turn
    Color       c;    // board colour
    const char* rows; // 5DFEN rows, without unmoved markers (added by the set-up)
};

struct VariantDef {
    const char*                   name;
    int                           width, height;
    bool                          even;
    std::span<const VariantBoard> boards;
};

// All built-in variants, in a fixed order.
std::span<const VariantDef> builtin_variants();
// Looks a variant up by name, case-insensitively; nullptr if unknown.
const VariantDef* find_variant(std::string_view name);
// Adds the variant's boards to an empty multiverse created with rules matching the variant's
// size and parity, and finishes the set-up.
bool setup_variant(const VariantDef& v, Multiverse& mv, std::string& err);
// The game rules of a variant with the given promotion choices.
GameRules variant_rules(const VariantDef& v);
// The built-in variant whose set-up `start` is exactly (same size, parity and boards, no board
// added), or nullptr. Identifies the `Board` header a record of `start` can use.
const VariantDef* builtin_variant_of(const Multiverse& start);

} // namespace fived::movegen
