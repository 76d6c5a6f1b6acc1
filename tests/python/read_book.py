"""A second reader of Damiera's opening book format (docs/book.md), written from the
document alone, standard library only.

Usage: read_book.py BOOK FEN...

For each FEN (PDN FEN in the book's game numbering: "W:W21-32:B1-12", kings as K18;
in the games named algebraically, Russian, Brazilian, Czech, Thai and Damka, squares may
also be named "W:Wa1,c1:Bh8,Kb6", a1 = 1, c1 = 2, ..., h8 = 32) prints one line: the position's book key in hex, then its book moves in Hub text, each
as move=value (hundredths of a man, "-" without a value), sorted by move text. Exits
with status 1 and one line on stderr when the file is not a sound book.
"""

import struct
import sys

MASK = (1 << 64) - 1
GAMES = {21: "english", 22: "italian", 23: "pool", 24: "spanish", 25: "russian",
         26: "brazilian", 29: "czech", 31: "thai", 42: "damka"}
ALGEBRAIC = {"russian", "brazilian", "czech", "thai", "damka"}
GAME_ORDER = ["english", "italian", "russian", "brazilian", "pool", "czech", "spanish", "thai",
              "damka"]


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def key_table():
    state, keys = 0xB00CD8A900000001, []
    for _ in range(138):
        state, k = splitmix64(state)
        keys.append(k)
    return keys


K = key_table()


def fnv1a(data):
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def read_book(path):
    data = open(path, "rb").read()
    if len(data) < 32 or data[:8] != b"DBOOK8x8":
        raise ValueError("not a book file")
    version, game, size, count, checksum = struct.unpack_from("<HHIQQ", data, 8)
    if version != 1 or size != 32 or game not in GAMES:
        raise ValueError("unknown version, entry size or game")
    body = data[32:]
    if len(body) != 32 * count or fnv1a(body) != checksum:
        raise ValueError("damaged book")
    entries = {}
    last = None
    for i in range(count):
        key, frm, to, flags, depth, captured, value, search, n, w, l = struct.unpack_from(
            "<QBBBBIhhIII", body, 32 * i
        )
        order = (key, frm, to, captured, flags & 1)
        if last is not None and order <= last:
            raise ValueError("entries out of order")
        last = order
        entries.setdefault(key, []).append((frm, to, captured, flags, value))
    return GAMES[game], entries


def square_number(text):
    """The number of a square named "17" or, algebraically, "c3" (a1 = 1, ..., h8 = 32)."""
    if text[:1].isalpha():
        col, rank = ord(text[0].lower()) - ord("a"), int(text[1:])
        if not (0 <= col < 8 and 1 <= rank <= 8 and (col + rank) % 2 == 1):
            raise ValueError("not a dark square: %r" % text)
        return (rank - 1) * 4 + col // 2 + 1
    return int(text)


def square_name(game, n):
    """Square `n` as the game's move text names it: its number, or a1 ... h8."""
    if game not in ALGEBRAIC:
        return str(n)
    rank = (n - 1) // 4 + 1
    col = 2 * ((n - 1) % 4) + (rank + 1) % 2
    return "%s%d" % (chr(ord("a") + col), rank)


def parse_fen(fen):
    """Side to move and the pieces {(kind, square number)} of a PDN FEN."""
    fields = fen.strip().split(":")
    side = fields[0].strip().upper()
    pieces = []
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        colour, rest = field[0].upper(), field[1:]
        for item in filter(None, rest.split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            lo, _, hi = item.partition("-")
            for n in range(square_number(lo), square_number(hi or lo) + 1):
                kind = (0 if colour == "W" else 1) + (2 if king else 0)
                pieces.append((kind, n))
    return side, pieces


def book_key(game, side, pieces):
    key = K[129 + GAME_ORDER.index(game)]
    if side == "B":
        key ^= K[128]
    for kind, n in pieces:
        key ^= K[32 * kind + n - 1]
    return key


def move_text(game, frm, to, captured):
    """Hub move text: from-to, or fromxto then x and each captured square, ascending."""
    frm, to = square_name(game, frm), square_name(game, to)
    if captured == 0:
        return "%s-%s" % (frm, to)
    caps = [square_name(game, n) for n in range(1, 33) if captured >> (n - 1) & 1]
    return "x".join([frm, to] + caps)


def main():
    try:
        game, entries = read_book(sys.argv[1])
    except (OSError, ValueError, struct.error) as e:
        print("book %s: %s" % (sys.argv[1], e), file=sys.stderr)
        return 1
    for fen in sys.argv[2:]:
        side, pieces = parse_fen(fen)
        key = book_key(game, side, pieces)
        moves = []
        for frm, to, captured, flags, value in entries.get(key, []):
            shown = str(value) if flags & 2 else "-"
            moves.append("%s=%s" % (move_text(game, frm, to, captured), shown))
        print("%016x %s" % (key, " ".join(sorted(moves))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
