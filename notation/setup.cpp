#include "notation/setup.h"

#include <cctype>
#include <cstdlib>

#include "movegen/movegen.h"
#include "movegen/variants.h"
#include "notation/format.h"
#include "notation/headers.h"
#include "notation/parser.h"

namespace fived::notation {

using namespace movegen;

namespace {

// Parses a Promotions header value: letters separated by commas and/or spaces.
bool parse_promotions(std::string_view value, GameRules& rules) {
    int n = 0;
    for (char ch : value) {
        if (ch == ',' || ch == ' ' || ch == '\t') continue;
        const PieceType pt =
            piece_type_from_letter(char(std::toupper(static_cast<unsigned char>(ch))));
        if (pt == NO_PIECE_TYPE || pt == PAWN || pt == BRAWN || is_royal(pt) || n >= 8)
            return false;
        rules.promotions[std::size_t(n++)] = pt;
    }
    if (n == 0) return false;
    rules.promotionCount = n;
    return true;
}

std::optional<Multiverse> start_position(
    const Document& doc, std::string_view file, Diagnostic& err) {
    // 1. Which set-up: 5DFEN boards if any, else the variant named by Board or Variant.
    const Header*     boardH   = doc.find_header("Board");
    const Header*     variantH = doc.find_header("Variant");
    const VariantDef* variant  = nullptr;
    if (doc.boards.empty()) {
        for (const Header* h : {boardH, variantH}) {
            if (!h || variant) continue;
            if (istarts_with(h->value, "custom")) continue;
            variant = find_variant(h->value);
            if (!variant) {
                err = Diagnostic::at(file, h->valuePos, "unknown variant `" + h->value + "`");
                return std::nullopt;
            }
        }
        if (!variant) {
            const Header* h = boardH ? boardH : variantH;
            if (h && !istarts_with(h->value, "custom")) {
                err = Diagnostic::at(file, h->valuePos, "unknown variant `" + h->value + "`");
                return std::nullopt;
            }
            if (h) {
                err = Diagnostic::at(file, h->valuePos, "a custom board needs 5DFEN boards");
                return std::nullopt;
            }
            variant = find_variant("Standard"); // Shad: Board defaults to Standard
        }
    }

    GameRules rules;
    if (variant) {
        rules = variant_rules(*variant);
    } else {
        rules.width  = doc.width;
        rules.height = doc.height;
        rules.even   = doc.parity == Parity::EVEN;
    }
    if (const Header* h = doc.find_header("Promotions")) {
        if (!parse_promotions(h->value, rules)) {
            err = Diagnostic::at(file, h->valuePos,
                "bad Promotions value `" + h->value + "` (expected letters like Q,R,B,N)");
            return std::nullopt;
        }
    } else {
        // No Promotions header: Q, and every other piece that an `=X` of the record names, in
        // order of appearance (Shad: "other clients have implemented underpromotion";
        // valid/js-underpromotion-3x3 writes `c1=R` without the header). Letters that cannot be
        // promoted to stay out and are reported by the move that names them.
        // The parser lists them (promotionsNamed); a Document built by hand may only hold the
        // moves, which name them in the same order.
        auto add = [&](PieceType pt) {
            if (pt == NO_PIECE_TYPE || pt == PAWN || pt == BRAWN || is_royal(pt)) return;
            const auto end = rules.promotions.begin() + rules.promotionCount;
            if (std::find(rules.promotions.begin(), end, pt) != end) return;
            if (rules.promotionCount >= int(rules.promotions.size())) return;
            rules.promotions[std::size_t(rules.promotionCount++)] = pt;
        };
        for (const PieceType pt : doc.promotionsNamed)
            add(pt);
        for (const Node& n : doc.nodes)
            for (const Move& w : n.action.moves)
                add(w.promotion);
    }
    if (variant && doc.parity != Parity::UNKNOWN && (doc.parity == Parity::EVEN) != variant->even) {
        err = Diagnostic::at(file, boardH ? boardH->valuePos : SourcePos{1, 1},
            "the Timeline header contradicts the variant's timelines");
        return std::nullopt;
    }

    Multiverse  mv(rules);
    std::string msg;
    if (variant) {
        if (!setup_variant(*variant, mv, msg)) {
            err = Diagnostic::at(file, SourcePos{1, 1}, msg);
            return std::nullopt;
        }
        return mv;
    }
    for (const FenBoard& fb : doc.boards) {
        const std::optional<int> l = line_index(fb.line, rules.even);
        if (!l) {
            err = Diagnostic::at(file, fb.linePos,
                "timeline `" + std::string(fb.line.sign ? std::string(1, fb.line.sign) : "")
                    + std::to_string(fb.line.magnitude) + "` does not fit "
                    + (rules.even ? "even" : "odd") + " timelines");
            return std::nullopt;
        }
        if (std::abs(*l) > MaxTimelineIndex) {
            err = Diagnostic::at(file, fb.linePos,
                "timeline `" + std::string(fb.line.sign ? std::string(1, fb.line.sign) : "")
                    + std::to_string(fb.line.magnitude) + "` is beyond the engine's limit: "
                    + "timelines " + line_label(-MaxTimelineIndex, rules.even) + " to "
                    + line_label(MaxTimelineIndex, rules.even));
            return std::nullopt;
        }
        if (!mv.add_initial_board(*l, to_v(fb.turn, fb.colour), fb.grid, msg)) {
            err = Diagnostic::at(file, fb.pos, "5DFEN board: " + msg);
            return std::nullopt;
        }
    }
    if (!mv.finish_setup(msg)) {
        err = Diagnostic::at(file, doc.boards.front().pos, "5DFEN: " + msg);
        return std::nullopt;
    }
    // A starting position in which the side not to move is attacked is invalid (RULES §5.6).
    if (royal_attacked(mv, ~mv.to_move())) {
        err =
            Diagnostic::at(file, doc.boards.front().pos, "5DFEN: the side not to move is in check");
        return std::nullopt;
    }
    return mv;
}

} // namespace

absl::StatusOr<Multiverse> build_start_position(const Document& doc, std::string_view file) {
    Diagnostic                err;
    std::optional<Multiverse> mv = start_position(doc, file, err);
    if (!mv) return error_status(err);
    return std::move(*mv);
}

} // namespace fived::notation
