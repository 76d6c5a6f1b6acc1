"""Legal moves equal pydraughts' (0.6.7, the reference of tests/python/) in English,
Russian and Brazilian draughts: on 1,000 positions of random games played by damiera, and
on tests/python/variant_moves.py's own sample (random games, king endings, long captures,
dense positions). Every capture path is a move on both sides.

Italian is compared on 1,000 positions of random games too, outside the one rule
pydraughts gets wrong: the order in which a king meets kings (FID Art. 6.9 (4)). A position
may differ only where every move in the difference is a king's capture of kings; the FID
rule positions and the published perft counts check Damiera there (test_rules.py).
"""

import json
import subprocess
import sys
from collections import Counter

import pytest

import damiera
from conftest import REFERENCE_SCRIPTS, random_positions

VARIANTS = ("english", "russian", "brazilian")


def damiera_moves(variant, fen):
    """The legal moves as (path names, captured names, crowned), a multiset."""
    name = lambda n: damiera.square_name(n, variant)  # noqa: E731
    return Counter((tuple(name(n) for n in m.path), tuple(sorted(name(n) for n in m.captured)),
                    m.crowns) for m in damiera.Board(variant, fen).legal_moves)


def reference_moves(ref, variant, fen):
    game = ref.game_from_fen(variant, fen)
    out = Counter()
    for steps, caps, _, after in ref.legal_moves_with_results(game):
        d = ref.describe_move(variant, game, steps, caps, after)
        out[(tuple(d["path"]), tuple(sorted(d["captured"])), d["crowned"])] += 1
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_playouts_match_pydraughts(variant, pydraughts_reference):
    positions = random_positions(damiera, variant, 1000, seed=2024)
    assert len(positions) == 1000
    captures = 0
    for fen in positions:
        ours = damiera_moves(variant, fen)
        theirs = reference_moves(pydraughts_reference, variant, fen)
        assert ours == theirs, (fen, sorted(ours - theirs), sorted(theirs - ours))
        captures += any(caps for _, caps, _ in ours)
    assert captures > 100  # the sample has captures to compare, not only quiet moves


def test_italian_random_playouts_match_pydraughts_outside_the_king_order(pydraughts_reference):
    positions = random_positions(damiera, "italian", 1000, seed=2025)
    king_order = 0
    for fen in positions:
        ours = damiera_moves("italian", fen)
        theirs = reference_moves(pydraughts_reference, "italian", fen)
        if ours == theirs:
            continue
        board = damiera.Board("italian", fen)
        kings = {n for n in range(1, 33) if board.piece_at(n) in ("W", "B")}
        differing = (ours - theirs) + (theirs - ours)
        assert all(int(path[0]) in kings and kings & {int(c) for c in caps}
                   for path, caps, _ in differing), (fen, sorted(ours - theirs),
                                                     sorted(theirs - ours))
        king_order += 1
    print(f"italian: {king_order} of {len(positions)} positions differ by the king order only")
    assert king_order < 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_reference_sample_matches_pydraughts(variant, pydraughts_reference):
    out = subprocess.run([sys.executable, str(REFERENCE_SCRIPTS / "variant_moves.py"), variant,
                          "400", "47"], capture_output=True, text=True, check=True).stdout
    count = shared = 0
    for line in out.splitlines():
        entry = json.loads(line)
        theirs = Counter((tuple(m["path"]), tuple(sorted(m["captured"])), m["crowned"])
                         for m in entry["moves"])
        ours = damiera_moves(variant, entry["fen"])
        assert ours == theirs, (entry["fen"], sorted(ours - theirs), sorted(theirs - ours))
        # Long captures that come back by other ways share from, first landing and last
        # square: the action index still tells every path apart.
        moves = list(damiera.Board(variant, entry["fen"]).legal_moves)
        assert len({m.action for m in moves}) == len(moves), entry["fen"]
        shared += any(m.action >= damiera.ACTIONS // 16 for m in moves)
        count += 1
    assert count == 400
    print(f"{variant}: {shared} of {count} positions have paths sharing a triple")
