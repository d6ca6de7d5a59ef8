#include "solver/verify.h"

#include <algorithm>
#include <utility>

#include "movegen/action.h"
#include "movegen/actions.h"
#include "movegen/movegen.h"

namespace fived::solver {

using movegen::Move;
using movegen::MoveUndo;
using movegen::Multiverse;

using movegen::TreeNode;

namespace {

struct Walker {
    Multiverse&         mv;
    const SolutionTree& tree;
    std::size_t         maxProblems;
    ActionFormatter     format;
    ProofReport         report;

    void problem(ProofProblem::Kind kind, int node, std::span<const Move> a, std::string detail) {
        if (report.problems.size() >= maxProblems) return;
        ProofProblem p;
        p.kind = kind;
        p.node = node;
        p.action.assign(a.begin(), a.end());
        p.detail = std::move(detail);
        report.problems.push_back(std::move(p));
    }

    // Makes a (undo records in u, which it must find empty); unmake() undoes it.
    void make(std::span<const Move> a, std::vector<MoveUndo>& u) { movegen::do_action(mv, a, u); }
    void unmake(std::vector<MoveUndo>& u) { movegen::undo_action(mv, u); }

    // The one immediately mating answer of a defence node with a group, or null (a problem).
    const std::vector<Move>* group_answer(int c) {
        const TreeNode& d = tree.nodes[std::size_t(c)];
        if (d.children.size() == 1 && tree.nodes[std::size_t(d.children[0])].children.empty())
            return &tree.nodes[std::size_t(d.children[0])].action;
        problem(ProofProblem::Kind::BAD_GROUP, c, d.action,
            "a group of defences needs one answer that mates at once");
        return nullptr;
    }

    // Does `answer` mate, legally, after `defence`? (mv restored)
    bool mates_after(
        std::span<const Move> defence, const std::vector<Move>& answer, std::vector<MoveUndo>& u) {
        bool answered = false;
        make(defence, u);
        movegen::ActionSearch search;
        search.reset_only(mv, answer);
        search.for_each([&](std::span<const Move> a) {
            if (!std::equal(a.begin(), a.end(), answer.begin(), answer.end())) return true;
            answered = movegen::is_checkmate(mv);
            return false;
        });
        unmake(u);
        return answered;
    }

    // Step 3 of walk() at a defender node: each legal defence that is not a child must be
    // declared by a child's group (named in its list, or counted by a list-less group) and be
    // answered by that child's answer; else it is missing. A name in a list that is no legal
    // defence here is a problem too (a misspelt or illegal defence).
    void check_groups(int node, const std::vector<std::vector<Move>>& legal,
        const std::vector<char>& isChild, std::vector<MoveUndo>& u, int& best) {
        const TreeNode& n = tree.nodes[std::size_t(node)];
        struct Group {
            int                      child;
            const std::vector<Move>* answer;
            int                      unnamed; // list-less: defences it may still cover
            std::vector<std::string> names;   // normalised; matched ones are cleared
        };
        std::vector<Group> groups;
        for (const int c : n.children) {
            movegen::DefenceGroup declared;
            if (!movegen::read_group(tree.nodes[std::size_t(c)].comment, declared)) continue;
            const std::vector<Move>* answer = group_answer(c);
            if (!answer) continue;
            Group g{c, answer, 0, {}};
            if (format && !declared.names.empty())
                g.names = std::move(declared.names); // normalised
            else
                g.unnamed = declared.size - 1;
            groups.push_back(std::move(g));
        }
        const bool named = std::any_of(
            groups.begin(), groups.end(), [](const Group& g) { return !g.names.empty(); });
        for (std::size_t i = 0; i < legal.size(); ++i) {
            const std::string text  = named ? normalise_action_text(format(mv, legal[i])) : "";
            Group*            cover = nullptr;
            for (Group& g : groups) {
                auto it = std::find(g.names.begin(), g.names.end(), text);
                if (named && it != g.names.end()) {
                    it->clear(); // named and found
                    if (!cover && !isChild[i]) cover = &g;
                }
            }
            if (isChild[i]) continue;
            if (!cover)
                for (Group& g : groups)
                    if (g.unnamed > 0) {
                        cover = &g;
                        --g.unnamed;
                        break;
                    }
            if (!cover) {
                problem(ProofProblem::Kind::MISSING_DEFENCE, node, legal[i],
                    "defence neither written nor declared by a group");
                continue;
            }
            if (!mates_after(legal[i], *cover->answer, u)) {
                problem(ProofProblem::Kind::MISSING_DEFENCE, node, legal[i],
                    "declared by a group whose answer does not mate after it");
                continue;
            }
            ++report.answeredByGroup;
            best = std::max(best, 1);
        }
        for (const Group& g : groups)
            for (const std::string& name : g.names)
                if (!name.empty())
                    problem(ProofProblem::Kind::BAD_GROUP, g.child, {},
                        "a group names '" + name + "', which is not a legal defence here");
    }

    // Returns the attacker actions on the longest line below node.
    int walk(int node, bool attackerToMove) {
        const TreeNode& n = tree.nodes[std::size_t(node)];
        // 1. The legal actions here (standard order, as the tree's). At an attacker node
        //    with answers, only the answers: each is looked for among the legal actions made of
        //    its own moves (ActionSearch::reset_only), not among the position's others (a wide
        //    position can have millions).
        std::vector<std::vector<Move>> legal;
        movegen::ActionSearch          search;
        if (attackerToMove && !n.children.empty()) {
            for (const int c : n.children) {
                const std::vector<Move>& action = tree.nodes[std::size_t(c)].action;
                search.reset_only(mv, action);
                search.for_each([&](std::span<const Move> a) {
                    if (!std::equal(a.begin(), a.end(), action.begin(), action.end())) return true;
                    legal.emplace_back(a.begin(), a.end());
                    return false;
                });
            }
        } else if (!n.children.empty()) {
            search.reset(mv);
            search.for_each([&](std::span<const Move> a) {
                legal.emplace_back(a.begin(), a.end());
                return true;
            });
        }
        if (n.children.empty()) {
            if (attackerToMove) {
                problem(ProofProblem::Kind::NO_ANSWER, node, {},
                    "the line ends with the attacker to move");
                return 0;
            }
            // A leaf only needs the number of legal actions: counted with the hypercuboid
            // fallback where the depth-first enumeration thrashes (a mated wide position).
            constexpr std::uint64_t Cap   = 1000;
            const std::uint64_t     count = movegen::count_legal_actions(mv, Cap);
            if (count > 0)
                problem(ProofProblem::Kind::NOT_MATE, node, {},
                    "the defender has " + std::string(count >= Cap ? "at least " : "")
                        + std::to_string(count) + " legal action(s)");
            else if (!movegen::in_check_at_turn_start(mv))
                problem(ProofProblem::Kind::NOT_MATE, node, {}, "stalemate");
            else
                ++report.leaves;
            return 0;
        }
        if (!attackerToMove) ++report.defenderNodes;
        // 2. Each child: legal, distinct; recurse. A child is matched to a legal action by its
        //    moves (both in standard order), not by the position it reaches: two actions that
        //    reach the same position are two defences, each to be answered (issue 14);
        //    two children are duplicates only when their actions are equal (NOTATION.md §6).
        std::vector<char>     isChild(legal.size(), 0); // legal[i] is a child's action
        std::vector<MoveUndo> u;
        int                   best = 0;
        for (const int c : n.children) {
            const TreeNode& child = tree.nodes[std::size_t(c)];
            const auto      it    = std::find_if(legal.begin(), legal.end(), [&](const auto& l) {
                return std::equal(l.begin(), l.end(), child.action.begin(), child.action.end());
            });
            if (it == legal.end()) {
                problem(ProofProblem::Kind::ILLEGAL_ACTION, c, child.action, "not a legal action");
                continue;
            }
            char& seen = isChild[std::size_t(it - legal.begin())];
            if (seen) {
                problem(ProofProblem::Kind::DUPLICATE, c, child.action, "duplicate variation");
                continue;
            }
            seen = 1;
            make(child.action, u);
            const int d = walk(c, !attackerToMove) + (attackerToMove ? 1 : 0);
            unmake(u);
            best = std::max(best, d);
        }
        if (attackerToMove) return best;
        // 3. Every legal defence written, or declared by a group and answered by its answer.
        check_groups(node, legal, isChild, u, best);
        return best;
    }
};

} // namespace

ProofReport check_proof(
    Multiverse& mv, const SolutionTree& tree, std::size_t maxProblems, ActionFormatter format) {
    Walker w{mv, tree, maxProblems, format, {}};
    w.report.length   = w.walk(0, true);
    w.report.complete = w.report.problems.empty();
    return w.report;
}

} // namespace fived::solver
