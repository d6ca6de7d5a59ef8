// Memory of the reader on a big text of variations (issue: a 50 MB file took 2.87 GB). This
// executable replaces the global operator new/delete to follow the live heap, and checks the
// PEAK of live bytes while reading a generated text of about 2 MB, a bound that needs no timing:
//  * load_game() (every command that works on the main line) and check_game_text()
//    (check-notation) keep neither the syntax tree nor the variations: their peak is a fraction
//    of the text;
//  * read_game_tree() (fmt, verify) keeps the merged GameTree and nothing per syntax node: its
//    peak stays under a fixed number of bytes per tree node;
//  * ReadOptions::maxNodes ends a bigger tree with a FILE:LINE:COL error.

#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include <gtest/gtest.h>

#include "movegen/variants.h"
#include "notation/game.h"
#include "notation/reader.h"
#include "notation/writer.h"
#include "tests/notation/tree_gen.h"

namespace {
std::atomic<std::int64_t> g_live{0}, g_peak{0};

void note(std::int64_t delta) {
    const std::int64_t now  = g_live.fetch_add(delta, std::memory_order_relaxed) + delta;
    std::int64_t       peak = g_peak.load(std::memory_order_relaxed);
    while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) { }
}
void* tracked_alloc(std::size_t n) {
    void* p = std::malloc(n ? n : 1);
    if (!p) throw std::bad_alloc();
    note(std::int64_t(malloc_usable_size(p)));
    return p;
}
void* tracked_alloc_aligned(std::size_t n, std::align_val_t a) {
    const std::size_t al = static_cast<std::size_t>(a);
    void*             p  = std::aligned_alloc(al, (n + al - 1) / al * al);
    if (!p) throw std::bad_alloc();
    note(std::int64_t(malloc_usable_size(p)));
    return p;
}
void tracked_free(void* p) {
    if (!p) return;
    note(-std::int64_t(malloc_usable_size(p)));
    std::free(p);
}
} // namespace

void* operator new(std::size_t n) { return tracked_alloc(n); }
void* operator new[](std::size_t n) { return tracked_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return tracked_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return tracked_alloc(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new(std::size_t n, std::align_val_t a) { return tracked_alloc_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return tracked_alloc_aligned(n, a); }
void  operator delete(void* p) noexcept { tracked_free(p); }
void  operator delete[](void* p) noexcept { tracked_free(p); }
void  operator delete(void* p, std::size_t) noexcept { tracked_free(p); }
void  operator delete[](void* p, std::size_t) noexcept { tracked_free(p); }
void  operator delete(void* p, std::align_val_t) noexcept { tracked_free(p); }
void  operator delete[](void* p, std::align_val_t) noexcept { tracked_free(p); }
void  operator delete(void* p, std::size_t, std::align_val_t) noexcept { tracked_free(p); }
void  operator delete[](void* p, std::size_t, std::align_val_t) noexcept { tracked_free(p); }

namespace fived::notation {
namespace {

// The most live heap bytes above the level at the call, while f runs.
template <class F>
std::int64_t peak_in(F&& f) {
    const std::int64_t base = g_live.load();
    g_peak.store(base);
    f();
    return g_peak.load() - base;
}

// About 2 MB of short-form Branched 5DPGN: a main line of 2000 knight moves with two side
// variations of 40 actions before every action of it (162,001 nodes, all distinct).
struct BigText {
    std::string text;
    std::size_t nodes = 0;
};
const BigText& big_text() {
    static const BigText t = [] {
        GameTree                   tree(movegen::Multiverse(movegen::GameRules{}));
        std::string                msg;
        const movegen::VariantDef* v = movegen::find_variant("Standard");
        tree.start                   = movegen::Multiverse(movegen::variant_rules(*v));
        EXPECT_TRUE(movegen::setup_variant(*v, tree.start, msg)) << msg;
        testing_gen::knight_shuffle_tree(tree, 2000, 2, 40);
        return BigText{write_tree(tree, MoveStyle::SHORT), tree.nodes.size()};
    }();
    return t;
}

TEST(ReaderMemory, GeneratedTextIsBig) {
    const BigText& t = big_text();
    EXPECT_EQ(t.nodes, 162'001u);
    EXPECT_GT(t.text.size(), 1'200'000u); // 8 bytes a node
}

TEST(ReaderMemory, MainLineKeepsNoVariation) {
    const BigText&             t = big_text();
    absl::StatusOr<LoadedGame> game;
    const std::int64_t         peak = peak_in([&] { game = load_game(t.text, "big"); });
    ASSERT_TRUE(game.ok()) << game.status();
    EXPECT_EQ(game->mainLine.size(), 2000u);
    EXPECT_EQ(game->doc.nodes.size(), 2001u);
    RecordProperty("peak_bytes", std::to_string(peak));
    // What grows is the main line (its syntax nodes, actions and boards), not the variations:
    // the whole Document took 45 times the text.
    EXPECT_LT(peak, 2 * std::int64_t(t.text.size())) << "peak " << peak << " bytes";
}

TEST(ReaderMemory, CheckKeepsNoTree) {
    const BigText&          t = big_text();
    std::vector<Diagnostic> errors;
    bool                    ok = false;
    const std::int64_t      peak =
        peak_in([&] { ok = check_game_text(t.text, "big", ReadOptions{}, errors); });
    EXPECT_TRUE(ok);
    RecordProperty("peak_bytes", std::to_string(peak));
    EXPECT_LT(peak, std::int64_t(t.text.size())) << "peak " << peak << " bytes";
}

// The GameTree itself: a TreeNode (88 bytes) and the heap blocks of its action and children
// vectors, about 150 bytes a node; nothing else grows with the text.
TEST(ReaderMemory, TreeCostsAFixedAmountPerNode) {
    const BigText&          t = big_text();
    std::vector<Diagnostic> errors;
    std::optional<GameTree> tree;
    const std::int64_t      peak =
        peak_in([&] { tree = read_game_tree(t.text, "big", ReadOptions{}, errors); });
    ASSERT_TRUE(tree) << errors.front().to_string();
    EXPECT_EQ(tree->nodes.size(), t.nodes);
    RecordProperty("peak_bytes", std::to_string(peak));
    EXPECT_LT(peak, std::int64_t(t.nodes) * 180)
        << "peak " << peak << " bytes for " << t.nodes << " nodes";
}

TEST(ReaderMemory, NodeLimitEndsTheReadWithItsPosition) {
    const BigText& t = big_text();
    ReadOptions    opt;
    opt.maxNodes = 1000;
    std::vector<Diagnostic> errors;
    EXPECT_FALSE(read_game_tree(t.text, "big", opt, errors));
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].file, "big");
    EXPECT_GT(errors[0].pos.line, 1);
    EXPECT_EQ(errors[0].cause,
        "the game tree has more than 1000 nodes, the reader's limit (ReadOptions::maxNodes)");
    // The limit is on the tree kept: the main line is read whole.
    const auto game = load_game(t.text, "big", opt);
    EXPECT_TRUE(game.ok()) << game.status();
}

} // namespace
} // namespace fived::notation
