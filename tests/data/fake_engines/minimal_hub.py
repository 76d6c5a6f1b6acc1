#!/usr/bin/env python3
"""A minimal, correct Hub engine for Italian draughts, with no Damiera code and none
of Damiera's extensions: its own move generator (FID rules, capture priority
Art. 6.9), one-ply material search, plain `info depth=N score=S pv=...` lines.

Usage: minimal_hub.py

Commands: hub, init, set-param, new-game, pos, level, go [think|ponder|analyze],
stop, ping, quit. It declares one parameter of each protocol type (bool, int, real,
enum, string), which change nothing but are checked: a bad name or value is an
`error` line, as the protocol asks. `go think` answers after a short pause (a fraction of move-time);
`go analyze` sends an info line every 0.2 s with a growing depth until `stop`.
Stdin is read by a thread, so `stop` and `ping` are served during a search.
"""
import queue
import random
import re
import sys
import threading
import time

START = "W" + "b" * 12 + "e" * 8 + "w" * 12


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def rc(n):
    """Row and column of square n (1..32): square 1 is top-left."""
    row = (n - 1) // 4
    return row, 2 * ((n - 1) % 4) + row % 2


SQUARE = {}
for _n in range(1, 33):
    SQUARE[rc(_n)] = _n


def step(n, dr, dc, k=1):
    r, c = rc(n)
    return SQUARE.get((r + k * dr, c + k * dc))


def directions(piece):
    if piece == "w":
        return [(-1, -1), (-1, 1)]
    if piece == "b":
        return [(1, -1), (1, 1)]
    return [(-1, -1), (-1, 1), (1, -1), (1, 1)]


def own(piece, side):
    return piece != "e" and (piece.lower() == "w") == (side == "W")


def captures_from(board, sq, piece, taken, path):
    """Every maximal capture sequence of `piece` starting on `sq`:
    (path, captured squares in order)."""
    out = []
    for dr, dc in directions(piece):
        over = step(sq, dr, dc)
        land = step(sq, dr, dc, 2)
        if over is None or land is None or over in taken:
            continue
        victim = board[over]
        if victim == "e" or own(victim, "W" if piece.lower() == "w" else "B"):
            continue
        if piece in "wb" and victim in "WB":
            continue  # a man never captures a king
        if board[land] != "e" and land != path[0]:
            continue
        crowned = piece == "w" and rc(land)[0] == 0 or piece == "b" and rc(land)[0] == 7
        more = [] if crowned else captures_from(board, land, piece, taken + [over], path + [land])
        if more:
            out.extend(more)
        else:
            out.append((path + [land], taken + [over]))
    return out


def legal_moves(pos):
    """Moves as (hub text, path list, captured list, is_king)."""
    side, board = pos[0], " " + pos[1:]
    caps, quiet = [], []
    for sq in range(1, 33):
        piece = board[sq]
        if not own(piece, side):
            continue
        b = list(board)
        b[sq] = "e"
        for path, taken in captures_from(b, sq, piece, [], [sq]):
            kings = [t for t in taken if board[t] in "WB"]
            first_king = min([i for i, t in enumerate(taken) if board[t] in "WB"], default=99)
            key = (len(taken), piece in "WB", len(kings), -first_king)
            caps.append((key, path, taken))
        for dr, dc in directions(piece):
            to = step(sq, dr, dc)
            if to is not None and board[to] == "e":
                quiet.append(("%d-%d" % (sq, to), [sq, to], []))
    if caps:
        best = max(c[0] for c in caps)
        moves = {}
        for key, path, taken in caps:
            if key == best:
                text = "x".join(str(s) for s in [path[0], path[-1]] + sorted(taken))
                moves[text] = (text, path, taken)
        return list(moves.values())
    return quiet


def play(pos, move):
    side, board = pos[0], list(" " + pos[1:])
    text, path, taken = move
    piece = board[path[0]]
    board[path[0]] = "e"
    for t in taken:
        board[t] = "e"
    to = path[-1]
    if piece == "w" and rc(to)[0] == 0:
        piece = "W"
    if piece == "b" and rc(to)[0] == 7:
        piece = "B"
    board[to] = piece
    return ("B" if side == "W" else "W") + "".join(board[1:])


def parse_move(pos, text):
    for m in legal_moves(pos):
        if m[0] == text or "x".join(map(str, m[1])) == text:
            return m
        parts = text.split("x")
        if len(parts) > 2 and m[0].split("x")[:2] == parts[:2] and \
                sorted(m[0].split("x")[2:]) == sorted(parts[2:]):
            return m
    raise ValueError("illegal move " + text)


def material(pos):
    board = pos[1:]
    white = board.count("w") + 3 * board.count("W")
    black = board.count("b") + 3 * board.count("B")
    return white - black if pos[0] == "W" else black - white


def best_move(pos):
    moves = legal_moves(pos)
    scored = [(-material(play(pos, m)), random.random(), m) for m in moves]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored[0]


def set_position(line):
    m = re.search(r"pos=(\S+)", line)
    pos = m.group(1) if m else START
    m = re.search(r'moves="([^"]*)"', line)
    for text in (m.group(1).split() if m else []):
        pos = play(pos, parse_move(pos, text))
    return pos


def search(pos, mode, movetime, lines):
    """Runs one search; returns the commands that arrived and must still be handled."""
    if not legal_moves(pos):
        say("done")
        return []
    score, _, move = best_move(pos)
    pending = []
    started = time.time()
    depth = 1
    while True:
        say("info depth=%d score=%.2f nodes=%d pv=\"%s\"" % (depth, score, 10 * depth, move[0]))
        if mode != "analyze" and time.time() - started >= min(movetime / 4, 0.3):
            break
        try:
            line = lines.get(timeout=0.2 if mode == "analyze" else 0.05)
        except queue.Empty:
            depth += 1
            continue
        word = line.split()[0] if line.split() else ""
        if word == "stop" or word == "quit":
            if word == "quit":
                pending.append(line)
            break
        if word == "ping":
            say("pong")
        else:
            pending.append(line)
    say("done move=" + move[0])
    return pending


# One parameter of each type: name -> (declaration, check of a value).
PARAMS = {
    "book": ('value=true type=bool', lambda v: v in ("true", "false")),
    "noise": ('value=0 type=int min=0 max=100', lambda v: v.isdigit() and int(v) <= 100),
    "contempt": ('value=0 type=real min=-1 max=1', lambda v: re.fullmatch(r"-?[0-9.]+", v) is not None and -1 <= float(v) <= 1),
    "mood": ('value=calm type=enum values="calm wild"', lambda v: v in ("calm", "wild")),
    "motto": ('value="" type=string', lambda v: True),
}


def set_param(line):
    m = re.search(r'name=(\S+)', line)
    v = re.search(r'value=("[^"]*"|\S*)', line)
    name = m.group(1) if m else ""
    value = v.group(1).strip('"') if v else ""
    if name not in PARAMS:
        say('error message="set-param: unknown parameter %s"' % name)
    elif not PARAMS[name][1](value):
        say('error message="set-param: bad value %s for %s"' % (value, name))


def main():
    lines = queue.Queue()

    def reader():
        for line in sys.stdin:
            lines.put(line)
        lines.put("quit")

    threading.Thread(target=reader, daemon=True).start()
    pos, movetime, backlog = START, 1.0, []
    while True:
        line = backlog.pop(0) if backlog else lines.get()
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "hub":
            say("id name=Minimal version=1")
            for name, (decl, _) in PARAMS.items():
                say("param name=%s %s" % (name, decl))
            say("wait")
        elif cmd == "set-param":
            set_param(line)
        elif cmd == "init":
            say("ready")
        elif cmd == "ping":
            say("pong")
        elif cmd == "pos":
            try:
                pos = set_position(line)
            except (ValueError, IndexError) as e:
                say('error message="pos: %s"' % e)
        elif cmd == "level":
            m = re.search(r"move-time=([0-9.]+)", line)
            movetime = float(m.group(1)) if m else 1.0
        elif cmd == "go":
            mode = words[1] if len(words) > 1 else "think"
            backlog.extend(search(pos, mode, movetime, lines))
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
