#include "solver/node_picker.h"

#include <algorithm>

namespace fived::solver {

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
