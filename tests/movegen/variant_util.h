#pragma once
// The start position of a built-in variant, for the movegen, hypercuboid and allocation tests,
// and the random generator of the random-game tests.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "movegen/multiverse.h"
#include "movegen/variants.h"

namespace fived::movegen::testing {

inline Multiverse variant_start(const char* name) {
    const VariantDef* v = find_variant(name);
    EXPECT_NE(v, nullptr) << name;
    Multiverse  mv(variant_rules(*v));
    std::string err;
    EXPECT_TRUE(setup_variant(*v, mv, err)) << err;
    return mv;
}

// The xorshift64 generator of the random-game tests: deterministic, seeded by the test.
struct XorShift {
    std::uint64_t state;
    std::uint64_t operator()() {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    }
};

} // namespace fived::movegen::testing
