#!/usr/bin/env python3
"""Damka perft, written plainly as a second implementation to check Damiera's against.

Damka (draughts as commonly played in Israel), as this file reads the rules:

- an 8x8 board, a1 dark at White's lower left; squares named a1..h8, or numbered
  a1 = 1, c1 = 2, ..., h8 = 32 (counted from White's side, as Russian PDN does);
- White moves first; men step one square diagonally forward;
- capturing is compulsory, and a chain goes on while it can;
- a man's first jump goes forward, the later jumps of its chain in any direction;
- a man that reaches the last row is crowned, and if that happens during a capture the
  move ends there;
- kings fly: they move along a whole diagonal and capture a piece at any distance with
  free squares between, landing on any free square beyond it, but on one from which the
  capture goes on if there is such a square;
- taken pieces leave the board at the end of the move, so until then they block and
  are not jumped twice; any capture may be chosen (free choice).

House rules, each a flag (docs/variants.md, "House rules"):

- `--no-compulsory-capture`: the quiet moves are legal beside the captures;
- `--huffing`: so too, and a quiet move played while a capture was possible removes,
  at its end, the mover's piece that could have captured: the piece that moved (where it
  landed) if it could, else the one that could take the most pieces, the lowest square
  number on a tie;
- `--stop-chain`: a capture may end at any landing (a flying king's on any free square
  behind the piece it took);
- `--last-man-backward`: a side's only man may also step one square backward;
- `--men-forward-only`: men never capture backward.

Nothing is shared with Damiera: no bitboards, no tables, plain coordinates (column,
row), a1 = (0, 0). `distinct` counts each move (from, to, captured set) once, `paths`
every capture path (each sequence of landing squares).

    damka_perft.py DEPTH [--fen FEN] [--paths] [--HOUSE-RULE ...]

prints one line per depth: `depth count`.
"""

import sys

DIRECTIONS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]

# The house rules in force, by flag name without the dashes.
HOUSE = set()
HOUSE_RULES = ["no-compulsory-capture", "huffing", "stop-chain", "last-man-backward",
               "men-forward-only"]


def on_board(c, r):
    return 0 <= c < 8 and 0 <= r < 8


def square_of_name(text):
    """(column, row) of `c3` or of a number 1..32 (a1 = 1, c1 = 2, ..., h8 = 32)."""
    text = text.strip()
    if text.isdigit():
        n = int(text)
        if not 1 <= n <= 32:
            raise ValueError("no square %r" % text)
        row = (n - 1) // 4
        col = 2 * ((n - 1) % 4) + (1 if row % 2 == 1 else 0)
        return (col, row)
    col = ord(text[0].lower()) - ord("a")
    row = int(text[1:]) - 1
    if not on_board(col, row) or (col + row) % 2 != 0:
        raise ValueError("no dark square %r" % text)
    return (col, row)


def name_of(square):
    c, r = square
    return "%s%d" % (chr(ord("a") + c), r + 1)


def parse_fen(fen):
    """A position: (side to move 'W' or 'B', {square: piece}) with pieces 'w', 'b',
    'W', 'B' (upper case a king)."""
    parts = fen.strip().split(":")
    side = parts[0].upper()
    board = {}
    for part in parts[1:]:
        if not part:
            continue
        color = part[0].upper()
        for word in part[1:].split(","):
            word = word.strip()
            if not word:
                continue
            king = word[0].upper() == "K"
            if king:
                word = word[1:]
            if "-" in word:
                a, b = word.split("-")
                names = [str(n) for n in range(int(a), int(b) + 1)]
            else:
                names = [word]
            for name in names:
                piece = color.lower()
                if king:
                    piece = color.upper()
                board[square_of_name(name)] = piece
    return side, board


def is_king(piece):
    return piece.isupper()


def owner(piece):
    return piece.upper()


def forward_directions(side):
    if side == "W":
        return [(1, 1), (-1, 1)]
    return [(1, -1), (-1, -1)]


def last_row(side):
    if side == "W":
        return 7
    return 0


def king_can_capture(board, side, start, square, captured):
    """Whether a king on `square` could take one more piece (the moving piece's own
    start square counts as free)."""
    for dc, dr in DIRECTIONS:
        c, r = square[0] + dc, square[1] + dr
        while on_board(c, r) and ((c, r) == start or (c, r) not in board):
            c, r = c + dc, r + dr
        if not on_board(c, r):
            continue
        piece = board[(c, r)]
        if owner(piece) == side or (c, r) in captured:
            continue
        beyond = (c + dc, r + dr)
        if on_board(*beyond) and (beyond == start or beyond not in board):
            return True
    return False


def free(board, start, square):
    return on_board(*square) and (square == start or square not in board)


def man_captures(board, side, start, square, captured, path, out):
    """Every capture path of a man from `square`, `captured` taken so far."""
    if captured and "men-forward-only" not in HOUSE:
        directions = DIRECTIONS
    else:
        directions = forward_directions(side)
    stop = "stop-chain" in HOUSE
    went_on = False
    for dc, dr in directions:
        middle = (square[0] + dc, square[1] + dr)
        landing = (square[0] + 2 * dc, square[1] + 2 * dr)
        if middle not in board or middle in captured or middle == start:
            continue
        if owner(board[middle]) == side:
            continue
        if not free(board, start, landing):
            continue
        went_on = True
        taken = captured + [middle]
        if landing[1] == last_row(side):
            # Crowned during the capture: the move ends there.
            out.append((start, landing, frozenset(taken), path + [landing], True))
        else:
            if stop:
                out.append((start, landing, frozenset(taken), path + [landing], False))
            man_captures(board, side, start, landing, taken, path + [landing], out)
    if not went_on and captured and not stop:
        out.append((start, square, frozenset(captured), path, False))


def king_captures(board, side, start, square, captured, path, out):
    """Every capture path of a king from `square`."""
    went_on = False
    for dc, dr in DIRECTIONS:
        c, r = square[0] + dc, square[1] + dr
        while free(board, start, (c, r)):
            c, r = c + dc, r + dr
        if not on_board(c, r):
            continue
        victim = (c, r)
        if owner(board[victim]) == side or victim in captured:
            continue
        landings = []
        c, r = c + dc, r + dr
        while free(board, start, (c, r)):
            landings.append((c, r))
            c, r = c + dc, r + dr
        if not landings:
            continue
        taken = captured + [victim]
        if "stop-chain" in HOUSE:
            # Stopping, the king may land on any free square behind.
            for landing in landings:
                out.append((start, landing, frozenset(taken), path + [landing], False))
        onward = [l for l in landings if king_can_capture(board, side, start, l, taken)]
        if onward:
            landings = onward
        for landing in landings:
            went_on = True
            king_captures(board, side, start, landing, taken, path + [landing], out)
    if not went_on and captured and "stop-chain" not in HOUSE:
        out.append((start, square, frozenset(captured), path, False))


def capture_paths(side, board):
    out = []
    for square, piece in sorted(board.items()):
        if owner(piece) != side:
            continue
        if is_king(piece):
            king_captures(board, side, square, square, [], [square], out)
        else:
            man_captures(board, side, square, square, [], [square], out)
    return out


def quiet_moves(side, board):
    out = []
    for square, piece in sorted(board.items()):
        if owner(piece) != side:
            continue
        if is_king(piece):
            for dc, dr in DIRECTIONS:
                c, r = square[0] + dc, square[1] + dr
                while on_board(c, r) and (c, r) not in board:
                    out.append((square, (c, r), frozenset(), [square, (c, r)], False))
                    c, r = c + dc, r + dr
        else:
            for dc, dr in forward_directions(side):
                to = (square[0] + dc, square[1] + dr)
                if on_board(*to) and to not in board:
                    out.append((square, to, frozenset(), [square, to], to[1] == last_row(side)))
    return out


def last_man_steps(side, board):
    """The backward steps of the side's only man (last-man-backward)."""
    men = [sq for sq, p in board.items() if p == side.lower()]
    if len(men) != 1:
        return []
    square = men[0]
    out = []
    for dc, dr in forward_directions("B" if side == "W" else "W"):
        to = (square[0] + dc, square[1] + dr)
        if on_board(*to) and to not in board:
            out.append((square, to, frozenset(), [square, to], False))
    return out


def number_of(square):
    """The square's number: a1 = 1, c1 = 2, ..., h8 = 32."""
    return square[1] * 4 + square[0] // 2 + 1


def huffed_piece(captures, move):
    """The piece a quiet move huffs: the mover where it lands if it could capture, else
    the piece that could take the most, the lowest number on a tie."""
    most = {}
    for capture in captures:
        most[capture[0]] = max(most.get(capture[0], 0), len(capture[2]))
    if move[0] in most:
        return move[1]
    return min(most, key=lambda sq: (-most[sq], number_of(sq)))


def legal_paths(side, board):
    """Every legal move path: the captures if there are any, else the quiet moves (both,
    where the house rules make captures optional). A quiet move is a 6-tuple when it
    huffs: its last item the square of the piece removed."""
    captures = capture_paths(side, board)
    optional = "no-compulsory-capture" in HOUSE or "huffing" in HOUSE
    if captures and not optional:
        return captures
    quiet = quiet_moves(side, board)
    if "last-man-backward" in HOUSE:
        quiet += last_man_steps(side, board)
    if captures and "huffing" in HOUSE:
        quiet = [m + (huffed_piece(captures, m),) for m in quiet]
    return captures + quiet


def distinct_moves(paths):
    """One path for each distinct (from, to, captured set)."""
    seen = {}
    for move in paths:
        key = (move[0], move[1], move[2])
        if key not in seen:
            seen[key] = move
    return list(seen.values())


def play(side, board, move):
    start, to, captured = move[0], move[1], move[2]
    after = dict(board)
    piece = after.pop(start)
    for square in captured:
        del after[square]
    if not is_king(piece) and to[1] == last_row(side):
        piece = piece.upper()
    after[to] = piece
    if len(move) == 6:
        del after[move[5]]
    other = "B" if side == "W" else "W"
    return other, after


def key_of(side, board):
    return (side, tuple(sorted(board.items())))


def perft(side, board, depth, paths, memo):
    if depth == 0:
        return 1
    key = (key_of(side, board), depth)
    if key in memo:
        return memo[key]
    moves = legal_paths(side, board)
    if depth == 1 and paths:
        total = len(moves)
    else:
        distinct = distinct_moves(moves)
        if depth == 1:
            total = len(distinct)
        else:
            weight = {}
            for move in moves:
                k = (move[0], move[1], move[2])
                weight[k] = weight.get(k, 0) + 1
            total = 0
            for move in distinct:
                side2, board2 = play(side, board, move)
                n = perft(side2, board2, depth - 1, paths, memo)
                if paths:
                    # Each path to the same result position counts: paths multiply.
                    n *= weight[(move[0], move[1], move[2])]
                total += n
    memo[key] = total
    return total


def main(argv):
    fen = "W:W1-12:B21-32"
    paths = False
    depth = None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--fen":
            fen = args.pop(0)
        elif a == "--paths":
            paths = True
        elif a.startswith("--") and a[2:] in HOUSE_RULES:
            HOUSE.add(a[2:])
        elif a == "--moves":
            side, board = parse_fen(fen)
            for move in sorted(legal_paths(side, board)):
                sep = ":" if move[2] else "-"
                huff = " huffs " + name_of(move[5]) if len(move) == 6 else ""
                print(sep.join(name_of(s) for s in move[3]), "crowned" if move[4] else "", huff)
            return 0
        else:
            depth = int(a)
    if depth is None:
        print(__doc__)
        return 2
    side, board = parse_fen(fen)
    memo = {}
    for d in range(1, depth + 1):
        print(d, perft(side, board, d, paths, memo), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
