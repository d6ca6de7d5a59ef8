// The frontier split's merge arithmetic (report/shard_frontier.h).
#include "report/shard_frontier.h"

#include <algorithm>

namespace fived::report {

KeyBound key_bound(std::span<const FrontierItem> itemsOfKey, int maxMate) {
    using Res = FrontierItem::Res;
    KeyBound b;
    if (itemsOfKey.empty()) return b;
    if (itemsOfKey.front().rootLevel) {
        const FrontierItem& i = itemsOfKey.front();
        b.mate                = i.res == Res::MATE;
        b.length              = b.mate ? i.mateIn : 0;
        b.excluded            = i.res == Res::MATE ? i.mateIn - 1
                       : i.res == Res::NO_MATE     ? maxMate
                                                   : i.noMateUpTo;
        return b;
    }
    // The key mates within n iff every defence is mated within n - 1: one defence that survives
    // n - 1 (no mate within x there) refutes every n <= x + 1.
    bool allMate = true;
    int  longest = 0, survives = 0;
    for (const FrontierItem& i : itemsOfKey) {
        allMate     = allMate && i.res == Res::MATE;
        longest     = std::max(longest, i.res == Res::MATE ? i.mateIn : 0);
        const int x = i.res == Res::MATE ? i.mateIn - 1
            : i.res == Res::NO_MATE      ? maxMate - 1
                                         : i.noMateUpTo;
        survives    = std::max(survives, x);
    }
    b.mate     = allMate;
    b.length   = allMate ? 1 + longest : 0;
    b.excluded = std::min(maxMate, 1 + survives);
    return b;
}

FrontierAnswer merge_frontier(std::span<const FrontierItem> items, int maxMate) {
    FrontierAnswer a;
    a.excluded  = maxMate;
    int  best   = 0; // the least mate length of a key (0: none)
    bool allOut = true;
    for (std::size_t i = 0; i < items.size();) {
        std::size_t j = i;
        while (j < items.size() && items[j].key == items[i].key)
            ++j;
        const KeyBound b = key_bound(items.subspan(i, j - i), maxMate);
        if (b.mate && (!best || b.length < best)) {
            best  = b.length;
            a.key = items[i].key;
        }
        a.excluded = std::min(a.excluded, b.excluded);
        allOut     = allOut && b.excluded >= maxMate;
        i          = j;
    }
    // Mate in best is the whole answer when every key excludes every shorter mate (a key that
    // mates excludes up to its length - 1 >= best - 1).
    a.mate = best && a.excluded >= best - 1;
    if (a.mate) {
        a.mateIn   = best;
        a.excluded = best - 1;
    } else {
        a.provenMate = best;
        a.key        = best ? a.key : -1;
        a.noMate     = !best && allOut;
    }
    return a;
}

FrontierItem::Res part_result(std::span<const FrontierItem> items) {
    using Res    = FrontierItem::Res;
    bool anyMate = false, open = false;
    for (std::size_t i = 0; i < items.size();) {
        std::size_t j = i;
        while (j < items.size() && items[j].key == items[i].key)
            ++j;
        const auto key     = items.subspan(i, j - i);
        const bool refuted = std::any_of(key.begin(), key.end(),
            [](const FrontierItem& f) { return !f.rootLevel && f.res == Res::NO_MATE; });
        for (const FrontierItem& f : key) {
            anyMate = anyMate || f.res == Res::MATE;
            open    = open || (f.res == Res::UNKNOWN && !refuted);
        }
        i = j;
    }
    return open ? Res::UNKNOWN : anyMate ? Res::MATE : Res::NO_MATE;
}

} // namespace fived::report
