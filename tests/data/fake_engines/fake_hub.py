#!/usr/bin/env python3
"""Stand-in Hub engine for the match runner tests.

Usage: fake_hub.py <damiera binary> [mode] [seed]

Modes (what happens at `go`):
  random   play a uniformly random legal move (from `damiera moves --format hub`)
  crash    exit with status 3
  hang     never answer
  illegal  answer `done move=1-2` (never a legal move)
  garbage  print a non-protocol line, then a `done` line with a broken quote
"""
import random
import re
import subprocess
import sys
import time

START = "W" + "b" * 12 + "e" * 8 + "w" * 12


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def apply(pos, move):
    """Plays a Hub-form move on a 33-character Hub position string."""
    board = list(pos)
    if "-" in move:
        parts = move.split("-")
    else:
        parts = move.split("x")
    src, dst = int(parts[0]), int(parts[1])
    piece = board[src]
    board[src] = "e"
    for cap in parts[2:]:
        board[int(cap)] = "e"
    if piece == "w" and dst <= 4:
        piece = "W"
    if piece == "b" and dst >= 29:
        piece = "B"
    board[dst] = piece
    board[0] = "B" if board[0] == "W" else "W"
    return "".join(board)


def set_position(line):
    m = re.search(r"pos=(\S+)", line)
    pos = m.group(1) if m else START
    m = re.search(r'moves="([^"]*)"', line)
    for move in (m.group(1).split() if m else []):
        pos = apply(pos, move)
    return pos


def go(binary, mode, pos):
    if mode == "crash":
        sys.exit(3)
    if mode == "hang":
        time.sleep(3600)
    if mode == "illegal":
        say("done move=1-2")
        return
    if mode == "garbage":
        say("hello, I am not a Hub line")
        say('done move="22-18')
        return
    out = subprocess.run(
        [binary, "moves", "--fen", pos, "--format", "hub"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    if not out:
        say("done")
        return
    say("info depth=1 score=0.00")
    say("done move=" + random.choice(out))


def main():
    binary = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "random"
    if len(sys.argv) > 3:
        random.seed(int(sys.argv[3]))
    pos = START
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "hub":
            say("id name=Fake-" + mode + " version=1")
            say("param name=threads value=1 type=int min=1 max=4")
            say("wait")
        elif cmd == "init":
            say("ready")
        elif cmd == "ping":
            say("pong")
        elif cmd == "pos":
            pos = set_position(line)
        elif cmd == "go":
            go(binary, mode, pos)
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
