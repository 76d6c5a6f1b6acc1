#!/usr/bin/env python3
"""Reads PDN files with pydraughts' PDN reader and replays every game on its board.

Usage: read_pdn.py FILE.pdn...

Prints one JSON object a line per game: {"file", "moves": [...], "replayed": N,
"tags": {...}}. `replayed` counts the moves pydraughts' Italian board accepted in
turn, from the game's FEN tag (or the start). Exits 0 unless reading fails.
"""

import json
import sys

import draughts
from draughts.PDN import PDNReader


def ends(text):
    """First and last squares of move text (`26x19x12` -> ("26", "12"))."""
    squares = text.replace("-", "x").split("x")
    return squares[0], squares[-1]


def replay(game):
    """How many of the game's moves pydraughts plays in turn (stops at the first refusal).

    pydraughts writes a multi-capture by its ends (`26x12`), PDN may give the whole path
    (`26x19x12`): a move matches a legal move with the same ends, if only one has them.
    """
    fen = game.tags.get("FEN")
    board = draughts.Board("italian", fen=fen) if fen else draughts.Board("italian")
    done = 0
    for text in game.moves:
        legal = [m for m in board.legal_moves() if ends(m.pdn_move) == ends(text)]
        if len(legal) != 1:
            break
        board.push(legal[0])
        done += 1
    return done


def main():
    for path in sys.argv[1:]:
        reader = PDNReader(filename=path)
        for game in reader.games:
            print(json.dumps({"file": path, "moves": game.moves, "replayed": replay(game),
                              "tags": game.tags}))


if __name__ == "__main__":
    main()
