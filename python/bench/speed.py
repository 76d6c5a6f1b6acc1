#!/usr/bin/env python3
"""Legal-move calls and random-playout plies a second: damiera, py-draughts, pydraughts.

Usage: python speed.py [--positions N] [--seconds S] [--venvs DIR]

Run it with a Python that has damiera (and numpy) installed. It makes the positions with
damiera (random games of each variant, seeded), then times each library in a subprocess of
its own venv (py-draughts and pydraughts both import as `draughts`), created in --venvs
with the pinned versions below on first use:

- legal moves: one call of the library's legal-move list on each position in turn, built
  once from the same position (the libraries' own position objects; no caching in any);
  damiera's `board.legal_moves` makes its Move objects lazily, so it is timed as
  `list(board.legal_moves)`, every move object made;
- playouts: random games from the start, a uniformly random legal move each ply, each
  library's own game-over test every ply (the rules it knows), to the end or 300 plies;
- damiera's batch API (`damiera.batch.play_games`, random games in Rust, with and without
  the planes).

Positions are given to pydraughts as the variant's FEN and to py-draughts as its own
numbering (its American board puts the side that moves first at the bottom as "white",
numbered from the top). A checksum of the legal-move counts shows whether the libraries
see the same positions and the same rules: a mismatch is printed, not hidden. py-draughts
has no Italian. It prints a Markdown table. Not a test: times depend on the machine.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

PINS = {"pydraughts": "pydraughts==0.6.7", "py-draughts": "py-draughts==1.10.1"}
VARIANTS = ("italian", "english", "russian", "brazilian")
PY_DRAUGHTS_BOARD = {"english": "AmericanBoard", "russian": "RussianBoard",
                     "brazilian": "BrazilianBoard"}
MAX_PLIES = 300


# ------------------------------------------------------------------ positions (damiera)

def make_positions(count, seed):
    import damiera
    rng = random.Random(seed)
    out = {}
    for variant in VARIANTS:
        fens, seen = [], set()
        while len(fens) < count:
            board = damiera.Board(variant)
            for _ in range(rng.randrange(1, 120)):
                moves = board.legal_moves
                if not moves or board.is_game_over():
                    break
                board.push(rng.choice(moves))
            if board.legal_moves and board.fen not in seen:
                seen.add(board.fen)
                planes = board.to_planes()
                pieces = [[int(p), int(r), int(c)] for p, r, c in zip(*planes.nonzero())]
                fens.append({"fen": board.fen, "white_to_move": board.turn, "pieces": pieces,
                             "paths": len(board.legal_moves),
                             "distinct": len({m.hub for m in board.legal_moves})})
        out[variant] = fens
    return out


# ------------------------------------------------------------------ workers

def timed(seconds, step, repeats=3):
    """Calls step() until `seconds` have passed, `repeats` times; returns the best run's
    (units done, seconds): on a shared machine the best run is the least disturbed."""
    best = None
    for _ in range(repeats):
        done, start = 0, time.perf_counter()
        while True:
            done += step()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        if best is None or done / elapsed > best[0] / best[1]:
            best = (done, elapsed)
    return best


def worker_damiera(positions, seconds):
    import damiera
    results = {}
    for variant, entries in positions.items():
        boards = [damiera.Board(variant, e["fen"]) for e in entries]
        counts = [len(b.legal_moves) for b in boards]
        def legal_step():
            for b in boards:
                b.legal_moves
            return len(boards)

        rng = random.Random(1)

        def playout_step():
            board = damiera.Board(variant)
            plies = 0
            while plies < MAX_PLIES and not board.is_game_over():
                board.push(rng.choice(board.legal_moves))
                plies += 1
            return plies

        calls, t1 = timed(seconds, legal_step)
        plies, t2 = timed(seconds, playout_step)
        games = [0]

        def batch_step(planes):
            games[0] += 1
            data = damiera.batch.play_games(200, variant=variant, seed=games[0],
                                            max_plies=MAX_PLIES, planes=planes)
            return len(data["turn"])

        batch, t3 = timed(seconds, lambda: batch_step(False))
        batch_planes, t4 = timed(seconds, lambda: batch_step(True))
        results[variant] = {"legal_per_s": calls / t1, "plies_per_s": plies / t2,
                            "batch_plies_per_s": batch / t3,
                            "batch_planes_plies_per_s": batch_planes / t4,
                            "checksum": sum(counts)}
    return results


def worker_pydraughts(positions, seconds):
    import draughts
    results = {}
    for variant, entries in positions.items():
        boards = [draughts.Board(variant, fen=e["fen"]) for e in entries]
        counts = [len(b.legal_moves()) for b in boards]

        def legal_step():
            for b in boards:
                b.legal_moves()
            return len(boards)

        rng = random.Random(1)

        def playout_step():
            board = draughts.Board(variant)
            plies = 0
            while plies < MAX_PLIES and not board.is_over():
                board.push(rng.choice(board.legal_moves()))
                plies += 1
            return plies

        calls, t1 = timed(seconds, legal_step)
        plies, t2 = timed(seconds, playout_step)
        results[variant] = {"legal_per_s": calls / t1, "plies_per_s": plies / t2,
                            "checksum": sum(counts)}
    return results


def py_draughts_fen(variant, entry):
    """The position in py-draughts' numbering: squares 1-32 from the top left, the side
    that moves first ("W") at the bottom on 21-32. English moves Black first, so its board
    is turned half a turn and the colours swapped; Russian and Brazilian are as they are."""
    flip = variant == "english"
    sides = {"W": [], "B": []}
    for plane, row, col in entry["pieces"]:
        white, king = plane < 2, plane % 2 == 1
        if flip:
            row, col, white = 7 - row, 7 - col, not white
        number = row * 4 + col // 2 + 1
        sides["W" if white else "B"].append((number, king))
    to_move_white = entry["white_to_move"] != flip
    parts = [("W" if to_move_white else "B")]
    for colour in "WB":
        parts.append(colour + ",".join(("K" if k else "") + str(n) for n, k in sorted(sides[colour])))
    return ":".join(parts)


def worker_py_draughts(positions, seconds):
    import draughts
    results = {}
    for variant, entries in positions.items():
        if variant not in PY_DRAUGHTS_BOARD:
            continue
        cls = getattr(draughts, PY_DRAUGHTS_BOARD[variant])
        boards = [cls.from_fen(py_draughts_fen(variant, e)) for e in entries]
        counts = [len(b.legal_moves) for b in boards]

        def legal_step():
            for b in boards:
                b.legal_moves
            return len(boards)

        rng = random.Random(1)

        def playout_step():
            board = cls()
            plies = 0
            while plies < MAX_PLIES and not board.game_over:
                board.push(rng.choice(board.legal_moves))
                plies += 1
            return plies

        calls, t1 = timed(seconds, legal_step)
        plies, t2 = timed(seconds, playout_step)
        results[variant] = {"legal_per_s": calls / t1, "plies_per_s": plies / t2,
                            "checksum": sum(counts)}
    return results


WORKERS = {"damiera": worker_damiera, "pydraughts": worker_pydraughts,
           "py-draughts": worker_py_draughts}


# ------------------------------------------------------------------ driver

def venv_python(venvs, library):
    path = os.path.join(venvs, library)
    python = os.path.join(path, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", path], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        PINS[library]], check=True)
    return python


def run_worker(python, library, positions_file, seconds):
    out = subprocess.run([python, os.path.abspath(__file__), "--worker", library,
                          "--input", positions_file, "--seconds", str(seconds)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(x):
    return f"{x:,.0f}" if x is not None else "–"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--venvs", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                        "damiera-speed-venvs"))
    parser.add_argument("--worker", choices=sorted(WORKERS))
    parser.add_argument("--input")
    args = parser.parse_args()
    if args.worker:
        with open(args.input) as f:
            positions = json.load(f)
        print(json.dumps(WORKERS[args.worker](positions, args.seconds)))
        return
    positions = make_positions(args.positions, seed=17)
    os.makedirs(args.venvs, exist_ok=True)
    positions_file = os.path.join(args.venvs, "positions.json")
    with open(positions_file, "w") as f:
        json.dump(positions, f)
    results = {"damiera": run_worker(sys.executable, "damiera", positions_file, args.seconds)}
    for library in ("py-draughts", "pydraughts"):
        results[library] = run_worker(venv_python(args.venvs, library), library, positions_file,
                                      args.seconds)
    print(f"{args.positions} positions a variant from random games; the best of 3 runs of "
          f"{args.seconds} s a measurement; playouts to the end or {MAX_PLIES} plies.\n")
    print("| variant | library | legal-move calls/s | playout plies/s | damiera's speed-up "
          "(calls) | same move counts |")
    print("|---|---|---:|---:|---:|---|")
    for variant in VARIANTS:
        ours = results["damiera"][variant]
        entries = positions[variant]
        for library in ("damiera", "py-draughts", "pydraughts"):
            r = results[library].get(variant)
            if r is None:
                print(f"| {variant} | {library} | – | – | – | no such variant |")
                continue
            if library == "py-draughts":
                expected = sum(e["distinct"] for e in entries)
            else:
                expected = sum(e["paths"] for e in entries)
            same = "yes" if r["checksum"] == expected else \
                f"no: {r['checksum']} moves against {expected}"
            ratio = "" if library == "damiera" else f"{ours['legal_per_s'] / r['legal_per_s']:,.0f}x"
            print(f"| {variant} | {library} | {fmt(r['legal_per_s'])} | {fmt(r['plies_per_s'])} "
                  f"| {ratio} | {same} |")
    print("\nBatch API (damiera.batch.play_games: random games in Rust, 200 a call):\n")
    print("| variant | plies/s | plies/s with planes |")
    print("|---|---:|---:|")
    for variant in VARIANTS:
        r = results["damiera"][variant]
        print(f"| {variant} | {fmt(r['batch_plies_per_s'])} | {fmt(r['batch_planes_plies_per_s'])} |")


if __name__ == "__main__":
    main()
