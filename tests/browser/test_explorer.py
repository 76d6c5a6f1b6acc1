#!/usr/bin/env python3
"""Browser test of the opening explorer (docs/gui.md), on the web board of `damiera gui`;
test_static.py runs the same checks on the static site.

Usage: test_explorer.py <damiera binary>

Checks, in headless Chromium: the start position's book moves, values and depths as
this test reads them from the shipped book itself (tests/python/read_book.py, a reader
written from docs/book.md); a book move clicked and played; a PDN collection made here
(games of random legal moves from `damiera moves`, random players and results, plus
games the explorer must leave out) loaded through the page, and for the start and the
position after the most played move, each move's games and White-view W/D/L counts and
players equal to a count made here; that move clicked in the games table and played; a
damaged book and a PDN file with no game refused with one line on the page, the
explorer keeping what it had.

Screenshot: target/gui-explorer.png (the games after the most played first move).
Exit status 0 on success; the first failed check raises. Exit 77 without Selenium.
"""
import os
import random
import subprocess
import sys
import tempfile
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_board as tb  # noqa: E402  (exits 77 itself without Selenium)
from test_board import Board, log  # noqa: E402

sys.path.insert(0, os.path.join(tb.ROOT, "tests", "python"))
import read_book  # noqa: E402

START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
PLAYERS = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
RESULTS = ["1-0", "1/2-1/2", "0-1"]


def native_moves(binary, fen, cache):
    """[(path text, FEN after)] of a position, from the native rules core."""
    if fen not in cache:
        out = subprocess.run([binary, "moves", "--fen", fen, "--format", "fen"],
                             capture_output=True, text=True, check=True).stdout
        cache[fen] = [tuple(line.split(" ", 1)) for line in out.splitlines() if line.strip()]
    return cache[fen]


def make_games(binary, count=24, plies=6, seed=46):
    """Games of legal moves (each ply one of the first three moves, so that games
    share their openings), with random players and results."""
    rng = random.Random(seed)
    cache = {}
    games = []
    for _ in range(count):
        fen, moves = START, []
        for _ in range(plies):
            options = native_moves(binary, fen, cache)
            if not options:
                break
            mv, fen = rng.choice(options[:3])
            moves.append(mv)
        white, black = rng.sample(PLAYERS, 2)
        games.append({"white": white, "black": black, "result": rng.choice(RESULTS),
                      "moves": moves})
    return games, cache


def pdn_of(games, extra):
    out = []
    for g in games:
        text = " ".join(("%d. %s" % (i // 2 + 1, m)) if i % 2 == 0 else m
                        for i, m in enumerate(g["moves"]))
        out.append('[White "%s"]\n[Black "%s"]\n[Result "%s"]\n\n%s %s\n'
                   % (g["white"], g["black"], g["result"], text, g["result"]))
    return "\n".join(out) + "\n" + extra


# Games the explorer leaves out: no result, another game type, an illegal move.
LEFT_OUT = ('[White "Nix"]\n[Black "Nil"]\n[Result "*"]\n\n1. 22-18 *\n\n'
            '[GameType "21"]\n[White "Eng"]\n[Black "Lish"]\n[Result "1-0"]\n\n1. 11-15 1-0\n\n'
            '[White "Bad"]\n[Black "Move"]\n[Result "1-0"]\n\n1. 22-10 1-0\n')


def expected(games, prefix):
    """The next moves after `prefix` with (games, 1-0, 1/2, 0-1, listed players)."""
    rows = {}
    for number, g in enumerate(games, 1):
        if g["moves"][:len(prefix)] != prefix or len(g["moves"]) <= len(prefix):
            continue
        row = rows.setdefault(g["moves"][len(prefix)], [0, 0, 0, 0, []])
        row[0] += 1
        row[1 + RESULTS.index(g["result"])] += 1
        row[4].append("%d. %s \u2013 %s, %s" % (number, g["white"], g["black"], g["result"]))
    return {m: (r[0], r[1], r[2], r[3], r[4][:12]) for m, r in rows.items()}


def shown_games(b):
    """The games table as the page shows it."""
    rows = b.js(
        "return [...document.querySelectorAll('#game-moves tbody tr')].map(tr => {"
        " const c = [...tr.children].map(td => td.textContent);"
        " const li = [...tr.querySelectorAll('li.explorer-game')].map(l => l.textContent);"
        " return [c[0], +c[1], +c[2], +c[3], +c[4], li]; });")
    return {r[0]: tuple(r[1:5]) + (r[5],) for r in rows}


def shown_book(b):
    return b.js("return [...document.querySelectorAll('#book-moves tbody tr')]"
                ".map(tr => [...tr.children].map(td => td.textContent));")


def check_book(b, book_path):
    """The start position's book moves against the book file read here."""
    game, entries = read_book.read_book(book_path)
    side, pieces = read_book.parse_fen(START)
    want = sorted((read_book.move_text(game, f, t, c), v) for f, t, c, flags, v
                  in entries.get(read_book.book_key(game, side, pieces), []))
    assert want, "the shipped book knows the start"
    b.wait("the default book's moves", lambda: len(shown_book(b)) == len(want))
    ex = b.state()["explorer"]
    got = sorted((m["hub"], round(m["value"] * 100)) for m in ex["book"]["moves"])
    assert got == want, (got, want)
    rows = shown_book(b)
    assert [r[0] for r in rows] == [m["text"] for m in ex["book"]["moves"]], rows
    values = [m["value"] for m in ex["book"]["moves"]]
    assert values == sorted(values, reverse=True), values
    assert all(r[2].isdigit() and int(r[2]) > 0 for r in rows), rows
    log("ok: the start's %d book moves, values and depths are the book file's" % len(want))
    best = rows[0][0]
    b.d.find_element(tb.By.CSS_SELECTOR, '#book-moves button[data-move="%s"]' % best).click()
    b.wait("the book move played (%s; shown %r)" % (best, b.moves()), lambda: b.moves() == [best])
    log("ok: book move %s clicked and played" % best)
    b.post("/api/takeback", {})
    b.wait("the start again", lambda: b.state()["plies"] == 0)


def upload(b, element_id, path):
    b.el(element_id).send_keys(path)


def check_games(b, binary, folder):
    games, cache = make_games(binary)
    path = os.path.join(folder, "collection.pdn")
    with open(path, "w", encoding="utf-8") as f:
        f.write(pdn_of(games, LEFT_OUT))
    upload(b, "games-file", path)
    b.wait("the collection", lambda: (b.state()["explorer"]["games"] or {}).get("total") == len(games))
    assert "%d games of Italian draughts (3 left out" % len(games) in b.text("message"), b.text("message")
    want = expected(games, [])
    b.wait("the start's games", lambda: shown_games(b) == want)
    log("ok: a %d-game collection (3 left out) loaded; the start's %d moves and their "
        "W/D/L counts are the test's own" % (len(games), len(want)))
    first = max(want, key=lambda m: want[m][0])
    b.d.find_element(tb.By.CSS_SELECTOR, '#game-moves button[data-move="%s"]' % first).click()
    b.wait("the games' move played", lambda: b.moves() == [first])
    after = dict(native_moves(binary, START, cache))[first]
    assert b.state()["board"] == tb.board_of(after), (b.state()["fen"], after)
    want = expected(games, [first])
    b.wait("the games after %s" % first, lambda: shown_games(b) == want)
    log("ok: %s clicked and played; the %d replies and their counts are the test's own"
        % (first, len(want)))
    b.js("document.getElementById('explorer').scrollIntoView();")
    b.screenshot("explorer")
    return len(games)


def check_refusals(b, folder, total):
    bad_book = os.path.join(folder, "bad.book")
    with open(bad_book, "wb") as f:
        f.write(b"DBOOK8x8" + bytes(40))
    before = b.state()["explorer"]
    upload(b, "book-file", bad_book)
    b.wait("the bad book refused", lambda: b.text("message").startswith("book bad.book: "))
    message = b.text("message")
    assert "\n" not in message and b.state()["explorer"] == before, message
    log("ok: a damaged book refused in one line: %s" % message)
    bad_pdn = os.path.join(folder, "nothing.pdn")
    with open(bad_pdn, "w") as f:
        f.write("this is not PDN [[[ 1. 99-98\n")
    upload(b, "games-file", bad_pdn)
    b.wait("the bad PDN refused", lambda: b.text("message").startswith("nothing.pdn: no game"))
    message = b.text("message")
    assert "\n" not in message and b.state()["explorer"]["games"]["total"] == total, message
    log("ok: a PDN file with no game refused in one line: %s" % message)


def check_explorer(b, binary, book_path, folder):
    """Every check above, from a new game; the page is left with a new game, the engine
    playing Black (the default) and no collection."""
    b.post("/api/new", {})
    b.wait("a new game", lambda: b.state()["plies"] == 0 and b.state()["board"] == tb.board_of(START))
    b.engine_side("none")
    check_book(b, book_path)
    total = check_games(b, binary, folder)
    check_refusals(b, folder, total)
    b.post("/api/explorer", {"games": None})
    b.post("/api/new", {})
    b.engine_side("black")


def main():
    binary = sys.argv[1]
    server, url = tb.start_server(binary, None)
    profile = tempfile.mkdtemp(prefix="damiera-chromium-")
    driver = None
    try:
        driver = tb.start_browser(profile)
        driver.get(url)
        b = Board(driver, url)
        b.wait("the page", lambda: b.state() is not None)
        book = os.path.join(tb.ROOT, "crates", "engine", "src", "book", "italian.book")
        check_explorer(b, binary, book, profile)
    finally:
        if driver is not None:
            driver.quit()
        server.kill()
        server.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
