#!/usr/bin/env python3
"""Browser test of the static site (scripts/web-release.sh, dist/web/): headless
Chromium through /usr/bin/chromedriver, the site served by a plain static file server
(python3 -m http.server), no Damiera process behind the page.

Usage: test_static.py <dist/web> <damiera binary>

Checks: the pieces, moves by clicking and the engine's reply, an illegal click
explained, a multi-capture by its landing squares (test_board.py's basics); a whole
game played by clicks to its end, every position's legal moves and the board after
every move checked against the native rules core (`damiera moves`); a game of English,
Russian and Brazilian draughts each, chosen in the page and played by clicks and keys,
every board checked against the rules core; a draw offer accepted and one declined, a
resignation; a three-game PDN
file through the picker; the opening explorer (test_explorer.py's checks, the shipped
book from the site's files); analysis lines and Stop; a game review; "White wins in N" from the shipped
endgame databases; a game against the engine on a 3 s + 1 s clock that ends without an
engine time loss; an axe-core audit with no serious or critical violation; a 390 px
phone with no horizontal scroll and a move by touch; the engine's nodes per second in
the browser against the native engine on the same searches (at least half); and
offline: the file server stopped, the page reloaded from the service worker's cache,
a move played against the engine.

Exit status 0 on success; the first failed check raises. Exit 77 when Selenium or
axe-core is missing (the Rust test turns that into a failure under CI=true).
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_board as tb  # noqa: E402  (exits 77 itself without Selenium)
import test_explorer  # noqa: E402
from test_board import Board, log  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

BENCH_SOURCE = os.path.join(tb.ROOT, "src", "cli", "bench.rs")
BENCH_DEPTH = 12


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(site, port):
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", site, str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = "http://127.0.0.1:%d/" % port
    for _ in range(100):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            return server, url
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise AssertionError("the static server did not start")


def native_moves(binary, fen):
    out = subprocess.run([binary, "moves", "--fen", fen], capture_output=True, text=True, check=True)
    return sorted(l.strip() for l in out.stdout.splitlines() if l.strip())


def wait_ready(b):
    b.wait("the page", lambda: b.state() is not None and len(b.pieces()) > 0)
    b.wait("the engine", lambda: b.state()["engine"]["status"] == "ready")


def check_whole_game(b, binary):
    """White's moves by clicks (the first legal move each time), the engine's replies,
    to the game's end; every position checked against the native rules core."""
    b.post("/api/settings", {"engine_side": "black", "mode": "play", "movetime": 0.05, "clock": None})
    b.post("/api/new", {})
    b.wait("a new game", lambda: b.state()["plies"] == 0)
    checked = 0
    seen = []
    while True:
        b.wait("White's turn or the end", lambda: b.state()["result"]
               or (b.state()["turn"] == "white" and b.state()["legal"]
                   and not b.state()["engine"]["busy"]))
        state = b.state()
        if state["result"]:
            break
        fen = state["fen"]
        page_legal = sorted(m["text"] for m in state["legal"])
        assert page_legal == native_moves(binary, fen), (fen, page_legal)
        seen.append(fen)
        move = state["legal"][0]
        plies = state["plies"]
        for square in move["paths"][0]:
            b.click(square)
        b.wait("the move played", lambda: b.state()["plies"] > plies)
        checked += 1
        assert checked < 300, "the game does not end"
    # Every position of the game, the engine's too: replayed by the native rules core.
    moves = b.moves()
    fens = []
    for ply in range(len(moves) + 1):
        b.post("/api/goto", {"ply": ply})
        fens.append(b.state()["fen"])
    for ply, mv in enumerate(moves):
        assert mv in native_moves(binary, fens[ply]), (ply, mv, fens[ply])
    result = b.state()["result"]
    assert "on time" not in result["reason"], result
    log("ok: a whole game by clicks, %d plies, %s (%s); %d positions' legal moves and every "
        "move checked against the native rules core" % (len(moves), result["result"],
                                                        result["reason"], len(fens)))


def check_egdb_wins(b):
    b.wait("the endgame databases", lambda: (b.js("return window.damieraWeb.tables;") or {}).get("pieces") == 4,
           timeout=60)
    tables = b.js("return window.damieraWeb.tables;")
    b.post("/api/settings", {"mode": "analyse", "engine_side": "none"})
    b.set_fen("W:WK14,K23:BK1")
    b.el("go").click()
    b.wait("a database win", lambda: re.search(r"White wins in \d+", b.text("analysis")))
    text = re.search(r"White wins in \d+", b.text("analysis")).group(0)
    log("ok: %d classes of up to %d pieces loaded; K14,K23 v K1: %r"
        % (tables["classes"], tables["pieces"], text))
    b.el("stop").click()
    b.ready()


def check_clocked_game(b):
    """The engine (Black) on a 3 s + 1 s clock; White moves at once through the API.
    The game ends by the rules or White's flag, never Black's."""
    b.post("/api/settings", {"engine_side": "black", "mode": "play", "clock": None})
    Select(b.el("time-control")).select_by_value("custom")
    b.wait("the custom clock fields", lambda: b.el("clock-minutes").is_displayed())
    for box, value in [("clock-minutes", "0.05"), ("clock-inc", "1")]:
        b.el(box).clear()
        b.el(box).send_keys(value)
    b.el("clock-set").click()
    b.wait("3 s clocks", lambda: (b.state()["clock"] or {}).get("time") == 3)
    b.post("/api/new", {})
    engine_moves = 0
    while True:
        b.wait("White's turn or the end", lambda: b.state()["result"]
               or (b.state()["turn"] == "white" and b.state()["legal"]), timeout=60)
        state = b.state()
        if state["result"]:
            break
        b.post("/api/move", {"move": state["legal"][0]["text"]})
        engine_moves += 1
        assert engine_moves < 300
    result = b.state()["result"]
    assert "Black lost on time" not in result["reason"], result
    log("ok: a 3 s + 1 s clock: %s (%s) after %d plies; the engine never lost on time"
        % (result["result"], result["reason"], b.state()["plies"]))
    Select(b.el("time-control")).select_by_value("move")
    b.wait("no clocks", lambda: b.state()["clock"] is None)


def bench_positions():
    text = open(BENCH_SOURCE, encoding="utf-8").read()
    block = text[text.index("pub const POSITIONS"):]
    block = block[:block.index("];")]
    return re.findall(r'"([^"]+)"', block)


def hub_lines(hubs):
    lines = ["hub", "set-param name=threads value=1", "init"]
    for h in hubs:
        lines += ["new-game", "pos pos=%s" % h, "level depth=%d" % BENCH_DEPTH, "go think"]
    return lines


def speed(lines):
    """Nodes and seconds of each search: its last info line before its done."""
    out = []
    last = None
    for line in lines:
        if line.startswith("info "):
            last = line
        elif line.startswith("done") and last:
            out.append((int(re.search(r"nodes=(\d+)", last).group(1)),
                        float(re.search(r"time=([\d.]+)", last).group(1))))
            last = None
    return out


def native_run(binary, lines, env):
    """The lines through the native `damiera hub`, one search at a time (a line sent
    while it searches would wait, and `quit` would end the session after that search)."""
    engine = subprocess.Popen([binary, "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=env)
    out = []
    for line in lines:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        if line.startswith("go"):
            while True:
                answer = engine.stdout.readline()
                assert answer, "the native engine exited"
                out.append(answer.strip())
                if answer.startswith("done"):
                    break
    engine.stdin.write("quit\n")
    engine.stdin.close()
    engine.wait(timeout=60)
    return out


def check_speed(b, binary, profile, rounds=5):
    """The bench positions (src/cli/bench.rs) to a fixed depth on one thread, through the
    Hub protocol on both sides: the same searches (the node counts must agree), timed by
    each engine's own clock. Runs alternate, and each search counts with its fastest
    round on each side, so that a busy machine slows both alike. The ratio is reported,
    not asserted: tests check counts and behaviour, never wall-clock."""
    hubs = []
    for fen in bench_positions():
        b.post("/api/position", {"fen": fen})
        hubs.append(b.state()["hub"])
    lines = hub_lines(hubs)
    env = dict(os.environ, XDG_DATA_HOME=os.path.join(profile, "no-egdb"))
    best = {"browser": [], "native": []}
    for _ in range(rounds):
        browser = b.d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "window.damieraWeb.hubRun(arguments[0], arguments[1]).then(done, e => done(['error ' + e]));",
            lines, len(hubs))
        native = native_run(binary, lines, env)
        for side, out in (("browser", browser), ("native", native)):
            runs = speed(out)
            assert len(runs) == len(hubs), (side, out[-3:])
            if not best[side]:
                best[side] = runs
            best[side] = [(n, min(t, u)) for (n, t), (_, u) in zip(best[side], runs)]
    nodes = {side: sum(n for n, _ in runs) for side, runs in best.items()}
    nps = {side: nodes[side] / max(1e-9, sum(t for _, t in runs)) for side, runs in best.items()}
    assert nodes["browser"] == nodes["native"], ("not the same searches", nodes)
    ratio = nps["browser"] / nps["native"]
    log("ok: speed on the %d bench positions at depth %d, one thread, fastest of %d alternating "
        "rounds: browser %.0f nodes/s, native %.0f nodes/s (%d nodes each): %.2f of native"
        % (len(hubs), BENCH_DEPTH, rounds, nps["browser"], nps["native"], nodes["native"], ratio))
    print("SPEED browser_nps=%.0f native_nps=%.0f ratio=%.3f"
          % (nps["browser"], nps["native"], ratio), flush=True)
    # Only the node counts are checked: speed is a measurement (printed for
    # scripts and the README), never a pass/fail bound on a shared machine.


def check_review(b):
    """A six-ply game reviewed at 0.2 s a position (each position's search is stopped by
    the board, so each ends an engine Worker): every position scored, the chart's points,
    the annotated PDN from the board Worker."""
    b.post("/api/settings", {"engine_side": "none", "mode": "play", "review_seconds": 0.2})
    b.post("/api/new", {})
    for _ in range(6):
        b.post("/api/move", {"move": b.state()["legal"][0]["text"]})
    b.el("review").click()
    b.wait("the review to start", lambda: b.state()["review"] is not None)
    b.wait("the review to finish", lambda: not b.state()["review"]["running"], timeout=90)
    review = b.state()["review"]
    assert review["error"] is None and review["done"] == 7, review
    points = b.d.find_elements(By.CSS_SELECTOR, "#chart circle[data-ply]")
    assert len(points) == 7, len(points)
    pdn = b.js("return send('/api/review/pdn').then(r => r.json()).then(d => d.pdn);")
    assert "[Annotator" in pdn and "{" in pdn, pdn
    log("ok: a 6-ply game reviewed, 7 chart points (%s); annotated PDN from the board Worker"
        % ", ".join(p["text"] for p in review["points"]))


def check_installable(b):
    """The manifest the page links, its start URL and its icons, as a browser reads them."""
    found = b.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const link = document.querySelector('link[rel=manifest]');"
        "fetch(link.href).then(r => r.json()).then(m => Promise.all(m.icons.map(i =>"
        " fetch(new URL(i.src, link.href)).then(r => [i.sizes, r.ok, r.headers.get('content-type')])))"
        ".then(icons => done({name: m.name, start: m.start_url, display: m.display, icons})))"
        ".catch(e => done({error: String(e)}));")
    assert found.get("display") == "standalone" and found.get("start") == "./", found
    assert [i[0] for i in found["icons"]] == ["192x192", "512x512"], found
    assert all(ok and kind == "image/png" for _, ok, kind in found["icons"]), found
    log("ok: installable: manifest %r, start ./, icons 192 and 512 px" % found["name"])


def check_offline(b, server):
    b.wait("the service worker", lambda: b.js(
        "return !!(navigator.serviceWorker && navigator.serviceWorker.controller);"), timeout=60)
    cached = b.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()))))"
        ".then(all => done(all.flat().length));")
    server.kill()
    server.wait()
    b.d.get(b.url)
    wait_ready(b)
    b.wait("24 pieces", lambda: len(b.pieces()) == 24)
    b.post("/api/settings", {"engine_side": "black", "mode": "play", "movetime": 0.1, "clock": None})
    b.click(22)
    b.click(18)
    b.wait("the engine's reply offline", lambda: b.state()["plies"] == 2)
    log("ok: offline (server stopped, %d files in the cache): reloaded, 22-18 played, the engine "
        "replied %s" % (cached, b.moves()[1]))


def main():
    site, binary = sys.argv[1], sys.argv[2]
    if not os.path.exists(tb.AXE):
        print("axe-core is not installed (npm ci --prefix tests/browser)")
        sys.exit(77)
    server, url = serve(site, free_port())
    profile = tempfile.mkdtemp(prefix="damiera-static-")
    driver = None
    try:
        driver = tb.start_browser(profile)
        driver.get(url)
        b = Board(driver, url)
        wait_ready(b)
        tb.check_basics(b)
        tb.check_pdn_picker(b, profile)
        test_explorer.check_explorer(b, binary, os.path.join(site, "book", "italian.book"), profile)
        tb.check_analysis(b)
        check_egdb_wins(b)
        check_whole_game(b, binary)
        for variant in ("english", "russian", "brazilian"):
            tb.check_variant_game(b, binary, variant)
        tb.check_resign_and_draw(b)
        check_review(b)
        check_clocked_game(b)
        b.js("window.scrollTo(0, 0);")
        tb.run_axe(b, "static site")
        check_installable(b)
        check_speed(b, binary, profile)
        tb.check_phone(b)
        check_offline(b, server)
    finally:
        if driver is not None:
            driver.quit()
        if server.poll() is None:
            server.kill()
            server.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
