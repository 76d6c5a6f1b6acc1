"""Games played in Rust for training data: arrays that agree with the boards they came
from, results that are the game room's, and determinism."""

import numpy as np
import pytest

import damiera


@pytest.mark.parametrize("variant", damiera.VARIANTS)
def test_random_games_replay_on_boards(variant):
    data = damiera.batch.play_games(12, variant=variant, seed=5, max_plies=300)
    n = len(data["turn"])
    assert data["planes"].shape == (n, 4, 8, 8) and data["pieces"].shape == (n, 4)
    assert data["lengths"].sum() == n and len(data["results"]) == 12
    # Replay every game by its actions: each recorded position is the board's.
    index = 0
    for g in range(12):
        board = damiera.Board(variant)
        for ply in range(data["lengths"][g]):
            assert data["game"][index] == g and data["ply"][index] == ply
            assert np.array_equal(data["planes"][index], board.to_planes())
            assert bool(data["turn"][index]) == board.turn
            board.push(board.move_from_action(int(data["action"][index])))
            index += 1
        outcome = board.outcome()
        assert bool(data["finished"][g]) == (outcome is not None)
        expected = 0 if outcome is None or outcome.winner is None else (
            1 if outcome.winner else -1)
        assert data["results"][g] == expected
    assert data["planes"].flags.writeable and damiera.Board().to_planes().flags.writeable
    signs = np.where(data["turn"] == 1, 1, -1)
    assert np.array_equal(data["value"], data["results"][data["game"]] * signs)


def test_deterministic_and_engine_guided():
    a = damiera.batch.play_games(5, seed=3, planes=False)
    b = damiera.batch.play_games(5, seed=3, planes=False)
    assert "planes" not in a
    assert all(np.array_equal(a[k], b[k]) for k in a)
    c = damiera.batch.play_games(2, seed=3, nodes=300, random_plies=6, max_plies=60)
    assert len(c["results"]) == 2 and c["lengths"].sum() == len(c["turn"])
    with pytest.raises(ValueError):
        damiera.batch.play_games(-1)
    empty = damiera.batch.play_games(0)
    assert len(empty["turn"]) == 0
