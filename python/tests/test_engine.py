"""The engine in process: the same answers as `damiera analyse`, stop from another thread,
Ctrl-C, play, and the endgame databases."""

import json
import os
import signal
import subprocess
import threading
import time

import pytest

import damiera
from conftest import random_positions

DEPTH = 7


@pytest.fixture
def no_default_databases(tmp_path, monkeypatch):
    """An empty data directory: neither the CLI nor the engine finds databases."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.mark.parametrize("variant,count", [("italian", 100), ("english", 20), ("russian", 20),
                                           ("brazilian", 20)])
def test_analyse_equals_the_cli(variant, count, damiera_bin, no_default_databases):
    """Best move, score, depth, nodes and line equal `damiera analyse --depth` on the same
    positions in the same order (one engine each, its table kept from one to the next)."""
    fens = random_positions(damiera, variant, count, seed=7)
    listing = no_default_databases / "positions.fen"
    listing.write_text("\n".join(fens) + "\n")
    out = subprocess.run([damiera_bin, "analyse", str(listing), "--depth", str(DEPTH),
                          "--variant", variant], capture_output=True, text=True, check=True,
                         env=os.environ.copy()).stdout
    cli = [json.loads(line) for line in out.splitlines()]
    assert len(cli) == count
    with damiera.Engine(variant) as engine:
        assert not engine.has_egdb
        for fen, expected in zip(fens, cli):
            info = engine.analyse(damiera.Board(variant, fen), depth=DEPTH)
            got = {"best": str(info["pv"][0]), "score": round(info["score"].men, 2),
                   "depth": info["depth"], "nodes": info["nodes"],
                   "pv": [str(m) for m in info["pv"]], "win_in": info["score"].win_in}
            want = {k: expected.get(k) for k in got}
            assert got == want, fen


def test_multipv_and_play():
    board = damiera.Board()
    with damiera.Engine(hash_mib=16) as engine:
        lines = engine.analyse(board, depth=6, multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({str(line["pv"][0]) for line in lines}) == 3
        assert lines[0]["score"].raw >= lines[1]["score"].raw >= lines[2]["score"].raw
        # python-chess's way: a Limit object, the same search as the keywords.
        assert engine.analyse(board, damiera.Limit(depth=6))["nodes"] > 0
        assert repr(damiera.Limit(depth=6, time=0.5)) == "Limit(depth=6, time=0.5)"
        result = engine.play(board, damiera.Limit(nodes=2000))
        assert result.move in board.legal_moves
        board.push(result.move)
        assert result.ponder is None or result.ponder in board.legal_moves
        with pytest.raises(ValueError, match="limit"):
            engine.analyse(board)


def test_a_won_ending_is_a_win_in_n():
    # A king against a lone man, won: the search proves it.
    board = damiera.Board("italian", "W:WK22,K23:B4")
    with damiera.Engine(hash_mib=16, egdb_path=None) as engine:
        info = engine.analyse(board, depth=20)
    assert info["score"].is_mate() and info["score"].win_in > 0
    assert str(info["score"]) == f"win in {info['score'].win_in}"
    assert info["score"].cp is None


def test_a_side_without_moves_has_lost():
    board = damiera.Board("italian", "W:W32:BK28")
    with damiera.Engine(hash_mib=1) as engine:
        info = engine.analyse(board, depth=3)
        assert str(info["score"]) == "loss in 0" and info["score"].win_in == 0
        assert info["score"].raw < 0 and info["pv"] == []
        assert engine.play(board, depth=3).move is None


def test_stop_from_another_thread():
    board = damiera.Board()
    limit = 2_000_000_000  # about five minutes: never reached when stop() works
    with damiera.Engine(hash_mib=16) as engine:
        done = threading.Event()

        def stopper():
            # A stop that comes before the search has started is forgotten by it (as a
            # Hub `stop` before `go`): ask until the search has answered.
            while not done.wait(0.01):
                engine.stop()

        thread = threading.Thread(target=stopper)
        thread.start()
        try:
            info = engine.analyse(board, nodes=limit)
        finally:
            done.set()
            thread.join()
        assert info["nodes"] < limit and info["pv"]
        # The engine searches again after a stop.
        assert engine.analyse(board, depth=3)["depth"] == 3


def test_the_board_stays_usable_while_the_engine_thinks():
    board = damiera.Board()
    with damiera.Engine(hash_mib=16) as engine:
        infos = []
        thread = threading.Thread(
            target=lambda: infos.append(engine.analyse(board, nodes=2_000_000_000)))
        thread.start()
        time.sleep(0.2)  # let the search start
        board.push("22-19")  # the engine searches a copy: the board is not borrowed
        while thread.is_alive():
            engine.stop()
            thread.join(0.01)
        assert board.ply == 1 and infos and infos[0]["pv"][0] in damiera.Board().legal_moves


def test_keyboard_interrupt_stops_the_search():
    # A process started with `&` by a shell without job control inherits SIGINT ignored,
    # and Python then leaves it ignored: give the test Python's own Ctrl-C handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    board = damiera.Board()
    try:
        with damiera.Engine(hash_mib=16) as engine:
            timer = threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT))
            with pytest.raises(KeyboardInterrupt):
                timer.start()
                engine.analyse(board, nodes=2_000_000_000)
            timer.join()
            assert engine.analyse(board, depth=3)["depth"] == 3
    finally:
        signal.signal(signal.SIGINT, previous)


def test_engine_arguments_are_checked():
    with pytest.raises(ValueError, match="threads"):
        damiera.Engine(threads=0)
    with pytest.raises(ValueError, match="checkers9"):
        damiera.Engine("checkers9")
    with pytest.raises(ValueError):
        damiera.Engine(eval_file="/nonexistent/weights.dmw")
    with pytest.raises(ValueError):
        damiera.Engine(egdb_path="/nonexistent/egdb")
    engine = damiera.Engine(hash_mib=1)
    engine.close()
    with pytest.raises(RuntimeError, match="closed"):
        engine.analyse(damiera.Board(), depth=2)


def test_egdb_probe_equals_the_cli(damiera_bin, tmp_path):
    egdb = tmp_path / "egdb3"
    subprocess.run([damiera_bin, "egdb", "build", "--pieces", "3", "--dir", str(egdb)],
                   check=True, capture_output=True)
    fens = ["W:WK30:B3", "W:WK22,K23:B4", "B:WK22,K23:B4", "W:W30:BK3", "W:WK1:BK32",
            "W:W21,22:B5"]
    cli = subprocess.run([damiera_bin, "egdb", "probe", "--dir", str(egdb), *fens],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    for fen, expected in zip(fens, cli):
        probe = damiera.egdb.probe(damiera.Board("italian", fen), path=egdb)
        # The CLI writes `win 5`, `loss 4`, `draw` or `unknown`.
        if probe is None:
            shown = "unknown"
        else:
            shown = probe.result if probe.plies is None else f"{probe.result} {probe.plies}"
        assert shown == expected.strip(), fen
    assert damiera.egdb.probe(damiera.Board(), path=egdb) is None
    with damiera.Engine(egdb_path=str(egdb), hash_mib=16) as engine:
        assert engine.has_egdb
        info = engine.analyse(damiera.Board("italian", "W:WK22,K23:B4"), depth=3)
        assert info["score"].egdb and info["score"].win_in > 0
