"""PDN files in and out, with Damiera's recovering reader.

``read(source)`` takes a path, an open file, bytes or PDN text and reads every game it can:
a game with a fault of certain meaning is repaired (and says so in its ``warnings``), any
other is skipped and named in the reading's ``warnings``; a bad game never costs the file.
``write(games)`` gives PDN text of ``Game`` records or ``Board`` games.
"""

import os
from typing import IO, Iterable, Union

from ._damiera import pdn_read_bytes as _read_bytes
from ._damiera import pdn_write as _write

from ._damiera import Board, Game, Reading

__all__ = ["Game", "Reading", "read", "write"]


def read(source: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[str], IO[bytes]],
         variant: str = "italian") -> Reading:
    """Reads PDN from a path (``str`` or ``os.PathLike``), an open file (text or binary),
    ``bytes``, or PDN text (a ``str`` with a newline or a ``[`` or a move number is text,
    another ``str`` a path). A game without a ``GameType`` tag is of ``variant``.

    Returns a ``Reading``: ``games`` (each with ``tags``, ``moves``, ``result``,
    ``warnings`` and ``board()``), ``warnings``, ``skipped``, ``repaired``, ``summary``.
    """
    data: bytes
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif hasattr(source, "read"):
        content = source.read()
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and _is_path(source)):
        with open(source, "rb") as f:
            data = f.read()
    elif isinstance(source, str):
        data = source.encode("utf-8")
    else:
        raise ValueError(f"cannot read PDN from a {type(source).__name__}")
    return _read_bytes(data, variant)


def _is_path(text: str) -> bool:
    stripped = text.strip()
    if not stripped or "\n" in stripped or stripped.startswith("[") or stripped[0].isdigit():
        return False
    return True


def write(games: Union[Board, Game, Iterable[Union[Board, Game]]],
          path: Union[str, "os.PathLike[str]", None] = None) -> str:
    """PDN text of ``games`` (``damiera.pdn.Game`` records, or ``Board`` objects whose
    games are recorded with their result and ``FEN`` when they do not start at the start);
    also written to ``path`` when given."""
    records = [games] if isinstance(games, (Board, Game)) else list(games)
    text = _write(records)
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text
