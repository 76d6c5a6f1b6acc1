#!/usr/bin/env python3
"""Reference legal-move lists by pydraughts 0.6.7 for English, Russian and Brazilian draughts.

Usage: variant_moves.py <english|russian|brazilian> <count> <seed>

Prints `count` distinct positions, one JSON object a line:

  {"fen": F, "moves": [{"path": [...], "captured": [...], "crowned": bool}, ...]}

* fen: the variant's own FEN, pieces in square-number order, kings prefixed `K`, first
  letter = side to move.
  - english: numbers 1-32 as English players number them (1 = b8 ... 4 = h8, 5 = a7,
    29 = a1, 32 = g1 with White at the bottom); Black starts on 1-12 and moves first:
    start `B:W21,22,...,32:B1,2,...,12`.
  - russian / brazilian: algebraic squares, a1 at White's lower left, White first:
    start `W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8`.
* moves: pydraughts' legal moves in the order it lists them, each as
  - path: the squares the piece stands on, start to end (two for a quiet move or single
    capture; one more per further capture; a flying king's path gives the square it
    stopped on after each capture);
  - captured: the captured squares, sorted (english numerically; algebraic by name, i.e.
    by file, then rank);
  - crowned: the moving piece was a man and is a king at the end of the move.

How pydraughts counts captures (checked in its source, draughts/core/game.py get_moves and
legal_moves): it enumerates every capture path jump by jump, so a capture that takes the
same pieces in a different order is a separate move, and so is one with the same captures
in the same order but a different intermediate landing square of a flying king. It does
NOT deduplicate: every entry here is one entry of pydraughts' list, and in all runs no path
occurred twice (the summary says if one ever does). Two entries may therefore share start,
end and captured set; the summary counts the positions where that happens. An engine that
lists (from, to, captured set) moves must collapse those to compare.

Positions: random middlegame positions from random games from the start position, sparse
king endings (random positions with several kings, then a few random moves), random
positions built around a long capture (a random chain of 3-7 jumps for a man or a king,
flying for Russian/Brazilian, plus random other pieces) and random dense positions. All are
"legal-looking": no man on the row where it would crown, at most 12 pieces a side, and the
side to move has a legal move. Deterministic for a seed (random.Random(seed)).

A summary goes to stderr: positions with kings, with captures, with a capture of >= 3
pieces, the longest capture, and counts of special cases.
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from variant_common import (ALGEBRAIC, VARIANTS, check_variant, describe_move,  # noqa: E402
                            file_rank_to_number, game_fen, game_from_fen, legal_moves_with_results,
                            number_to_name, canonical_fen)

DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))
DARK = [(f, r) for r in range(8) for f in range(8) if (f + r) % 2 == 0]


def crown_rank(colour):
    return 7 if colour == "W" else 0


def forward(colour):
    return 1 if colour == "W" else -1


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def make_fen(variant, turn, pieces):
    """pieces: {(f, r): (colour, king)} -> canonical variant FEN."""
    sides = {"W": [], "B": []}
    for (f, r), (colour, king) in pieces.items():
        sides[colour].append((file_rank_to_number(variant, f, r), king))
    parts = [turn]
    for colour in "WB":
        parts.append(colour + ",".join(("K" if k else "") + number_to_name(variant, n)
                                       for n, k in sorted(sides[colour])))
    return canonical_fen(variant, ":".join(parts))


def legal_looking(pieces):
    count = {"W": 0, "B": 0}
    for (f, r), (colour, king) in pieces.items():
        count[colour] += 1
        if not king and r == crown_rank(colour):
            return False
    return 1 <= count["W"] <= 12 and 1 <= count["B"] <= 12


def add_random_pieces(rng, pieces, colour, n, king_prob, forbidden=()):
    free = [sq for sq in DARK if sq not in pieces and sq not in forbidden]
    rng.shuffle(free)
    have = sum(1 for c, _ in pieces.values() if c == colour)
    for sq in free[:max(0, min(n, 12 - have))]:
        king = rng.random() < king_prob
        if sq[1] == crown_rank(colour):
            king = True
        pieces[sq] = (colour, king)


class Collector:
    def __init__(self, variant, rng):
        self.variant = variant
        self.rng = rng
        self.out = {}  # fen -> moves, in insertion order
        self.stats = {"kings": 0, "captures": 0, "long": 0, "max_capture": 0, "king_captures": 0,
                      "king_multi": 0, "crowned": 0, "crowned_mid_capture": 0,
                      "passed_crown_row_uncrowned": 0, "man_takes_king": 0, "collapsing": 0,
                      "duplicate_paths": 0}

    def moves_of(self, game):
        entries = legal_moves_with_results(game)
        return entries, [describe_move(self.variant, game, s, c, a) for s, c, _, a in entries]

    def add(self, game, entries=None, moves=None):
        """Record the position of `game` if new and with moves. Returns True if added."""
        fen = game_fen(self.variant, game)
        if fen in self.out:
            return False
        if moves is None:
            entries, moves = self.moves_of(game)
        if not moves:
            return False
        self.out[fen] = moves
        self.tally(game, fen, entries, moves)
        return True

    def rank_of(self, name):
        if self.variant in ALGEBRAIC:
            return int(name[1]) - 1
        return 7 - (int(name) - 1) // 4

    def tally(self, game, fen, entries, moves):
        st = self.stats
        turn = fen[0]
        if "K" in fen:
            st["kings"] += 1
        caps = [m for m in moves if m["captured"]]
        if caps:
            st["captures"] += 1
            longest = max(len(m["captured"]) for m in caps)
            st["max_capture"] = max(st["max_capture"], longest)
            if longest >= 3:
                st["long"] += 1
        board = game.board
        king_cap = king_multi = crowned = mid = passed = takes_king = False
        for (steps, c, _, _), m in zip(entries, moves):
            piece = board.searcher.get_piece_by_position(steps[0][0])
            if c and piece.king:
                king_cap = True
                king_multi = king_multi or len(c) >= 2
            if c and not piece.king and any(board.searcher.get_piece_by_position(x).king for x in c):
                takes_king = True
            if m["crowned"]:
                crowned = True
            if not piece.king and len(m["path"]) > 2:
                inner = [self.rank_of(s) for s in m["path"][1:-1]]
                if crown_rank(turn) in inner:
                    if m["crowned"]:
                        mid = True
                    else:
                        passed = True
        st["king_captures"] += king_cap
        st["king_multi"] += king_multi
        st["crowned"] += crowned
        st["crowned_mid_capture"] += mid
        st["passed_crown_row_uncrowned"] += passed
        st["man_takes_king"] += takes_king
        paths = [tuple(m["path"]) for m in moves]
        if len(set(paths)) != len(paths):
            st["duplicate_paths"] += 1
        keys = [(m["path"][0], m["path"][-1], tuple(m["captured"]), a) for m, (_, _, a, _) in zip(moves, entries)]
        if len(set(keys)) != len(set(paths)):
            st["collapsing"] += 1

    # ------------------------------------------------------------ sources

    def random_game(self, quota):
        """Positions sampled from one random game from the start position."""
        rng = self.rng
        game = game_from_fen(self.variant)
        plies = rng.randint(20, 220)
        rate = min(1.0, 10.0 / plies)
        added = 0
        for ply in range(plies):
            entries, moves = self.moves_of(game)
            if not moves:
                break
            if ply >= 4 and rng.random() < rate and added < quota:
                added += self.add(game, entries, moves)
            choice = rng.randrange(len(entries))
            game = entries[choice][3]
        return added

    def play_random(self, game, plies):
        for _ in range(plies):
            entries = legal_moves_with_results(game)
            if not entries:
                break
            game = entries[self.rng.randrange(len(entries))][3]
        return game

    def from_pieces(self, turn, pieces, extra_plies):
        if not legal_looking(pieces):
            return False
        fen = make_fen(self.variant, turn, pieces)
        game = game_from_fen(self.variant, fen)
        if extra_plies:
            game = self.play_random(game, extra_plies)
        return self.add(game)

    def king_ending(self):
        rng = self.rng
        pieces = {}
        for colour in "WB":
            add_random_pieces(rng, pieces, colour, rng.randint(1, 6), 0.55)
        if not any(k for _, k in pieces.values()):
            sq = rng.choice(list(pieces))
            pieces[sq] = (pieces[sq][0], True)
        return self.from_pieces(rng.choice("WB"), pieces, rng.choice((0, 0, 1, 2, 3, 6)))

    def dense(self):
        rng = self.rng
        pieces = {}
        for colour in "WB":
            add_random_pieces(rng, pieces, colour, rng.randint(5, 12), 0.08)
        return self.from_pieces(rng.choice("WB"), pieces, 0)

    def long_capture(self):
        """A random chain of >= 3 jumps for one piece, then random other pieces."""
        rng = self.rng
        variant = self.variant
        mover = rng.choice("WB")
        enemy = "B" if mover == "W" else "W"
        king = rng.random() < 0.5
        flying = king and variant in ALGEBRAIC
        for _ in range(50):
            start = rng.choice(DARK)
            if not king and start[1] == crown_rank(mover):
                continue
            pieces = {}
            empty = {start}
            cur = start
            jumps = 0
            target = rng.randint(3, 7)
            while jumps < target:
                if king or variant in ALGEBRAIC:
                    dirs = list(DIRS)
                else:
                    dirs = [d for d in DIRS if d[1] == forward(mover)]
                rng.shuffle(dirs)
                moved = False
                for df, dr in dirs:
                    ray = []
                    f, r = cur[0] + df, cur[1] + dr
                    while on_board(f, r):
                        ray.append((f, r))
                        f, r = f + df, r + dr
                        if not flying:
                            if len(ray) == 2:
                                break
                    # enemy at ray[i], squares before it empty, landing ray[j] for j > i
                    options = []
                    for i, sq in enumerate(ray):
                        if sq in pieces:
                            break
                        if not flying and i > 0:
                            break
                        if sq in empty or i + 1 >= len(ray):
                            continue
                        for j in range(i + 1, len(ray) if flying else i + 2):
                            if ray[j] in pieces:
                                break
                            options.append((i, j))
                    if not options:
                        continue
                    i, j = rng.choice(options)
                    esq = ray[i]
                    eking = rng.random() < 0.25 or esq[1] == crown_rank(enemy)
                    pieces[esq] = (enemy, eking)
                    for sq in ray[:i] + ray[i + 1:j + 1]:
                        empty.add(sq)
                    cur = ray[j]
                    jumps += 1
                    moved = True
                    break
                if not moved:
                    break
            if jumps >= 3:
                break
        else:
            return False
        if start in pieces:
            return False
        pieces[start] = (mover, king)
        add_random_pieces(rng, pieces, mover, rng.randint(0, 8), 0.15, forbidden=empty)
        add_random_pieces(rng, pieces, enemy, rng.randint(0, 4), 0.15, forbidden=empty)
        return self.from_pieces(mover, pieces, 0)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    variant, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    check_variant(variant)
    rng = random.Random(seed)
    col = Collector(variant, rng)
    quotas = [("games", round(count * 0.35)), ("endings", round(count * 0.25)),
              ("captures", round(count * 0.30))]
    quotas.append(("dense", count - sum(q for _, q in quotas)))
    made = {}
    for name, quota in quotas:
        got = 0
        tries = 0
        while got < quota and tries < 50 * quota + 100:
            tries += 1
            if name == "games":
                got += col.random_game(quota - got)
            elif name == "endings":
                got += col.king_ending()
            elif name == "captures":
                got += col.long_capture()
            else:
                got += col.dense()
        made[name] = got
    for fen, moves in col.out.items():
        print(json.dumps({"fen": fen, "moves": moves}, separators=(",", ":")))
    st = col.stats
    n = len(col.out)
    print(f"{variant} seed {seed}: {n} positions ({', '.join(f'{k} {v}' for k, v in made.items())}); "
          f"with kings {st['kings']}, with captures {st['captures']}, with a >=3-piece capture {st['long']}, "
          f"max capture {st['max_capture']}; king captures {st['king_captures']} (multi {st['king_multi']}), "
          f"crowning moves {st['crowned']}, crowned mid-capture {st['crowned_mid_capture']}, "
          f"passed crowning row uncrowned {st['passed_crown_row_uncrowned']}, man takes king {st['man_takes_king']}, "
          f"positions whose paths collapse by (from,to,captured set) {st['collapsing']}, "
          f"positions listing a path twice {st['duplicate_paths']}", file=sys.stderr)
    if n < count:
        print(f"warning: only {n} distinct positions of {count}", file=sys.stderr)


if __name__ == "__main__":
    main()
