#!/usr/bin/env python3
"""An independent move generator (written from the rules, not from pydraughts) to check
pydraughts' lists, e.g. the output of variant_moves.py.

Usage: variant_rules_check.py <english|russian|brazilian> < positions.jsonl

Reads `{"fen", "moves"}` lines (variant_moves.py's format), generates the legal moves
itself and prints every position where the two differ. Rules implemented:

* english: men move and capture forward only, kings one square any way; captured men and
  kings alike; capture is compulsory, any capture may be chosen but must be completed; a
  man that reaches the last row is crowned and the move ends.
* russian: men capture backwards too; flying kings; captured pieces stay on the board
  until the move is over (no piece jumped twice, they block); a man reaching the last row
  during a capture is crowned at once and goes on capturing as a king; no majority rule,
  but a king must land on a square from which it can capture again, if there is one.
* brazilian: international rules on 8x8: as russian, but the capture taking the most
  pieces is compulsory (kings count as one), and a man that passes the last row during a
  capture stays a man (crowned only if the move ends there).

Exits 1 if any position differs.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from variant_common import (ALGEBRAIC, canonical_fen, name_to_number, number_to_name,  # noqa: E402
                            file_rank_to_number, name_sort_key)

DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


def number_to_fr(variant, n):
    for r in range(8):
        for f in range(8):
            if (f + r) % 2 == 0 and file_rank_to_number(variant, f, r) == n:
                return f, r
    raise ValueError(n)


def parse(variant, fen):
    fen = canonical_fen(variant, fen)
    turn, w, b = fen.split(":")
    pieces = {}
    for colour, part in (("W", w[1:]), ("B", b[1:])):
        for tok in filter(None, part.split(",")):
            king = tok[0] == "K"
            pieces[number_to_fr(variant, name_to_number(variant, tok[1:] if king else tok))] = (colour, king)
    return turn, pieces


def generate(variant, turn, pieces):
    fwd = 1 if turn == "W" else -1
    crown = 7 if turn == "W" else 0
    flying = variant in ALGEBRAIC

    def on(f, r):
        return 0 <= f < 8 and 0 <= r < 8

    def king_dirs(sq, king):
        if king or variant in ALGEBRAIC:
            return DIRS
        return [d for d in DIRS if d[1] == fwd]

    def single_captures(sq, king, taken):
        """[(captured square, [landing squares])] for one jump from sq."""
        out = []
        for df, dr in (DIRS if (king or variant in ALGEBRAIC) else [d for d in DIRS if d[1] == fwd]):
            f, r = sq[0] + df, sq[1] + dr
            if king and flying:
                while on(f, r) and (f, r) not in pieces:
                    f, r = f + df, r + dr
            if not on(f, r) or (f, r) not in pieces or (f, r) in taken or pieces[(f, r)][0] == turn:
                continue
            victim = (f, r)
            lands = []
            f, r = f + df, r + dr
            while on(f, r) and (f, r) not in pieces:
                lands.append((f, r))
                if not (king and flying):
                    break
                f, r = f + df, r + dr
            if lands:
                out.append((victim, lands))
        return out

    moves = []

    def extend(start, sq, king, path, taken, crowned):
        # the moving piece has left `start`; treat it as empty
        caps = single_captures(sq, king, taken)
        if not caps:
            moves.append((tuple(path), tuple(taken), crowned))
            return
        for victim, lands in caps:
            options = []
            for land in lands:
                k2, c2, stop = king, crowned, False
                if not king and land[1] == crown:
                    if variant == "english":
                        k2, c2, stop = True, True, True
                    elif variant == "russian":
                        k2, c2 = True, True
                options.append((land, k2, c2, stop))
            if variant == "russian" and king:
                cont = [o for o in options if single_captures(o[0], o[1], taken + [victim])]
                if cont:
                    options = cont
            for land, k2, c2, stop in options:
                if variant == "brazilian" and not king and land[1] == crown:
                    # crowned only if the capture ends here
                    if single_captures(land, False, taken + [victim]):
                        extend(start, land, False, path + [land], taken + [victim], False)
                    else:
                        moves.append((tuple(path + [land]), tuple(taken + [victim]), True))
                    continue
                if stop:
                    moves.append((tuple(path + [land]), tuple(taken + [victim]), c2))
                else:
                    extend(start, land, k2, path + [land], taken + [victim], c2)

    own = [(sq, k) for sq, (c, k) in sorted(pieces.items(), key=lambda x: (x[0][1], x[0][0])) if c == turn]
    for sq, king in own:
        piece = pieces.pop(sq)
        if single_captures(sq, king, []):
            extend(sq, sq, king, [sq], [], False)
        pieces[sq] = piece
    if moves:
        if variant == "brazilian":
            best = max(len(m[1]) for m in moves)
            moves = [m for m in moves if len(m[1]) == best]
        return moves
    for sq, king in own:
        for df, dr in (DIRS if king else [d for d in DIRS if d[1] == fwd]):
            f, r = sq[0] + df, sq[1] + dr
            while on(f, r) and (f, r) not in pieces:
                moves.append(((sq, (f, r)), (), (not king and r == crown)))
                if not (king and flying):
                    break
                f, r = f + df, r + dr
    return moves


def name(variant, sq):
    return number_to_name(variant, file_rank_to_number(variant, *sq))


def main():
    variant = sys.argv[1]
    bad = 0
    total = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        obj = json.loads(line)
        total += 1
        turn, pieces = parse(variant, obj["fen"])
        mine = sorted((tuple(name(variant, s) for s in p),
                       tuple(sorted((name(variant, s) for s in c), key=lambda n: name_sort_key(variant, n))),
                       cr) for p, c, cr in generate(variant, turn, pieces))
        theirs = sorted((tuple(m["path"]), tuple(m["captured"]), m["crowned"]) for m in obj["moves"])
        if mine != theirs:
            bad += 1
            if bad <= 20:
                print(f"DIFF {obj['fen']}")
                print(f"  only pydraughts: {[m for m in theirs if m not in mine]}")
                print(f"  only here:       {[m for m in mine if m not in theirs]}")
    print(f"{variant}: {total} positions, {bad} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
