"""Games played entirely in Rust, returned as NumPy arrays: training data without Python
in the loop.

``play_games(n)`` plays ``n`` games of random legal moves (or, with ``nodes=``, the engine's
moves at that many nodes after ``random_plies`` random ones), each to the end the
variant's rules give (no legal move, repetition, move limit, ending rules) or ``max_plies``.
Deterministic for a ``seed``.
"""

from typing import Any, Dict, Optional

from ._damiera import random_games_raw as _raw

__all__ = ["play_games"]


def play_games(games: int, variant: str = "italian", seed: int = 0, max_plies: int = 400,
               nodes: Optional[int] = None, random_plies: int = 0, hash_mib: int = 16,
               planes: bool = True) -> Dict[str, Any]:
    """Plays ``games`` games and returns a dict of NumPy arrays.

    Per position where a move was played (``N`` of them, games one after another):

    - ``planes``: (N, 4, 8, 8) uint8, as ``Board.to_planes()`` (only with ``planes=True``);
    - ``pieces``: (N, 4) uint32, white men, white kings, black men, black kings, bit ``n-1``
      for the square numbered ``n`` in the variant's numbering;
    - ``turn``: (N,) uint8, 1 when White is to move;
    - ``action``: (N,) uint32, the move played as ``Move.action`` (a capture by its first
      path);
    - ``game``, ``ply``: (N,) uint32, which game and which ply;
    - ``value``: (N,) int8, the game's result for the side to move (1 win, -1 loss, 0 draw
      or unfinished).

    Per game: ``results`` (int8, 1 White won, -1 Black won, 0 drawn or cut at
    ``max_plies``), ``lengths`` (uint32 plies), ``finished`` (bool: ended by the rules).
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    return _raw(games, variant, seed, max_plies, nodes, random_plies, hash_mib, planes)
