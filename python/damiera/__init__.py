"""Damiera for Python: Italian, English, Russian and Brazilian draughts.

The rules, PDN and the engine are Damiera's (Rust), run in process::

    import damiera
    board = damiera.Board("italian")
    board.push("22-19")
    print(board.legal_moves)
    with damiera.Engine("italian") as engine:
        info = engine.analyse(board, depth=10)
        print(info["score"], info["pv"])

Submodules: ``damiera.pdn`` (read and write PDN), ``damiera.egdb`` (endgame databases),
``damiera.batch`` (games played in Rust, as NumPy arrays, for training data).
"""

from ._damiera import (ACTIONS, BLACK, VARIANTS, WHITE, Board, Engine, LegalMoves, Limit,
                       Move, Outcome, PlayResult, Score, square_name)
from . import batch, egdb, pdn

__all__ = ["ACTIONS", "BLACK", "VARIANTS", "WHITE", "Board", "Engine", "LegalMoves", "Limit",
           "Move", "Outcome", "PlayResult", "Score", "square_name", "batch", "egdb", "pdn"]
