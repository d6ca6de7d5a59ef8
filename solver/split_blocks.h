#pragma once
// Which worker of a split searches which child (Searcher::split(), split.cpp). The remaining
// children, positions 0 .. n - 1 in the picker's order, are cut into one block of consecutive
// positions per worker; a worker takes its block's positions from the front, and when its block
// is empty takes the back half of the largest block left (the whole of a block of one), until
// every block is empty. Each position is taken exactly once. Data only: the caller serialises
// take() (split() holds a mutex).

#include <cstddef>
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

} // namespace fived::solver
