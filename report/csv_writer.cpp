// The csv format of solve (README "fived solve"): the keys and every defence of the solution
// with the attacker's answer, one row each, as RFC 4180 comma-separated values (LF line ends).
#include <ostream>
#include <string>
#include <vector>

#include "report/writers.h"

namespace fived::report {

namespace {

// A field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, quote or line end.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + '"';
}

void row(std::ostream& out, const std::string& key, const std::string& defence,
    const std::string& answer) {
    out << csv_field(key) << ',' << csv_field(defence) << ',' << csv_field(answer) << '\n';
}

// Header `key,defence,answer`; with the solution's tree, a row per key and defence (the solver's
// tree: every defence, grouped or not; a key that mates at once has one row without defence);
// without a tree (no mate, a limit, a tree too large), a row per key found.
void write_solve_csv(const SolveReport& rep, std::ostream& out) {
    const solver::SolveResult& r = rep.r;
    out << "key,defence,answer\n";
    if (!r.treeBuilt) {
        for (const std::string& k : rep.keys)
            row(out, k, "", "");
        return;
    }
    const solver::SolutionTree&    t    = r.tree;
    const std::vector<std::string> text = action_texts(*rep.root, t);
    for (const int k : t.nodes[0].children) {
        const std::vector<int>& defences = t.nodes[std::size_t(k)].children;
        if (defences.empty()) row(out, text[std::size_t(k)], "", "");
        for (const int d : defences) {
            const std::vector<int>& answers = t.nodes[std::size_t(d)].children;
            row(out, text[std::size_t(k)], text[std::size_t(d)],
                answers.empty() ? "" : text[std::size_t(answers[0])]);
        }
    }
}

} // namespace

const SolveWriter& csv_solve_writer() {
    static const SolveWriter w{"csv",
        "the keys and defences with their answers, one row each (CSV)", false, &write_solve_csv};
    return w;
}

} // namespace fived::report
