"""Malformed input never crashes: positions, moves, squares, variants and PDN from
Hypothesis give a result or a ValueError, never another exception (a PanicException or a
dead interpreter would fail here)."""

import damiera
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FEN_ALPHABET = "WBwbKk:,-. 0123456789abcdefghx\"e"
MOVE_ALPHABET = "0123456789x-:abcdefghX "
PDN_ALPHABET = '[]"{}()$;.*/ \n0123456789x-:abcdefghWBK?!'

variants = st.sampled_from(damiera.VARIANTS)
fens = st.one_of(st.text(FEN_ALPHABET, max_size=60), st.text(max_size=40),
                 st.builds(lambda side, squares: side + "".join(squares),
                           st.sampled_from("WBx"), st.lists(st.sampled_from("wbWBe."),
                                                            min_size=30, max_size=34)))
moves = st.one_of(st.text(MOVE_ALPHABET, max_size=20), st.text(max_size=12))
pdns = st.one_of(st.text(PDN_ALPHABET, max_size=300), st.binary(max_size=200),
                 st.builds(lambda tags, body: tags + "\n" + body,
                           st.text(PDN_ALPHABET, max_size=80),
                           st.text(MOVE_ALPHABET + "{}()*.", max_size=200)))
SETTINGS = settings(max_examples=400, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(variants, fens)
def test_positions(variant, fen):
    try:
        board = damiera.Board(variant, fen)
    except ValueError:
        return
    assert damiera.Board(variant, board.fen).fen == board.fen
    board.legal_moves
    str(board)


@SETTINGS
@given(variants, st.integers(0, 40), moves)
def test_moves(variant, plies, text):
    board = damiera.Board(variant)
    for i in range(plies):
        legal = board.legal_moves
        if not legal:
            break
        board.push(legal[(i * 7) % len(legal)])
    try:
        move = board.push(text)
    except ValueError:
        return
    assert board.pop() == move


@SETTINGS
@given(variants, st.one_of(st.integers(-10**20, 10**20), st.text(max_size=6),
                           st.floats(allow_nan=True), st.none()))
def test_squares(variant, square):
    board = damiera.Board(variant)
    try:
        board.piece_at(square)
    except ValueError:
        pass


@SETTINGS
@given(st.text(max_size=20))
def test_variant_names(name):
    try:
        damiera.Board(name)
    except ValueError:
        pass


@SETTINGS
@given(variants, pdns)
def test_pdn(variant, text):
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    reading = damiera.pdn.read(data, variant=variant)
    for game in reading.games:
        game.board()
    damiera.pdn.write(reading.games)
