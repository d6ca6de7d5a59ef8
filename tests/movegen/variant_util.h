#pragma once
// The start position of a built-in variant, for the movegen, hypercuboid and allocation tests.
#include <gtest/gtest.h>

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

} // namespace fived::movegen::testing
