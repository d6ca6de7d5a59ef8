#pragma once
// Which worker of a split searches which child (Searcher::split(), split.cpp). The remaining
// children, positions 0 .. n - 1 in the picker's order, are cut into one block of consecutive
// positions per worker; a worker takes its block's positions from the front, and when its block
// is empty takes the back half of the largest block left (the whole of a block of one), until
// every block is empty. Each position is taken exactly once. Data only: the caller serialises
// take() (split() holds a mutex). How the walkers of a wide node share its blocks of positions
// (BlockClaims, stream_split()). And the order in which the shares of a class walk split over
// the threads are taken (both_ends(), stream_split()).

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fived::solver {

class SplitBlocks {
public:
    // Positions [0, n) in `workers` blocks (workers >= 1) of sizes differing by at most one,
    // block w for worker w. The storage is kept: no allocation once it has held as many blocks.
    void reset(std::size_t n, std::size_t workers) {
        blocks.resize(workers);
        for (std::size_t w = 0; w < workers; ++w)
            blocks[w] = {n * w / workers, n * (w + 1) / workers};
    }
    // Worker w's next position, in `pos`; false when every block is empty. `fresh` is set when
    // the position starts a block the worker took from another (its neighbour is elsewhere).
    bool take(std::size_t w, std::size_t& pos, bool& fresh) {
        Block& b = blocks[w];
        if (b.begin == b.end) {
            std::size_t largest = w;
            for (std::size_t o = 0; o < blocks.size(); ++o)
                if (blocks[o].size() > blocks[largest].size()) largest = o;
            Block& from = blocks[largest];
            if (from.begin == from.end) return false;
            const std::size_t mid = from.begin + from.size() / 2;
            b                     = {mid, from.end};
            from.end              = mid;
            fresh                 = true;
        }
        pos = b.begin++;
        return true;
    }

private:
    struct Block {
        std::size_t begin = 0, end = 0;
        std::size_t size() const { return end - begin; }
    };
    std::vector<Block> blocks;
};

// The blocks of a wide node's walk that several walkers walk in the same order (stream_split()):
// each block is searched by the first walker to reach it; the others pass it. A walker reaches
// block b only after every block before it, each of which it claimed or found claimed, so the
// claimed blocks are always 0 .. n - 1: one counter holds them. A walker alone claims every
// block (the serial search), one that starts late passes what the others took and claims the
// next, and none waits for another at the end for more than one block.
class BlockClaims {
public:
    enum class Claim : std::uint8_t {
        MINE,  // the first walker at the block: it searches it
        TAKEN, // another walker's
        GAP    // a block before it is unclaimed: this walker skipped one (a walk that differs)
    };
    // A walker arrives at block b, having passed blocks 0 .. b - 1.
    Claim claim(std::uint64_t b) {
        std::uint64_t was = b;
        if (claimed.compare_exchange_strong(was, b + 1, std::memory_order_relaxed))
            return Claim::MINE;
        return was > b ? Claim::TAKEN : Claim::GAP;
    }

private:
    std::atomic<std::uint64_t> claimed{0}; // blocks 0 .. claimed - 1 have a walker
};

// The share a split of a class walk into `parts` patterns (Searcher::stream_split()) searches as
// its `taken`-th: from both ends in turn (0, parts - 1, 1, parts - 2, ...), each share once. The
// first patterns pass on the boards ahead of the present and are the quickest to walk (and where
// the node mates they hold the mates made on fewest boards); the last move on all of them and
// hold the most actions: taken last, they ended the split alone (cwmtt-silly --at -5 --mate 3,
// two threads: one thread searched the last 1.2 s of 3.6 s by itself).
constexpr int both_ends(int taken, int parts) {
    return taken % 2 == 0 ? taken / 2 : parts - 1 - taken / 2;
}

} // namespace fived::solver
