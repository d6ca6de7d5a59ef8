// The problemist format (README "Problemist output"): the text's solution tree with Popeye-style
// markup (problemist_markup(), put in the tree by make_solve_report() before its self-check).
#include "report/writers.h"

namespace fived::report {

const SolveWriter& problemist_solve_writer() {
    static const SolveWriter w{"problemist",
        "the text with Popeye-style markup: key `!` with its threat, a summary comment, `dual` "
        "(--tries: the tries `?` and refutations `!`)",
        true, text_solve_writer().write};
    return w;
}

} // namespace fived::report
