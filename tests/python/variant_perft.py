#!/usr/bin/env python3
"""Perft by pydraughts 0.6.7 for English checkers, Russian and Brazilian draughts.

Usage: variant_perft.py <english|russian|brazilian> <depth> [--fen FEN] [--paths | --sets]
                        [--check N]

Prints, for each depth 1..depth, the number of leaf nodes under three counting rules,
the number of distinct positions at that ply and the time taken so far:

  depth  list  paths  sets  positions  seconds

* list  - pydraughts' own move list: one move per entry of `Board.legal_moves()`. pydraughts
          lists every capture *path* (the squares the piece stops on) as its own move, so two
          captures that take the same pieces in a different order, or the same pieces in the
          same order with a different intermediate landing square (a flying king that lands on
          d4 or e5 between two captures on one diagonal), are separate moves. pydraughts does
          not deduplicate its list.
* paths - distinct paths (from, stops..., to). Equal to `list` whenever pydraughts never lists
          the same path twice (it did not in any run here); kept as a check.
* sets  - distinct (from, to, set of captured squares, resulting position): the usual engine
          convention, where captures that differ only in order or in intermediate squares
          are one move.

`--paths` / `--sets` only choose which column is repeated in the final `perft(N) = ...`
line; the default is `list` (pydraughts' semantics). Published counts: English (Aart Bik)
and Brazilian (Rein Halbersma, order-sensitive) are per path, i.e. the `list` column.

The search is breadth-first over distinct positions (a dict Hub FEN -> number of move
sequences reaching it, for each of the three rules), which is memoization by position: each
distinct position at each ply is expanded once. `--check N` replays the first N positions
of every ply through the unmodified `Game.legal_moves()` and `Game.push()` and exits 1 on
any difference from the recording generator used for speed, or from the quiet-leaf
shortcut: at the last ply a position without captures is counted as the number of
pydraughts' one-step moves (`Game.get_possible_moves()`), which is what `legal_moves()`
returns there, without replaying each (`--full-leaves` turns that off).
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from draughts.core.game import Game  # noqa: E402

from variant_common import (VARIANTS, game_from_fen, game_fen, internal_name,  # noqa: E402
                            legal_moves_with_results)


def check(variant, hub, entries):
    """The recorded moves and positions equal pydraughts' own legal_moves() and push()."""
    game = Game(variant, hub)
    moves, caps = game.legal_moves()
    got = [(steps, c if c else [None]) for steps, c, _, _ in entries]
    if got != list(zip(moves, caps)):
        sys.exit(f"check failed: move list differs at {hub}")
    for steps, _, after, _ in entries:
        g = Game(variant, hub)
        g.push(steps)
        if g.get_fen() != after:
            sys.exit(f"check failed: position after {steps} differs at {hub}")


def check_count(variant, hub, n):
    moves, caps = Game(variant, hub).legal_moves()
    if len(moves) != n or any(c != [None] or len(m) != 1 for m, c in zip(moves, caps)):
        sys.exit(f"check failed: quiet leaf shortcut differs at {hub}")


def show_collapsing(variant, game, entries):
    groups = {}
    for steps, caps, after, after_game in entries:
        path = [steps[0][0]] + [x[1] for x in steps]
        groups.setdefault((path[0], path[-1], frozenset(caps), after), []).append(path)
    print(f"#   collapsing: {game_fen(variant, game)}")
    for paths in groups.values():
        if len(paths) > 1:
            print("#     " + " = ".join("x".join(internal_name(variant, sq) for sq in p) for p in paths))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", choices=VARIANTS)
    ap.add_argument("depth", type=int)
    ap.add_argument("--fen", help="start FEN in the variant's notation (default: start position)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--paths", action="store_true", help="final line counts distinct paths")
    group.add_argument("--sets", action="store_true", help="final line counts (from, to, captured set)")
    ap.add_argument("--check", type=int, default=0, metavar="N",
                    help="verify the first N positions of each ply against unmodified pydraughts")
    ap.add_argument("--full-leaves", action="store_true",
                    help="generate the full move list at the last ply too (slower; default counts a quiet "
                         "leaf position's one-step moves directly)")
    ap.add_argument("--show", type=int, default=0, metavar="N",
                    help="print (as # lines) the first N positions whose paths collapse to fewer captured sets")
    args = ap.parse_args()

    variant = args.variant
    root = game_from_fen(variant, args.fen)
    print(f"# pydraughts 0.6.7 perft, variant {variant}")
    print(f"# fen {game_fen(variant, root)}")
    print("# columns: depth list paths sets expanded cpu_seconds")
    print("#   list = pydraughts' move list (one per capture path, no dedup); paths = distinct paths;")
    print("#   sets = distinct (from, to, captured set, result); expanded = distinct positions at ply depth-1")
    sys.stdout.flush()

    start = time.process_time()
    level = {root.get_fen(): [1, 1, 1]}
    dup_paths = dup_sets = shown = 0
    final = None
    for depth in range(1, args.depth + 1):
        totals = [0, 0, 0]
        nxt = {}
        last = depth == args.depth
        for index, (hub, mult) in enumerate(level.items()):
            game = Game(variant, hub)
            if last and not args.full_leaves and not game.board.get_possible_capture_moves([]):
                # Quiet leaf position: pydraughts' legal moves are exactly its one-step moves
                # (get_moves wraps each as a one-step move, no variant filter applies).
                n = len(game.get_possible_moves())
                if index < args.check:
                    check_count(variant, hub, n)
                totals[0] += mult[0] * n
                totals[1] += mult[1] * n
                totals[2] += mult[2] * n
                continue
            entries = legal_moves_with_results(game)
            if index < args.check:
                check(variant, hub, entries)
            seen_paths = {}
            seen_sets = {}
            for steps, caps, after, _ in entries:
                path = (steps[0][0],) + tuple(s[1] for s in steps)
                new_path = path not in seen_paths
                seen_paths[path] = True
                key = (path[0], path[-1], frozenset(caps), after)
                new_set = key not in seen_sets
                seen_sets[key] = True
                add = (mult[0], mult[1] if new_path else 0, mult[2] if new_set else 0)
                totals[0] += add[0]
                totals[1] += add[1]
                totals[2] += add[2]
                if not last:
                    m = nxt.get(after)
                    if m is None:
                        nxt[after] = list(add)
                    else:
                        m[0] += add[0]
                        m[1] += add[1]
                        m[2] += add[2]
            if len(seen_paths) != len(entries):
                dup_paths += 1
            if len(seen_sets) != len(seen_paths):
                dup_sets += 1
                if shown < args.show:
                    shown += 1
                    show_collapsing(variant, game, entries)
        # Positions reached only by moves that the stricter rules drop still carry count 0 there.
        print(f"{depth} {totals[0]} {totals[1]} {totals[2]} {len(level)} {time.process_time() - start:.1f}")
        sys.stdout.flush()
        final = totals
        level = nxt
    print(f"# positions (of all plies expanded) where pydraughts lists a path twice: {dup_paths}")
    print(f"# positions where distinct paths collapse to fewer (from, to, captured set): {dup_sets}")
    column = 1 if args.paths else 2 if args.sets else 0
    name = ("list", "paths", "sets")[column]
    print(f"# perft({args.depth}) = {final[column]} ({name}); CPU time {time.process_time() - start:.1f} s")


if __name__ == "__main__":
    main()
