"""Endgame databases: ``probe(board)`` gives the exact value of a position with few pieces.

Databases are built by the ``damiera`` command (``damiera egdb build --pieces 5``) into the
variant's default directory (``~/.local/share/damiera/egdb``, ``.../egdb/russian``, ...) or
any directory given as ``path``.
"""

import os
from typing import Optional, Union

from ._damiera import Board, Probe
from ._damiera import egdb_probe as _probe

__all__ = ["Probe", "probe"]


def probe(board: Board, path: Union[str, "os.PathLike[str]", None] = None) -> Optional[Probe]:
    """The databases' value of ``board``'s position for the side to move: a ``Probe`` with
    ``result`` (``"win"``, ``"loss"``, ``"draw"``) and ``plies`` to the end under best play,
    or ``None`` when the databases do not hold it. ``FileNotFoundError`` when there are no
    databases of the board's variant (in ``path``, or the default directory)."""
    return _probe(board, None if path is None else str(path))
