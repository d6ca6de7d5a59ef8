#!/usr/bin/env python3
"""Writes a big Branched 5DPGN file of variations from the Standard start, for measuring the
memory and time the reader needs (README: "Reading big files").

Every action is one knight move, legal by construction: White's knights stay on ranks 1-4 and
Black's on ranks 5-8, so no knight ever attacks a king or captures, and the pawns never move.
The tree is a main line; at each node of it `--sides` side variations of `--length` actions
branch off (every one with a first move different from its siblings'), and every node of a side
variation has `--sides` nested variations of `--length` actions in turn, down to `--levels`
levels. The main line grows until the file reaches `--bytes`. Moves are written with their
source square (`Ng1f3`), or in full (`(0T1)Ng1f3`) with `--full`. Deterministic for a seed.

    scripts/gen_variations.py --bytes 50000000 > big.5dpgn
    /usr/bin/time -v build/ci/cli/fived check-notation big.5dpgn
"""

import argparse
import random
import sys

FILES = "abcdefgh"
JUMPS = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def square(s):
    return FILES[s % 8] + str(s // 8 + 1)


class Position:
    """Where the four knights stand; squares are rank * 8 + file."""

    def __init__(self):
        self.knights = [[1, 6], [57, 62]]  # White b1 g1, Black b8 g8

    def moves(self, colour):
        lo, hi = (0, 3) if colour == 0 else (4, 7)
        # Rank 1 / rank 8 are free only where a knight started; ranks 2 and 7 hold pawns.
        home = {1, 6} if colour == 0 else {57, 62}
        pawns = 1 if colour == 0 else 6
        own = set(self.knights[colour])
        out = []
        for i, s in enumerate(self.knights[colour]):
            f, r = s % 8, s // 8
            for df, dr in JUMPS:
                nf, nr = f + df, r + dr
                if not (0 <= nf < 8 and lo <= nr <= hi) or nr == pawns:
                    continue
                t = nr * 8 + nf
                if nr in (0, 7) and t not in home:
                    continue
                if t in own:
                    continue
                out.append((i, s, t))
        return out


class Writer:
    def __init__(self, out, full):
        self.out = out
        self.full = full
        self.size = 0

    def put(self, s):
        self.out.write(s)
        self.size += len(s)


def move_text(ply, colour, s, t, full):
    # ply counts actions from the start; turn n's boards are T n on the single timeline 0.
    board = "(0T%d)" % (ply // 2 + 1) if full else ""
    return board + "N" + square(s) + square(t)


def serial(ply, full_serial):
    turn, colour = ply // 2 + 1, "wb"[ply % 2]
    if full_serial:
        return "%d%s. " % (turn, colour)
    return "%d. " % turn if colour == "w" else "/ "


def write_line(w, pos, ply, length, level, args, rng, first_serial):
    """Writes a line of `length` actions from `pos` at `ply` (pos is restored). Before every
    action of it except the first, `args.sides` nested variations when `level` allows."""
    made = []
    need_serial = first_serial
    for k in range(length):
        colour = ply % 2
        moves = pos.moves(colour)
        rng.shuffle(moves)
        if not moves:
            break
        main = moves[0]
        if k > 0 and level < args.levels:
            for alt in moves[1 : 1 + args.sides]:
                w.put("(")
                i, s, t = alt
                pos.knights[colour][i] = t
                w.put(serial(ply, True) + move_text(ply, colour, s, t, w.full) + " ")
                write_line(w, pos, ply + 1, args.length - 1, level + 1, args, rng, False)
                pos.knights[colour][i] = s
                w.put(")\n")
            need_serial = need_serial or args.sides > 0
        i, s, t = main
        w.put(serial(ply, need_serial) + move_text(ply, colour, s, t, w.full) + " ")
        need_serial = False
        pos.knights[colour][i] = t
        made.append((colour, i, s))
        ply += 1
    for colour, i, s in reversed(made):
        pos.knights[colour][i] = s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bytes", type=int, default=10_000_000, help="approximate size of the file")
    ap.add_argument("--sides", type=int, default=2, help="variations at each branching node")
    ap.add_argument("--length", type=int, default=30, help="actions of a side variation")
    ap.add_argument("--levels", type=int, default=2, help="nesting depth of side variations")
    ap.add_argument("--full", action="store_true", help="write moves in full, (0T1)Ng1f3")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    w = Writer(sys.stdout, args.full)
    w.put('[Board "Standard"]\n[Event "generated variations"]\n')
    pos = Position()
    ply = 0
    made = []
    # The main line: level 0, its side variations are level 1.
    while w.size < args.bytes and ply < 15000:
        colour = ply % 2
        moves = pos.moves(colour)
        rng.shuffle(moves)
        main = moves[0]
        for alt in moves[1 : 1 + args.sides] if args.levels > 0 else []:
            i, s, t = alt
            w.put("(")
            pos.knights[colour][i] = t
            w.put(serial(ply, True) + move_text(ply, colour, s, t, w.full) + " ")
            write_line(w, pos, ply + 1, args.length - 1, 1, args, rng, False)
            pos.knights[colour][i] = s
            w.put(")\n")
        i, s, t = main
        w.put(serial(ply, True) + move_text(ply, colour, s, t, w.full) + "\n")
        pos.knights[colour][i] = t
        made.append((colour, i, s))
        ply += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
