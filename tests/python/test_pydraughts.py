#!/usr/bin/env python3
"""A real Hub client against Damiera: pydraughts' HubEngine plays short self-play games.

Usage: test_pydraughts.py <path to the damiera binary>

Every move the engine answers is checked against Damiera's own move generator
(`damiera moves --fen F --format hub`, FID rules) and against pydraughts' Italian
board. pydraughts gets FID Art. 6.9 (capture priority with kings) wrong in rare
positions: there our generator is the referee, and the game goes on from the
position after the move. Clocks are kept here, Fischer style, and the engine must
never overstep them. Exits 0 on success; prints one line per game.
"""

import logging
import subprocess
import sys
import time

import draughts
from draughts.engine import HubEngine

MAX_PLIES = 120
WARNINGS = []


class Recorder(logging.Handler):
    """Collects pydraughts' warnings (e.g. an unexpected engine line)."""

    def emit(self, record):
        WARNINGS.append(record.getMessage())


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def canonical(hub_move):
    """Hub move text with the captured squares in ascending order."""
    if "x" not in hub_move:
        return hub_move
    squares = [int(s) for s in hub_move.split("x")]
    return "x".join(str(s) for s in squares[:2] + sorted(squares[2:]))


def our_moves(binary, fen):
    """The legal moves by Damiera's generator, Hub form."""
    out = subprocess.run([binary, "moves", "--fen", fen, "--format", "hub"],
                         capture_output=True, text=True, check=True)
    return {canonical(m) for m in out.stdout.split()}


def play_after(fen, hub_move):
    """The PDN FEN after a Hub move (captured pieces removed, men crowned)."""
    side, *parts = fen.rstrip(".").split(":")
    pieces = {}
    for part in parts:
        color = part[0]
        for token in filter(None, part[1:].split(",")):
            king = token.startswith("K")
            pieces[int(token.lstrip("K"))] = (color, king)
    squares = [int(s) for s in hub_move.replace("-", "x").split("x")]
    origin, target, captured = squares[0], squares[1], squares[2:]
    color, king = pieces.pop(origin)
    for square in captured:
        pieces.pop(square)
    crowned = king or (color == "W" and target <= 4) or (color == "B" and target >= 29)
    pieces[target] = (color, crowned)

    def listing(c):
        return ",".join(("K" if k else "") + str(s)
                        for s, (col, k) in sorted(pieces.items()) if col == c)
    other = "B" if side == "W" else "W"
    return f"{other}:W{listing('W')}:B{listing('B')}"


class Game:
    """One self-play game: pydraughts' board plus the moves since its start."""

    def __init__(self):
        self.board = draughts.Board("italian")
        self.moves = []
        self.disagreements = 0

    def push(self, binary, hub_move, theirs):
        if hub_move in theirs:
            self.board.push(draughts.Move(self.board, hub_move=hub_move))
            self.moves.append(hub_move)
            return
        # pydraughts does not know this (FID-legal) move: restart from the next position.
        self.disagreements += 1
        self.board = draughts.Board("italian", fen=play_after(self.board.fen, hub_move))
        self.moves = []


def search_args(limit, clock):
    if limit.get("movetime") is not None:
        return {"movetime": limit["movetime"]}
    return {"my_time": clock, "inc": limit["inc"], "moves_left": limit.get("moves")}


def play_game(engine, binary, limit):
    """Plays to the end (or MAX_PLIES); returns (result, plies, max used/clock)."""
    game = Game()
    clocks = {draughts.WHITE: limit.get("time"), draughts.BLACK: limit.get("time")}
    worst = 0.0
    for ply in range(MAX_PLIES):
        ours = our_moves(binary, game.board.fen)
        if not ours:
            return ("0-1" if game.board.turn == draughts.WHITE else "1-0"), ply, worst, game
        theirs = {canonical(m.hub_move) for m in game.board.legal_moves()}
        turn = game.board.turn
        start = time.monotonic()
        best, _ponder = engine.go(game.board._game.initial_hub_fen, moves=" ".join(game.moves),
                                  **search_args(limit, clocks[turn]))
        used = time.monotonic() - start
        best = canonical(best)
        if best not in ours:
            fail(f"illegal move {best} in {game.board.fen}; legal: {sorted(ours)}")
        if clocks[turn] is not None:
            worst = max(worst, used / clocks[turn])
            # Behaviour, not speed: an engine that ignores its clock overshoots by far more
            # than a loaded machine's scheduling delays (time use is measured by the ignored
            # measurement tests in tests/hub.rs instead).
            if used > clocks[turn] + 5.0:
                fail(f"ignored its clock: {used:.3f} s with {clocks[turn]:.3f} s on the clock")
            clocks[turn] += limit["inc"] - used
        game.push(binary, best, theirs)
    return "*", MAX_PLIES, worst, game


def main():
    if len(sys.argv) != 2:
        fail("usage: test_pydraughts.py <damiera binary>")
    binary = sys.argv[1]
    logging.getLogger("pydraughts").addHandler(Recorder())
    started = time.monotonic()
    # The last two set Damiera's MultiPV extension: more info lines, same protocol.
    limits = [
        ([binary], {"time": 2.0, "inc": 0.05}, {}),
        ([binary, "hub"], {"movetime": 0.04}, {}),
        ([binary, "hub"], {"time": 1.5, "inc": 0.1, "moves": 20}, {"multipv": "1"}),
        ([binary, "hub"], {"movetime": 0.04}, {"multipv": "3"}),
    ]
    for command, limit, options in limits:
        engine = HubEngine(command)
        if "italian" not in engine.variants:
            fail(f"no italian variant declared: {engine.variants}")
        if "multipv" not in engine.options:
            fail(f"no multipv parameter declared: {engine.options}")
        engine.configure({"variant": "italian", "tt-size": "16", **options})
        engine.init()
        engine.ping()
        result, plies, worst, game = play_game(engine, binary, limit)
        engine.quit()
        status = engine.p.wait(timeout=30)
        engine.p.stdin.close()
        engine.p.stdout.close()
        if status != 0:
            fail(f"engine exit status {status}")
        # Only the MultiPV extension adds the key (pydraughts keeps the last info line).
        if ("multipv" in engine.info) != (options.get("multipv") == "3"):
            fail(f"{options}: unexpected info {engine.info}")
        print(f"{limit} {options}: {result} after {plies} plies, max used/clock {worst:.3f}, "
              f"pydraughts disagreements {game.disagreements}")
    if WARNINGS:
        fail(f"pydraughts warnings: {WARNINGS}")
    print(f"ok in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
