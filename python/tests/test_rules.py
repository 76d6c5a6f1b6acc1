"""Italian and every variant's rules through the Python API: the FID rule positions and
the published perft counts of tests/data, and the move lists' own consistency."""

import pytest

import damiera
from conftest import DATA, random_positions

# Perft leaves up to this many are counted here (the larger ones are the Rust tests').
MAX_LEAVES = 5_000_000


def rule_positions():
    for line in (DATA / "rules.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, moves, why = (part.strip() for part in line.split("|"))
        yield pytest.param(fen, [] if moves == "-" else moves.split(), id=why)


@pytest.mark.parametrize("fen,expected", list(rule_positions()))
def test_fid_rule_positions(fen, expected):
    board = damiera.Board("italian", fen)
    moves = board.legal_moves
    # The data lists each move (from, to, captured set) once, by its first path; the
    # board lists every path: group the paths by move.
    by_move = {}
    for m in moves:
        by_move.setdefault(m.hub, []).append(str(m))
    assert len(by_move) == len(expected), (fen, sorted(by_move), expected)
    for text in expected:
        assert any(text in paths for paths in by_move.values()), (fen, text, by_move)
    if not expected:
        assert board.is_game_over()
        outcome = board.outcome()
        assert outcome.termination == "no_legal_move"
        assert outcome.winner == (not board.turn)


def perft_cases():
    """Every game's suites: label | game | position | distinct or paths | counts. Lines
    with Damka's house rules (`damka+stop-chain`) are left out: the module has none."""
    for line in (DATA / "perft.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, variant, fen, kind, counts = (p.strip() for p in line.split("|"))
            if "+" in variant:
                continue
            yield label, variant, fen, kind, [int(c) for c in counts.split()]


@pytest.mark.parametrize("label,variant,fen,kind,counts",
                         list(perft_cases()), ids=[c[0] for c in perft_cases()])
def test_published_perft(label, variant, fen, kind, counts):
    board = damiera.Board(variant, fen)
    checked = 0
    for depth, expected in enumerate(counts, 1):
        if expected > MAX_LEAVES:
            break
        assert board.perft(depth, paths=(kind == "paths")) == expected, (label, depth)
        checked += 1
    assert checked >= 1
    if kind == "paths":
        assert len(board.legal_moves) == counts[0]
    else:
        assert len({m.hub for m in board.legal_moves}) == counts[0]


@pytest.mark.parametrize("variant", damiera.VARIANTS)
def test_move_lists_agree_with_themselves(variant):
    """On random positions: one Move per path (perft's `paths` count), distinct texts and
    action indices, every move's text read back as that move, push/pop restore the board."""
    for fen in random_positions(damiera, variant, 300, seed=11):
        board = damiera.Board(variant, fen)
        moves = board.legal_moves
        assert len(moves) == board.perft(1, paths=True) == board.legal_move_count()
        assert len({m.hub for m in moves}) == board.perft(1)
        assert len({str(m) for m in moves}) == len(moves)
        assert len({m.action for m in moves}) == len(moves), fen
        for m in moves:
            assert 0 <= m.action < damiera.ACTIONS
            assert board.move_from_action(m.action) == m
            assert board.parse_move(str(m)) == m
            assert m.path[0] == m.from_square and m.path[-1] == m.to_square
            before = board.fen
            assert board.push(str(m)) == m
            assert board.peek() == m
            assert board.pop() == m
            assert board.fen == before


@pytest.mark.parametrize("variant", damiera.VARIANTS)
def test_position_texts_round_trip(variant):
    """FEN and Hub strings of random positions read back as the same position."""
    for fen in random_positions(damiera, variant, 100, seed=3):
        board = damiera.Board(variant, fen)
        assert board.fen == fen
        assert damiera.Board(variant, board.hub).fen == fen
        assert damiera.Board(variant, board.hub).hub == board.hub


def test_board_basics():
    board = damiera.Board()
    assert board.variant == "italian" and board.turn == damiera.WHITE
    assert len(board.legal_moves) == 7 and board.perft(4) == 1469
    board.push("22-19")
    assert board.turn == damiera.BLACK and board.ply == 1
    copy = board.copy()
    copy.push(copy.legal_moves[0])
    assert board.ply == 1 and copy.ply == 2
    assert "White to move" in str(damiera.Board())
    assert damiera.Board("english").turn == damiera.BLACK
    assert damiera.Board("russian", "W:Wc3:Bd4").legal_moves[0].captured == [14]
    assert str(damiera.Board("russian", "W:Wc3:Bd4").legal_moves[0]) == "c3:e5"
    svg = damiera.Board("brazilian")._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") == 24
    assert board.to_planes().sum() == 24
    assert board.piece_at(19) == "w" and board.piece_at("1") == "b" and board.piece_at(17) is None


def test_game_endings_are_the_game_rooms():
    # Kings shuffling: the third occurrence draws (the Italian rule).
    board = damiera.Board("italian", "W:WK29:BK4")
    for text in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4"]:
        assert not board.is_game_over()
        board.push(text)
    outcome = board.outcome()
    assert outcome.winner is None and outcome.termination == "repetition"
    assert outcome.result == "1/2-1/2" and "repetition" in outcome.reason
    # No legal move loses.
    board = damiera.Board("italian", "W:W32:BK28")
    assert board.outcome().winner == damiera.BLACK
    assert board.result() == "0-1"


def test_bad_input_names_the_token():
    with pytest.raises(ValueError, match="Z9"):
        damiera.Board("italian", "W:WZ9:B1")
    with pytest.raises(ValueError, match="dama"):
        damiera.Board("dama")
    board = damiera.Board()
    with pytest.raises(ValueError, match="22-18x"):
        board.push("22-18x")
    with pytest.raises(ValueError, match="illegal move"):
        board.push("22-17")
    with pytest.raises(ValueError, match="99"):
        board.piece_at(99)
    with pytest.raises(ValueError, match="c3"):
        board.piece_at("c3")
    with pytest.raises(IndexError):
        board.pop()
    english_move = damiera.Board("english").legal_moves[0]
    with pytest.raises(ValueError):
        board.push(english_move)
