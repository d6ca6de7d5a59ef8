#pragma once
// The start position of a built-in variant, and the actions of random trees of legal play from
// it, for the writer and formatter tests (writer_test.cpp, format_test.cpp).
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "movegen/action.h"
#include "movegen/variants.h"
#include "notation/tree.h"
#include "tests/notation/tree_gen.h"

namespace fived::notation::testing_gen {

inline movegen::Multiverse variant_start(const char* name) {
    const movegen::VariantDef* v = movegen::find_variant(name);
    EXPECT_NE(v, nullptr) << name;
    movegen::Multiverse mv(movegen::variant_rules(*v));
    std::string         msg;
    EXPECT_TRUE(movegen::setup_variant(*v, mv, msg)) << msg;
    return mv;
}

// Calls f(variant, mv, action) for the action of every node of random trees of these variants
// (seeds first..last, at most maxNodes nodes), mv being the position before that action.
template <class F>
inline void for_each_random_action(std::initializer_list<const char*> variants, std::uint64_t first,
    std::uint64_t last, int maxNodes, F&& f) {
    for (const char* variant : variants) {
        for (std::uint64_t seed = first; seed <= last; ++seed) {
            GameTree  tree(variant_start(variant));
            TreeShape shape;
            shape.maxNodes   = maxNodes;
            shape.maxDepth   = 24;
            shape.branchProb = 0.35;
            shape.seed       = seed;
            random_tree(tree, shape);
            for (std::size_t n = 1; n < tree.nodes.size(); ++n) {
                movegen::Multiverse            mv = tree.start.fork();
                std::vector<movegen::MoveUndo> undo;
                for (int on : tree.line(int(n)))
                    if (std::size_t(on) != n)
                        movegen::do_action(mv, tree.nodes[std::size_t(on)].action, undo);
                f(variant, mv, std::span<const movegen::Move>(tree.nodes[n].action));
            }
        }
    }
}

} // namespace fived::notation::testing_gen
