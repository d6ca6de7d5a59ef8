// df-pn (Nagai 2002, ALGORITHMS.md E.4) on the reference search's nodes: Searcher::dfpn and
// Searcher::dfpn_root (search.h).
#include <algorithm>
#include <climits>

#include "movegen/actions.h"
#include "solver/node_picker.h"
#include "solver/search.h"
#include "solver/search_internal.h"

namespace fived::solver {

using detail::AllBounds;

// --- df-pn ---------------------------------------------------------------------------------

namespace {

std::uint32_t sat_add(std::uint32_t a, std::uint32_t b) {
    return std::uint32_t(std::min<std::uint64_t>(std::uint64_t(a) + b, PnInf));
}

} // namespace

Value Searcher::dfpn_root(int r) {
    for (;;) {
        std::uint32_t pn = 1, dn = 1;
        const Value   v = dfpn(true, r, 0, PnInf, PnInf, pn, dn);
        if (v != Value::OPEN) return v;
        if (pn >= PnInf || dn >= PnInf) return Value::ABORT; // saturated: give up, unknown
    }
}

// The children of a listed df-pn node: their proof and disproof numbers (table facts, the
// PnTable's numbers, else 1/1), sorted in the node picker's stage order (table hint, killers,
// checks first at an attacker node, jumps last at a defender node), which breaks ties between
// equal numbers.
void Searcher::dfpn_children(bool orNode, int childBound, int ply, std::uint32_t hint) {
    ActionList& list = lists[std::size_t(ply)];
    NodePicker  picker(list, killers, ply, orNode, hint);
    for (std::size_t i = 0; i < list.size(); ++i) {
        ActionList::Ref& ref = list.ref(i);
        ref.pn = ref.dn = 1;
        if (const std::optional<TTData> e = ctx.tt.probe(ref.child)) {
            if (e->proven <= childBound) {
                ref.pn = 0;
                ref.dn = PnInf;
            } else if (e->disproven >= childBound) {
                ref.pn = PnInf;
                ref.dn = 0;
            }
        }
        if (ref.pn == 1 && ref.dn == 1 && ctx.pnTable)
            ctx.pnTable->probe(ref.child, childBound, ref.pn, ref.dn);
        picker.score(i);
    }
    picker.order();
}

Value Searcher::dfpn(bool orNode, int bound, int ply, std::uint32_t thpn, std::uint32_t thdn,
    std::uint32_t& pnOut, std::uint32_t& dnOut) {
    auto decided = [&](Value v) {
        if (v == Value::YES) {
            pnOut = 0;
            dnOut = PnInf;
        } else if (v == Value::NO) {
            pnOut = PnInf;
            dnOut = 0;
        }
        return v;
    };
    // 1. The exact leaves of the bound are the reference search's.
    if (orNode && bound == 1) return decided(attack(1, ply));
    if (!orNode && bound == 0) return decided(defend(0, ply));
    if (stopped() || !count_node()) return Value::ABORT;
    const Key     key  = mv.key();
    std::uint32_t hint = 0;
    if (const std::optional<TTData> e = ctx.tt.probe(key)) {
        if (e->proven <= bound) return decided(Value::YES);
        if (e->disproven >= bound) return decided(Value::NO);
        hint = e->hint;
    }
    const std::uint64_t nodes0 = totalNodes;
    if (!collect(ply, orNode)) return Value::ABORT;
    ActionList& list = lists[std::size_t(ply)];
    if (list.empty()) {
        if (orNode) {
            ctx.tt.store_disproof(key, AllBounds, 0, 1);
            return decided(Value::NO);
        }
        if (movegen::in_check_at_turn_start(mv)) {
            ctx.tt.store_proof(key, 0, 0, 1);
            return decided(Value::YES);
        }
        ctx.tt.store_disproof(key, AllBounds, 0, 1);
        return decided(Value::NO);
    }
    // 2. The children's numbers (table facts, df-pn numbers, else 1/1) and their order, which
    //    breaks ties between equal numbers.
    const int childBound = orNode ? bound - 1 : bound;
    dfpn_children(orNode, childBound, ply, hint);
    std::span<const std::uint32_t> order = list.ordered();
    // 3. Multiple iterative deepening on the most-proving child.
    for (;;) {
        std::uint32_t pn = orNode ? PnInf : 0, dn = orNode ? 0 : PnInf;
        std::uint32_t second = PnInf;
        std::size_t   best   = SIZE_MAX;
        for (const std::uint32_t i : order) {
            // OR node: pn is the children's smallest pn, dn the sum of their dn; AND node the
            // other way round.
            const ActionList::Ref& ref = list.ref(i);
            std::uint32_t&         low = orNode ? pn : dn;
            std::uint32_t&         sum = orNode ? dn : pn;
            const std::uint32_t    cl  = orNode ? ref.pn : ref.dn;
            sum                        = sat_add(sum, orNode ? ref.dn : ref.pn);
            if (cl < low) {
                second = low;
                low    = cl;
                best   = i;
            } else if (cl < second) {
                second = cl;
            }
        }
        if (pn == 0) {
            if (orNode) killers.set(ply, list.action(best));
            ctx.tt.store_proof(
                key, bound, orNode ? action_hint(list.ref(best).child) : 0, totalNodes - nodes0);
            return decided(Value::YES);
        }
        if (dn == 0) {
            if (!orNode) killers.set(ply, list.action(best));
            ctx.tt.store_disproof(
                key, bound, orNode ? 0 : action_hint(list.ref(best).child), totalNodes - nodes0);
            return decided(Value::NO);
        }
        if (pn >= thpn || dn >= thdn) {
            if (ctx.pnTable) ctx.pnTable->store(key, bound, pn, dn);
            pnOut = pn;
            dnOut = dn;
            return Value::OPEN;
        }
        ActionList::Ref& ref = list.ref(best);
        std::uint32_t    cthpn, cthdn;
        if (orNode) {
            cthpn = std::min(thpn, sat_add(second, 1));
            cthdn =
                std::uint32_t(std::min<std::uint64_t>(std::uint64_t(thdn) - dn + ref.dn, PnInf));
        } else {
            cthdn = std::min(thdn, sat_add(second, 1));
            cthpn =
                std::uint32_t(std::min<std::uint64_t>(std::uint64_t(thpn) - pn + ref.pn, PnInf));
        }
        if (!make(ply, best)) {
            unmake(ply);
            return Value::ABORT;
        }
        std::uint32_t cpn = ref.pn, cdn = ref.dn;
        const Value   v = dfpn(!orNode, childBound, ply + 1, cthpn, cthdn, cpn, cdn);
        unmake(ply);
        if (v == Value::ABORT) return v;
        ref.pn = cpn;
        ref.dn = cdn;
    }
}

} // namespace fived::solver
