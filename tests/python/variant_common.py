"""Shared helpers for the English / Russian / Brazilian pydraughts reference scripts.

pydraughts 0.6.7 keeps every variant internally on one 32-square layout: internal square 1
is b8, 4 is h8, 5 is a7, ..., 29 is a1, 32 is g1 (rows of four from the top, seen with the
side that moves first at the bottom), and the side that moves first is always "white"
(player 2) at internal squares 21-32. Each variant's notation is a relabelling of that
(draughts/convert.py, `_rotate_move`):

* english: notation number = 33 - internal number, and the colours are swapped (pydraughts'
  internal "white" is English Black, which moves first). English numbers are the standard
  ones: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1 with White at the bottom; Black's men start
  on 1-12 and crown on 29-32, White's start on 21-32 and crown on 1-4.
* russian / brazilian: the board is flipped top to bottom (`reverse_row`), giving numbers
  1 = a1, 2 = c1, 3 = e1, 4 = g1, 5 = b2, ..., 32 = h8, which pydraughts then writes as
  algebraic squares (`_numeric_to_algebraic_square`). White starts on a1..h3 and moves first.

Everything here works on pydraughts' internal `Game` (draughts.core.game) and converts with
pydraughts' own functions, exactly as `draughts.Board` does.
"""

import string
import sys

from draughts.convert import (fen_from_variant, fen_to_variant, move_to_variant,
                              _numeric_to_algebraic_square, _algebraic_to_numeric_square)
from draughts.core.game import Game

VARIANTS = ("english", "russian", "brazilian")
ALGEBRAIC = ("russian", "brazilian")


def check_variant(variant):
    if variant not in VARIANTS:
        sys.exit(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")


# ---------------------------------------------------------------- squares

def internal_to_number(variant, square):
    """pydraughts internal square -> the variant's own square number (english 1-32, russian 1=a1)."""
    return int(move_to_variant(str(square), variant=variant, to_algebraic=False))


def number_to_name(variant, number):
    """Variant square number -> its name in the variant's notation ('12' or 'c3')."""
    if variant in ALGEBRAIC:
        return _numeric_to_algebraic_square(str(number), 4)
    return str(number)


def name_to_number(variant, name):
    """Square name in the variant's notation ('12', 'c3', 'C3') -> variant square number."""
    name = name.strip().lower()
    if name and name[0] in string.ascii_lowercase:
        if variant not in ALGEBRAIC:
            raise ValueError(f"algebraic square {name!r} in {variant}")
        if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
            raise ValueError(f"bad square {name!r}")
        f, r = "abcdefgh".index(name[0]), int(name[1]) - 1
        if (f + r) % 2:
            raise ValueError(f"light square {name!r}")
        return _algebraic_to_numeric_square(name, 4)
    n = int(name)
    if not 1 <= n <= 32:
        raise ValueError(f"bad square {name!r}")
    return n


def internal_name(variant, square):
    return number_to_name(variant, internal_to_number(variant, square))


def name_sort_key(variant, name):
    """Captured squares are listed sorted: numerically (english), by name = file then rank (algebraic)."""
    return name if variant in ALGEBRAIC else int(name)


def file_rank_to_number(variant, f, r):
    """Geometric square (file 0-7 = a-h, rank 0-7 = 1-8, White at the bottom) -> variant number."""
    assert (f + r) % 2 == 0
    if variant in ALGEBRAIC:
        return r * 4 + f // 2 + 1
    # english: row 0 is rank 8 (squares 1-4 = b8,d8,f8,h8), row 1 is rank 7 (5-8 = a7..g7), ...
    row = 7 - r
    return row * 4 + f // 2 + 1


# ---------------------------------------------------------------- FEN

def canonical_fen(variant, fen):
    """A variant FEN (as pydraughts writes it) with each side's pieces in square-number order.

    english: `B:W21,22,...:B1,2,...` (numbers); russian/brazilian: `W:Wa1,c1,...:Bb6,...`.
    Kings carry a K prefix (`Kd4`, `K7`). The first letter is the side to move.
    """
    fen = fen.strip().rstrip(".")
    parts = fen.split(":")
    if len(parts) != 3 or parts[0].upper() not in ("W", "B"):
        raise ValueError(f"bad FEN {fen!r}")
    turn = parts[0].upper()
    sides = {}
    for part in parts[1:]:
        if not part or part[0].upper() not in "WB":
            raise ValueError(f"bad FEN {fen!r}")
        sides[part[0].upper()] = part[1:]
    if set(sides) != {"W", "B"}:
        raise ValueError(f"bad FEN {fen!r}")
    out = [turn]
    for colour in "WB":
        items = []
        for token in filter(None, (t.strip() for t in sides[colour].split(","))):
            king = token[0] in "Kk"
            name = token[1:] if king else token
            if "-" in name:  # a range of numbers, e.g. 1-12
                lo, hi = (name_to_number(variant, x) for x in name.split("-"))
                items.extend((n, king) for n in range(lo, hi + 1))
            else:
                items.append((name_to_number(variant, name), king))
        items.sort()
        out.append(items)
    squares = [n for n, _ in out[1] + out[2]]
    if len(set(squares)) != len(squares):
        raise ValueError(f"square given twice in FEN {fen!r}")
    return ":".join([turn] + [colour + ",".join(("K" if k else "") + number_to_name(variant, n) for n, k in items)
                              for colour, items in zip("WB", out[1:])])


def game_from_fen(variant, fen=None):
    """A pydraughts internal Game from a variant FEN (None = start position)."""
    if fen is None or fen == "startpos":
        return Game(variant)
    return Game(variant, fen_from_variant(canonical_fen(variant, fen), variant))


def game_fen(variant, game):
    """The canonical variant FEN of an internal Game."""
    return canonical_fen(variant, fen_to_variant(game.get_li_fen(), variant))


def hub_to_fen(variant, hub):
    return game_fen(variant, Game(variant, hub))


# ---------------------------------------------------------------- moves

def _get_moves_recording(game, results):
    """pydraughts 0.6.7 `Game.get_moves`, verbatim, but also records the Hub FEN after each
    complete move (keyed by the tuple of steps) so that callers need not replay it."""
    turn = game.whose_turn()
    moves = []
    captured_pieces = []
    for move in game.get_possible_moves():
        game_2 = game.copy_fast()
        _, captures = game_2.move(move)
        if game_2.whose_turn() == turn:
            sub = {}
            more_moves, more_captures = _get_moves_recording(game_2, sub)
            for semi_move, semi_capture in zip(more_moves, more_captures):
                moves.append([move] + semi_move)
                captured_pieces.append([captures] + semi_capture)
            for key, value in sub.items():
                results[(tuple(move),) + key] = value
        else:
            moves.append([move])
            captured_pieces.append([captures])
            results[(tuple(move),)] = (game_2.get_fen(), game_2)
    return moves, captured_pieces


def legal_moves_with_results(game):
    """pydraughts' legal moves of `game` as a list of (steps, captures, hub_after, game_after).

    `steps` is pydraughts' board move [[from, to], [from, to], ...] in internal squares,
    `captures` the captured internal squares in capture order ([] for a quiet move). The list
    is exactly `game.legal_moves()` (same entries, same order): the only change is that the
    move generator keeps the positions it reaches instead of throwing them away.
    """
    results = {}
    game.get_moves = lambda: _get_moves_recording(game, results)
    try:
        moves, captures = game.legal_moves()
    finally:
        del game.get_moves
    out = []
    for steps, caps in zip(moves, captures):
        hub, after = results[tuple(tuple(s) for s in steps)]
        out.append((steps, [] if caps[0] is None else caps, hub, after))
    return out


def describe_move(variant, game, steps, caps, after):
    """A legal move in the variant's notation: {"path", "captured", "crowned"}."""
    path_int = [steps[0][0]] + [s[1] for s in steps]
    path = [internal_name(variant, s) for s in path_int]
    captured = sorted((internal_name(variant, s) for s in caps), key=lambda n: name_sort_key(variant, n))
    was_king = game.board.searcher.get_piece_by_position(path_int[0]).king
    now_king = after.board.searcher.get_piece_by_position(path_int[-1]).king
    return {"path": path, "captured": captured, "crowned": bool(now_king and not was_king)}
