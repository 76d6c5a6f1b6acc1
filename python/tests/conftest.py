"""Shared helpers of the damiera package's tests.

A test whose tool is missing (the `damiera` binary, pydraughts) says so loudly and is
skipped; under CI=true it fails instead, so CI never passes by skipping.
"""

import os
import random
import sys
import tempfile
from pathlib import Path

# Hypothesis keeps its files (.hypothesis/) out of the clone.
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY",
                      os.path.join(tempfile.gettempdir(), "damiera-hypothesis"))

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
REFERENCE_SCRIPTS = REPO / "tests" / "python"


def missing(what):
    """Skips the test (fails it under CI=true) because `what` is missing."""
    message = f"SKIPPED LOUDLY: {what}"
    print(message, file=sys.stderr)
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true: a skipped test fails)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def damiera_bin():
    """The `damiera` command-line binary: $DAMIERA_BIN, else the repo's target/release."""
    path = os.environ.get("DAMIERA_BIN") or str(REPO / "target" / "release" / "damiera")
    if not os.access(path, os.X_OK):
        missing(f"no damiera binary at {path} (cargo build --release, or set DAMIERA_BIN)")
    return path


@pytest.fixture(scope="session")
def pydraughts_reference():
    """tests/python's pydraughts helpers (variant_common), imported with pydraughts."""
    try:
        import draughts  # noqa: F401
    except ImportError:
        missing("pydraughts is not installed (pip install -r python/requirements-test.txt)")
    sys.path.insert(0, str(REFERENCE_SCRIPTS))
    import variant_common
    return variant_common


def random_positions(damiera, variant, count, seed, max_plies=120):
    """`count` distinct positions (FEN) met in random games of `variant` from the start,
    each game cut at a random ply, none of them finished."""
    rng = random.Random(seed)
    seen, out = set(), []
    while len(out) < count:
        board = damiera.Board(variant)
        for _ in range(rng.randrange(max_plies)):
            moves = board.legal_moves
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            if board.fen not in seen and board.legal_moves and rng.random() < 0.3:
                seen.add(board.fen)
                out.append(board.fen)
                if len(out) == count:
                    break
    return out
