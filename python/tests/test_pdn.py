"""PDN through the package: the recovering reader (each game with its warnings) and the
writer, round trips in every variant."""

import random

import pytest

import damiera
from conftest import DATA


def random_game(variant, seed, start=None):
    rng = random.Random(seed)
    board = damiera.Board(variant, start)
    for _ in range(rng.randrange(10, 150)):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves))
    return board


@pytest.mark.parametrize("variant", damiera.VARIANTS)
def test_round_trip(variant, tmp_path):
    starts = [None, None, None, damiera.Board(variant).fen]
    boards = [random_game(variant, seed, starts[seed % 4]) for seed in range(40)]
    boards.append(random_game(variant, 99, "W:WK22,K23:B4" if variant == "italian" else None))
    text = damiera.pdn.write(boards)
    reading = damiera.pdn.read(text, variant=variant)
    assert reading.skipped == 0 and not reading.warnings, reading.warnings
    assert len(reading) == len(boards)
    for board, game in zip(boards, reading.games):
        # The reader normalizes capture separators to `x` (Russian writes `c3:e5`).
        assert game.moves == [str(m).replace(":", "x") for m in board.move_stack]
        assert game.variant == variant
        replayed = game.board()
        assert replayed.fen == board.fen
        assert replayed.move_stack == board.move_stack
        assert game.tag("GameType") == str({"italian": 22, "english": 21, "russian": 25,
                                            "brazilian": 26, "pool": 23, "czech": 29,
                                            "spanish": 24, "thai": 31, "damka": 42}[variant])
        assert game.tag("Result") == board.result()
        if board.is_game_over():
            assert game.tag("Termination") == board.outcome().reason
    # Written again, the games read are the same text (up to Russian's separators), and
    # that text reads and writes back to itself; from a path and a file too.
    text = damiera.pdn.write(reading.games)
    assert text.replace(":", "x") == damiera.pdn.write(boards).replace(":", "x")
    assert damiera.pdn.write(damiera.pdn.read(text, variant).games) == text
    path = tmp_path / "games.pdn"
    damiera.pdn.write(reading.games, path)
    assert damiera.pdn.write(damiera.pdn.read(path).games) == text
    assert damiera.pdn.write(damiera.pdn.read(str(path)).games) == text
    with open(path, "rb") as f:
        assert len(damiera.pdn.read(f)) == len(boards)
    with open(path, encoding="utf-8") as f:
        assert len(damiera.pdn.read(f)) == len(boards)


def test_tags_and_records():
    board = damiera.Board()
    for text in ["22-19", "10-14", "19x10", "5x14"]:
        board.push(text)
    game = board.to_pdn([("Event", "Test"), ("White", "A"), ("Black", "B")])
    text = str(game)
    assert '[Event "Test"]' in text and "1. 22-19 10-14 2. 19x10 5x14 *" in text
    again = damiera.pdn.read(text)[0]
    assert again.tag("White") == "A" and again.result is None
    assert again.board().fen == board.fen


def test_federation_file_is_read_game_by_game():
    reading = damiera.pdn.read(DATA / "federation_faults.pdn")
    assert len(reading) >= 3
    assert reading.warnings and reading.repaired >= 1
    assert reading.summary.startswith(f"{len(reading)} games read")
    repaired = [g for g in reading.games if g.warnings]
    assert repaired and all(w.startswith(f"game {g.number},") for g in repaired
                            for w in g.warnings)
    for game in reading.games:
        assert game.board().ply == len(game.moves)


def test_a_bad_game_never_costs_the_file():
    text = ('[Event "good"]\n1. 22-19 10-14 *\n\n[Event "bad"]\n1. 22-19 10-14 2. 19-15 *\n\n'
            '[Event "good too"]\n1. 21-17 *\n')
    reading = damiera.pdn.read(text)
    assert [g.tag("Event") for g in reading.games] == ["good", "good too"]
    assert reading.skipped == 1 and any("game 2" in w for w in reading.warnings)
    with pytest.raises(ValueError):
        damiera.pdn.read(12)
    with pytest.raises(FileNotFoundError):
        damiera.pdn.read("no-such-file.pdn")
