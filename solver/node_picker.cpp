#include "solver/node_picker.h"

#include <algorithm>
#include <utility>

namespace fived::solver {

// A defender node with k = 1 tries the second killer first when its last refutation took fewer
// nodes than the first's. Either refutes as well, but the mate-in-one search after them (the
// refutation's whole cost) can differ twice over: after a defence that leaves the attacker fewer
// checks it probes fewer actions (tools-dead-timeline --at -5: 10,042,954 nodes instead of
// 12,164,683). Searcher::killers_first() records the cost.
std::size_t NodePicker::first_tries(
    const Killers& killers, int ply, bool attacker, int bound, const std::vector<Move>** out) {
    const std::size_t n = killers.first_tries(ply, !attacker || bound == 1, out);
    if (!attacker && bound == 1) {
        const std::uint64_t* cost = killers.cost(ply);
        if (cost[1] && cost[1] < cost[0]) std::swap(out[0], out[1]);
    }
    return n;
}

NodePicker::Stage NodePicker::stage(std::size_t i) const {
    const ActionList::Ref& ref = list_.ref(i);
    if (ref.score == Skipped) return Stage::SKIPPED;
    if (hint_ && action_hint(ref.child) == hint_) return Stage::HINT;
    const std::span<const Move> a = list_.action(i);
    if (killers_.score(ply_, a) > 0) return Stage::KILLER;
    if (attacker_) return ref.check ? Stage::PREFERRED : Stage::REST;
    const bool jumps =
        std::any_of(a.begin(), a.end(), [](const Move& m) { return !m.is_physical(); });
    return jumps ? Stage::REST : Stage::PREFERRED;
}

} // namespace fived::solver
