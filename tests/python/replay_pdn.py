#!/usr/bin/env python3
"""Replays every game of a PDN file on pydraughts' board of a variant.

Usage: replay_pdn.py <english|russian|brazilian> <file.pdn>

The PDN is read here, not by pydraughts' PDNReader: that reader decides who moves first
from the FEN tag's letter (wrong for English, where Black moves first) and does not accept
every move form. Each game starts from its [FEN] tag (the variant's notation: numbers for
english, algebraic or numbers for russian/brazilian; ranges such as `1-12` allowed) or the
start position. Comments `{...}`, variations `(...)`, NAGs `$n`, `!`/`?` marks, move
numbers (`12.` and `12...`) and results are skipped. A move may be written

  a-b      a quiet move (or, if there is none, the one capture from a to b);
  axb      a capture from a to b (`:` instead of `x` too);
  axbxc..  a capture by its full path, every square the piece stops on;

and must match exactly one legal move of pydraughts, or several that reach the same
position (a capture written by its ends when pydraughts has two paths with the same
captures). A full path may also omit stops, if that leaves one result. The side to move is
the FEN's, whatever the move numbers say.

Exits 1 with a message naming the game and the move on the first illegal or ambiguous
move; otherwise prints the number of games and of moves replayed.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from variant_common import (VARIANTS, game_fen, game_from_fen, internal_name,  # noqa: E402
                            legal_moves_with_results, name_to_number, number_to_name)

RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}
GAMETYPES = {"english": "21", "russian": "25", "brazilian": "26"}
TOKEN = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]'  # tag
                   r'|\{[^}]*\}'                               # comment
                   r'|;[^\n]*'                                 # line comment
                   r'|\$\d+'                                   # NAG
                   r'|(\S+)')                                  # anything else


class Fail(Exception):
    pass


def read_games(text):
    """[(tags, [(move text, move number label)])] from PDN text."""
    games = []
    tags, moves, depth, number = {}, [], 0, ""
    for m in TOKEN.finditer(text):
        if m.group(1) is not None:
            if depth:
                continue
            if moves:  # tags after movetext without a result: a new game
                games.append((tags, moves))
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
            continue
        word = m.group(3)
        if word is None:
            continue
        # variations, possibly glued to moves: "(12-16" or "16)"
        while word.startswith("("):
            depth += 1
            word = word[1:]
        closing = len(word) - len(word.rstrip(")"))
        word = word.rstrip(")")
        if depth == 0 and word:
            word = word.rstrip("!?")
            num = re.match(r"^(\d+)\.+(.*)$", word)
            if num:
                number = num.group(1) + "."
                word = num.group(2)
            if word in RESULTS:
                games.append((tags, moves))
                tags, moves = {}, []
            elif word:
                moves.append((word, number))
        depth = max(0, depth - closing)
    if moves or tags:
        games.append((tags, moves))
    return games


def parse_move(variant, text):
    """(kind, [square numbers]) with kind '-' or 'x'."""
    low = text.lower()
    if re.fullmatch(r"[a-h]?\d+(-[a-h]?\d+)+", low):
        kind, parts = "-", low.split("-")
    elif re.fullmatch(r"[a-h]?\d+([x:][a-h]?\d+)+", low):
        kind, parts = "x", re.split("[x:]", low)
    else:
        raise Fail(f"cannot read move {text!r}")
    try:
        squares = [name_to_number(variant, p) for p in parts]
    except ValueError as e:
        raise Fail(f"bad square in move {text!r}: {e}")
    return kind, squares


def is_subsequence(short, long):
    it = iter(long)
    return all(x in it for x in short)


def find_move(variant, game, text):
    kind, squares = parse_move(variant, text)
    entries = legal_moves_with_results(game)
    named = []
    for steps, caps, hub, after in entries:
        path = [name_to_number(variant, internal_name(variant, s)) for s in [steps[0][0]] + [x[1] for x in steps]]
        named.append((path, bool(caps), hub, after))
    legal = ", ".join(("x" if c else "-").join(number_to_name(variant, s) for s in p) for p, c, _, _ in named)
    if kind == "-":
        if len(squares) != 2:
            raise Fail(f"quiet move {text!r} with more than two squares")
        cands = [e for e in named if not e[1] and e[0][0] == squares[0] and e[0][-1] == squares[1]]
        if not cands:
            cands = [e for e in named if e[1] and e[0][0] == squares[0] and e[0][-1] == squares[1]]
    else:
        caps_only = [e for e in named if e[1]]
        cands = [e for e in caps_only if e[0] == squares]
        if not cands:
            cands = [e for e in caps_only if e[0][0] == squares[0] and e[0][-1] == squares[-1]
                     and is_subsequence(squares, e[0])]
    if not cands:
        raise Fail(f"illegal move {text!r}; legal: {legal or 'none'}")
    results = {c[2] for c in cands}
    if len(results) > 1:
        raise Fail(f"ambiguous move {text!r}: matches {len(cands)} legal moves with different results; legal: {legal}")
    return cands[0][3]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    variant, path = sys.argv[1], sys.argv[2]
    if variant not in VARIANTS:
        sys.exit(f"variant must be one of {', '.join(VARIANTS)}")
    with open(path, encoding="utf-8", errors="replace") as f:
        games = read_games(f.read())
    total = 0
    for index, (tags, moves) in enumerate(games, 1):
        name = f"game {index}"
        label = " - ".join(x for x in (tags.get("White"), tags.get("Black")) if x)
        if label or tags.get("Event"):
            name += f" ({', '.join(x for x in (tags.get('Event'), label) if x)})"
        gt = tags.get("GameType", "").split(",")[0].strip()
        if gt and gt != GAMETYPES[variant]:
            print(f"{name}: GameType {gt} is not {variant} ({GAMETYPES[variant]}); replaying as {variant}",
                  file=sys.stderr)
        try:
            game = game_from_fen(variant, tags.get("FEN"))
        except (ValueError, KeyError, IndexError) as e:
            print(f"FAIL: {name}: bad FEN {tags.get('FEN')!r}: {e}", file=sys.stderr)
            sys.exit(1)
        for ply, (text, number) in enumerate(moves, 1):
            try:
                game = find_move(variant, game, text)
            except Fail as e:
                print(f"FAIL: {name}, move {number}{text} (ply {ply}, position {game_fen(variant, game)}): {e}",
                      file=sys.stderr)
                sys.exit(1)
            total += 1
    print(f"{variant}: {len(games)} games, {total} moves replayed from {path}")


if __name__ == "__main__":
    main()
