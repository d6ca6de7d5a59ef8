#include "movegen/mate.h"

#include <algorithm>

#include "movegen/movegen.h"

namespace fived::movegen {

bool MateInOneSearch::for_each_mate(Multiverse&    mv,
    absl::FunctionRef<bool(std::span<const Move>)> mate, absl::FunctionRef<bool()> tested) {
    using Verdict = HypercuboidSearch::Verdict;
    stats_        = Stats{};
    return attacker.for_each_cut(mv, [&](std::span<const Move> a, std::vector<int>& keep) {
        if (!tested()) return Verdict::STOP;
        ++stats_.actions;
        // Only an action that gives check can mate; the cheap test first (the existence test
        // builds every board's moves), and such an action is left out alone.
        if (!in_check_at_turn_start(mv)) return Verdict::NEXT;
        if (defender.exists(mv, &escape)) {
            for (const Move& m : escape) {
                const int lo = std::min(m.from.l(), m.to.l()), hi = std::max(m.from.l(), m.to.l());
                for (int l = lo; l <= hi; ++l)
                    keep.push_back(l);
            }
            ++stats_.cuts;
            return Verdict::CUT;
        }
        return mate(a) ? Verdict::NEXT : Verdict::STOP;
    });
}

bool MateInOneSearch::find(Multiverse& mv, std::vector<Move>* key) {
    bool found = false;
    for_each_mate(
        mv,
        [&](std::span<const Move> a) {
            if (key) key->assign(a.begin(), a.end());
            found = true;
            return false;
        },
        [] { return true; });
    return found;
}

} // namespace fived::movegen
