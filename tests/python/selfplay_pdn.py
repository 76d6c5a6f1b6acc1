#!/usr/bin/env python3
"""Writes a PDN of random pydraughts self-play games, to test PDN readers (replay_pdn.py, Damiera).

Usage: selfplay_pdn.py <english|russian|brazilian> <games> <seed>

Half the games start from the start position, half from a random king ending ([FEN] tag,
made as in variant_moves.py). Moves are written in the variant's notation in mixed forms:
quiet `a-b`; captures by their ends `axb` when that names one result, otherwise (and at
random anyway) by the full path `axbxc`; Russian/Brazilian captures use `:` at random.
Comments, NAGs and a variation are sprinkled in. Deterministic for a seed.
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from variant_common import (ALGEBRAIC, check_variant, describe_move, game_fen,  # noqa: E402
                            game_from_fen, legal_moves_with_results)
from variant_moves import Collector  # noqa: E402

GAMETYPE = {"english": "21,B,8,8,N1,0", "russian": "25,W,8,8,A0,0", "brazilian": "26,W,8,8,A0,0"}


def move_text(rng, variant, moves, results, index):
    m = moves[index]
    if not m["captured"]:
        return "-".join(m["path"])
    sep = ":" if variant in ALGEBRAIC and rng.random() < 0.4 else "x"
    same_ends = {results[i] for i, o in enumerate(moves)
                 if o["captured"] and o["path"][0] == m["path"][0] and o["path"][-1] == m["path"][-1]}
    if len(m["path"]) > 2 and (len(same_ends) > 1 or rng.random() < 0.5):
        return sep.join(m["path"])
    return sep.join((m["path"][0], m["path"][-1]))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    variant, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    check_variant(variant)
    rng = random.Random(seed)
    first = "B" if variant == "english" else "W"
    for g in range(count):
        fen = None
        if g % 2:
            col = Collector(variant, rng)
            while not col.out:
                col.king_ending()
            fen = next(iter(col.out))
        game = game_from_fen(variant, fen)
        tags = [("Event", f"pydraughts self-play {variant} {seed}/{g + 1}"), ("White", "random"),
                ("Black", "random"), ("GameType", GAMETYPE[variant])]
        if fen:
            tags.append(("FEN", fen))
        words = []
        turn = game_fen(variant, game)[0]
        number = 1
        if turn != first:
            words.append("1...")
        result = "*"
        for ply in range(rng.randint(10, 160)):
            entries = legal_moves_with_results(game)
            if not entries:
                result = ("0-1" if turn == "W" else "1-0") if variant != "english" else \
                         ("1-0" if turn == "B" else "0-1")
                break
            moves = [describe_move(variant, game, s, c, a) for s, c, _, a in entries]
            hubs = [h for _, _, h, _ in entries]
            i = rng.randrange(len(entries))
            if turn == first:
                words.append(f"{number}.")
            words.append(move_text(rng, variant, moves, hubs, i))
            r = rng.random()
            if r < 0.03:
                words.append("{a comment (with parentheses)}")
            elif r < 0.05:
                words.append("$1")
            elif r < 0.06 and len(entries) > 1:
                j = (i + 1) % len(entries)
                words.append(f"({move_text(rng, variant, moves, hubs, j)} {{side line}})")
            if turn != first:
                number += 1
            game = entries[i][3]
            turn = "B" if turn == "W" else "W"
        tags.append(("Result", result))
        for k, v in tags:
            print(f'[{k} "{v}"]')
        print()
        line = ""
        for w in words + [result]:
            if len(line) + len(w) + 1 > 78:
                print(line)
                line = w
            else:
                line = f"{line} {w}" if line else w
        print(line)
        print()


if __name__ == "__main__":
    main()
