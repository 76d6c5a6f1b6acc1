#!/usr/bin/env python3
"""Copies a network file (.dmn) for another game: the same integers, another variant word.

A network reads only the pieces and the side to move, so a game whose quiet positions are
worth what another's are can play that game's network. Brazilian's built-in network is
Russian's, relabelled (the two games differ only in Brazilian's rule that a capture takes
the most pieces):

    python3 scripts/nnue/relabel.py crates/engine/src/search/eval/russian.dmn brazilian \
        -o crates/engine/src/search/eval/brazilian.dmn

The layout is crates/engine/src/search/eval/nnue_file.rs's: bytes 0..8 the magic, 8..12 the
format version, 12..20 the FNV-1a (64 bits) of everything from byte 20, 20..24 the game
(its PDN GameType). Only the game and the checksum change. Standard library only.
"""

import argparse
import struct
import sys

MAGIC = b"DMRANNUE"
GAME_TYPES = {
    "english": 21, "italian": 22, "pool": 23, "spanish": 24, "russian": 25,
    "brazilian": 26, "czech": 29, "thai": 31, "damka": 42,
}
MASK64 = (1 << 64) - 1


def checksum(body):
    """FNV-1a (64 bits), as nnue_file.rs checks it."""
    h = 0xCBF29CE484222325
    for byte in body:
        h = ((h ^ byte) * 0x100000001B3) & MASK64
    return h


def relabel(data, game, path):
    """`data` (a whole .dmn file) with its game set to `game`; a file that is not a sound
    network is refused with one line naming what is wrong."""
    if len(data) < 24 or data[:8] != MAGIC:
        sys.exit(f"{path}: not a Damiera network file")
    if struct.unpack("<Q", data[12:20])[0] != checksum(data[20:]):
        sys.exit(f"{path}: damaged network file (checksum differs)")
    body = struct.pack("<I", GAME_TYPES[game]) + data[24:]
    return data[:12] + struct.pack("<Q", checksum(body)) + body


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("network", help="the network file to copy (.dmn)")
    ap.add_argument("game", choices=sorted(GAME_TYPES), help="the game the copy is for")
    ap.add_argument("-o", "--output", required=True, help="the file to write (.dmn)")
    args = ap.parse_args()
    try:
        with open(args.network, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit(f"{args.network}: {e.strerror}")
    out = relabel(data, args.game, args.network)
    try:
        with open(args.output, "wb") as f:
            f.write(out)
    except OSError as e:
        sys.exit(f"{args.output}: {e.strerror}")


if __name__ == "__main__":
    main()
