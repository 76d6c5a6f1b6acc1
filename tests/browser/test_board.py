#!/usr/bin/env python3
"""Browser test of the web board: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium through /usr/bin/chromedriver; nothing is
downloaded. axe-core comes from tests/browser/node_modules (npm ci, see .ci/run).

Usage: test_board.py <damiera binary> [--engine CMD]

Starts `damiera gui --no-open` on a free port and checks, in a real browser:
the pieces, a move by clicking and the engine's reply, an illegal click explained,
a FEN, a multi-capture by its landing squares, a three-game PDN file through the
picker, analysis and stop, a control for every parameter the engine declares, a
variation kept after going back and playing another move, a game reviewed (a chart
point per ply, a click on a point shows that ply), and an axe-core audit with no
serious or critical violation. With Damiera's own engine also: multipv 3 set in the
settings panel and three lines with their arrows, a proven score as "... wins in N",
the PV preview on hover, the best move announced, a game lost on time on a 3 s clock,
a whole game played with the keyboard only, and a 390x844 phone: the whole board in
view, no horizontal scroll, a move by touch. Screenshots: target/gui-*.png
(desktop-damiera, desktop-minimal, analysis, clock, phone, phone-panel).

Exit status 0 on success; the first failed check raises. Exit 77 when Selenium or
axe-core is missing (the Rust test turns that into a failure under CI=true).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("selenium is not installed (pip install -r tests/python/requirements.txt)")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AXE = os.path.join(ROOT, "tests", "browser", "node_modules", "axe-core", "axe.min.js")
TIMEOUT = 30


def log(text):
    print(text, flush=True)


def start_server(binary, engine):
    cmd = [binary, "gui", "--no-open"]
    if engine:
        cmd += ["--engine", engine]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    m = re.search(r"http://\S+", line)
    if not m:
        server.kill()
        raise AssertionError("no URL in the server's first line: %r" % line)
    return server, m.group(0)


def start_browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--user-data-dir=" + profile]:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Board:
    """The page under test, with the helpers the checks share."""

    def __init__(self, driver, url):
        self.d = driver
        self.url = url

    def el(self, element_id):
        return self.d.find_element(By.ID, element_id)

    def text(self, element_id):
        return self.el(element_id).text

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def state(self):
        """The page's copy of the server state (a global `let` of app.js)."""
        return self.js("return st;")

    def wait(self, what, cond, timeout=TIMEOUT):
        try:
            return WebDriverWait(self.d, timeout, poll_frequency=0.05).until(lambda d: cond())
        except Exception as e:
            log("wait failed: %r" % e)
            raise AssertionError("timed out waiting for %s (message %r, engine %r, result %r, moves %r)"
                                 % (what, self.text("message"), self.text("engine-status"),
                                    self.text("result"), self.moves()))

    def post(self, path, body):
        """A request from inside the page (same origin), for setup only; through the
        page's own transport (`send`: fetch, or the static site's Worker)."""
        return self.js(
            "return send(arguments[0], {method: 'POST', headers: {'Content-Type': "
            "'application/json'}, body: JSON.stringify(arguments[1])}).then(r => r.json())"
            ".then(d => { if (d.state) setState(d.state); return d; });", path, body)

    def pieces(self):
        found = self.js(
            "return [...document.querySelectorAll('[data-square] > [data-piece]')]"
            ".map(e => [e.parentElement.dataset.square, e.dataset.piece]);")
        return {int(sq): piece for sq, piece in found}

    def click(self, square):
        self.d.find_element(By.CSS_SELECTOR, '#board [data-square="%d"]' % square).click()

    def moves(self):
        """The moves of the line shown, from the move list."""
        return self.js("return [...document.querySelectorAll('#moves .mv.on-line')]"
                       ".map(e => e.firstChild.textContent);")

    def all_moves(self):
        return self.js("return [...document.querySelectorAll('#moves .mv')]"
                       ".map(e => e.firstChild.textContent);")

    def set_fen(self, fen):
        box = self.el("fen")
        # The page rewrites this box on each state it receives: one arriving between
        # clear() and send_keys() leaves the old text in front of the new (a CI run
        # once typed "...12W:WK13,..."). Type until the box holds exactly the FEN.
        for _ in range(10):
            box.clear()
            box.send_keys(fen)
            if box.get_attribute("value") == fen:
                break
        self.el("set-fen").click()
        self.wait("the position " + fen, lambda: self.state()["fen"].split(":")[0] == fen.split(":")[0]
                  and self.state()["plies"] == 0 and self.state()["board"] == board_of(fen))

    def engine_side(self, side):
        Select(self.el("engine-side")).select_by_value(side)
        self.wait("engine side " + side, lambda: self.state()["settings"]["engine_side"] == side)

    def movetime(self, seconds):
        box = self.el("movetime")
        box.clear()
        box.send_keys(str(seconds) + "\t")
        self.wait("the move time", lambda: abs(self.state()["settings"]["movetime"] - seconds) < 1e-9)

    def ready(self):
        self.wait("the engine to be idle", lambda: self.state()["engine"]["status"] == "ready"
                  and not self.state()["engine"]["busy"])

    def screenshot(self, name):
        os.makedirs(os.path.join(ROOT, "target"), exist_ok=True)
        path = os.path.join(ROOT, "target", "gui-%s.png" % name)
        self.d.save_screenshot(path)
        log("ok: screenshot " + path)

    def tab_to(self, predicate_js, what, limit=250):
        """Presses Tab until `predicate_js` (an expression over `e`, the focused
        element) holds: proves the element is reachable by keyboard."""
        for _ in range(limit):
            if self.js("const e = document.activeElement; return !!(%s);" % predicate_js):
                return self.d.switch_to.active_element
            ActionChains(self.d).send_keys(Keys.TAB).perform()
        raise AssertionError("%s cannot be reached with Tab" % what)

    def keys(self, *keys):
        ActionChains(self.d).send_keys(*keys).perform()


def board_of(fen):
    """The 32-letter board string of a simple FEN (W:W..:B.., K for kings, no ranges)."""
    board = ["e"] * 32
    for part in fen.split(":")[1:]:
        color = part[0].lower()
        for sq in filter(None, part[1:].split(",")):
            king = sq.startswith("K")
            n = int(sq.lstrip("K"))
            board[n - 1] = color.upper() if king else color
    return "".join(board)


# ---------------------------------------------------------------- the checks --

def check_basics(b):
    b.wait("24 pieces", lambda: len(b.pieces()) == 24)
    start = b.pieces()
    assert start == {**{s: "b" for s in range(1, 13)}, **{s: "w" for s in range(21, 33)}}, start
    log("ok: 24 pieces on their squares")
    b.wait("the engine", lambda: "ready" in b.text("engine-status"))
    b.movetime(0.2)
    b.click(15)
    b.wait("an explanation", lambda: "empty" in b.text("message"))
    log("ok: illegal input explained: " + b.text("message"))
    b.click(22)
    b.click(18)
    b.wait("the engine's reply", lambda: len(b.moves()) == 2)
    assert b.moves()[0] == "22-18", b.moves()
    log("ok: played 22-18 by clicking, engine replied " + b.moves()[1])
    b.engine_side("none")
    b.set_fen("W:W24:B9,11,12,20")
    assert b.moves() == [], b.moves()
    b.click(24)
    b.click(15)
    b.wait("the capture to go on", lambda: "next landing" in b.text("message"))
    b.click(8)
    b.wait("the multi-capture", lambda: b.moves() == ["24x15x8"])
    assert b.pieces() == {8: "w", 9: "b", 11: "b"}, b.pieces()
    log("ok: multi-capture 24x15x8 chosen by its landing squares")


def check_pdn_picker(b, profile):
    pdn = os.path.join(profile, "three.pdn")
    with open(pdn, "wb") as f:
        f.write(b'[White "Uno"]\r\n\r\n1. 22-18 *\r\n\r\n'
                b'[White "Due"]\r\n[Event "Citt\xe0"]\r\n\r\n1. 22-19 11-15 2. 21-17 *\r\n\r\n'
                b'[White "Tre"]\r\n\r\n1. 23-19 *\r\n')
    b.el("pdn-file").send_keys(pdn)
    picker = b.el("pdn-picker")
    b.wait("the game picker", lambda: picker.get_attribute("open") is not None)
    options = b.js("return [...document.querySelectorAll('#pdn-games option')].map(o => o.textContent);")
    assert len(options) == 3 and options[1].startswith("2. Due - ?, Citt\u00e0"), options
    Select(b.el("pdn-games")).select_by_value("2")
    b.el("pdn-load").click()
    b.wait("game 2 of the file", lambda: b.moves() == ["22-19", "11-15", "21-17"])
    assert picker.get_attribute("open") is None
    log("ok: a 3-game PDN file offers a picker; game 2 loaded")
    b.tab_to("e.id === 'load-pdn'", "Load PDN")
    log("ok: Load PDN is reached with Tab")


def check_pdn_warnings(b):
    """A file with faulty games (tests/data/federation_faults.pdn): the picker lists the
    games read, numbered as in the file, and beside them what was repaired or skipped."""
    pdn = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "federation_faults.pdn")
    b.el("pdn-file").send_keys(os.path.normpath(pdn))
    picker = b.el("pdn-picker")
    b.wait("the game picker", lambda: picker.get_attribute("open") is not None)
    values = b.js("return [...document.querySelectorAll('#pdn-games option')].map(o => o.value);")
    # Game 11 is an English game (GameType 21): read, and refused by name if loaded here.
    assert values == ["1", "2", "3", "4", "5", "6", "8", "9", "11", "12"], values
    warnings = b.js("return [...document.querySelectorAll('#pdn-warnings li')].map(li => li.textContent);")
    assert len(warnings) == 7, warnings
    assert b.el("pdn-warnings-box").is_displayed()
    assert sum("skipped" in w for w in warnings) == 2, warnings
    assert any(w.startswith("game 7, line 67: skipped: move 3 (White)") for w in warnings), warnings
    assert any(w.startswith("game 2, line 14: repaired: tag value ends in a doubled quote") for w in warnings), warnings
    count = b.el("pdn-count").text
    assert "10 games read (5 repaired), 2 skipped" in count, count
    b.screenshot("pdn-warnings")
    Select(b.el("pdn-games")).select_by_value("9")
    b.el("pdn-load").click()
    b.wait("game 9 of the file", lambda: b.moves() == ["3x10x17x26"])
    assert picker.get_attribute("open") is None
    log("ok: a file with faulty games lists %d games and %d warnings; game 9 loaded" % (len(values), len(warnings)))


def check_analysis(b):
    b.set_fen("W:W24:B9,11,12,20")
    b.el("go").click()
    b.wait("a depth line", lambda: "depth" in b.text("analysis"))
    log("ok: analysis line: " + b.text("analysis").splitlines()[0])
    b.el("stop").click()
    b.wait("analysis to stop", lambda: not b.el("stop").is_enabled()
           and "analysing" not in b.text("engine-status"))
    log("ok: analysis stopped")


def check_settings_panel(b, engine):
    b.el("engine-settings").find_element(By.TAG_NAME, "summary").click()
    params = b.state()["engine"]["params"]
    assert params, "the engine declared no parameters"
    expected_tag = {"bool": ("input", "checkbox"), "int": ("input", "number"),
                    "real": ("input", "number"), "enum": ("select", None),
                    "string": ("input", "text")}
    kinds = set()
    for p in params:
        el = b.el("param-" + p["name"])
        tag, kind = expected_tag[p.get("type", "string")]
        assert el.tag_name == tag and (kind is None or el.get_attribute("type") == kind), (p, el.tag_name)
        if p.get("min") is not None:
            assert float(el.get_attribute("min")) == float(p["min"]), p
        label = b.js("return document.querySelector('label[for=\"' + arguments[0] + '\"]').textContent;",
                     "param-" + p["name"])
        assert label.startswith(p["name"]), label
        kinds.add(p.get("type"))
    log("ok: settings panel: %d controls (%s) from the engine's declarations"
        % (len(params), ", ".join(sorted(kinds))))
    if engine:  # the minimal engine declares one parameter of each type
        assert kinds == {"bool", "int", "real", "enum", "string"}, kinds
        Select(b.el("param-mood")).select_by_value("wild")
        b.wait("mood=wild", lambda: any(p["name"] == "mood" and p["value"] == "wild"
                                        for p in b.state()["engine"]["params"]))
        box = b.el("param-noise")
        box.clear()
        box.send_keys("500\t")
        b.wait("the range error", lambda: "out of range" in b.text("message"))
        log("ok: a set-param through the panel; an out-of-range value refused: " + b.text("message"))


def check_multipv(b):
    box = b.el("param-multipv")
    box.clear()
    box.send_keys("3\t")
    b.wait("multipv=3", lambda: any(p["name"] == "multipv" and p["value"] == "3"
                                   for p in b.state()["engine"]["params"]))
    b.post("/api/new", {})
    b.el("go").click()
    b.wait("three analysis lines", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#analysis .line")) == 3)
    # Read in one script: the lines are rebuilt with every info line the engine sends.
    lines = b.js("return [...document.querySelectorAll('#analysis .line')].map(e => e.textContent);")
    assert [l[:2] for l in lines] == ["1.", "2.", "3."], lines
    log("ok: multipv 3 set in the settings panel, three lines:\n    " + "\n    ".join(lines))
    b.wait("three arrows", lambda: len(b.d.find_elements(By.CSS_SELECTOR, "#arrows [data-from][data-to]")) == 3)
    b.wait("the best move announced", lambda: b.text_content("announce").startswith("Best move"))
    log("ok: live region: " + b.text_content("announce"))
    # The rest on still lines: the analysis stopped, its last lines stay on the page.
    b.el("stop").click()
    b.ready()
    best, pv1 = b.js("const g = document.querySelector('#arrows g.best[data-from][data-to]');"
                     "return [g && [Number(g.dataset.from), Number(g.dataset.to)],"
                     " shownLines().find(l => l.multipv === 1).squares[0]];")
    first = b.state()["legal"]
    assert best == [pv1[0], pv1[-1]], (best, pv1)
    assert any(m["from"] == pv1[0] and m["to"] == pv1[-1] for m in first), (pv1, first)
    arrows = b.js("return [...document.querySelectorAll('#arrows g[data-from][data-to]')]"
                  ".map(g => [g.dataset.multipv, g.getAttribute('stroke-width')]);")
    assert sorted(arrows) == [["1", "0.16"], ["2", "0.08"], ["3", "0.08"]], arrows
    log("ok: best-move arrow %d-%d in the DOM, thinner arrows for lines 2 and 3" % tuple(best))
    # The PV played out on the preview board on hover.
    assert not b.el("preview-box").is_displayed(), "the preview board shows before any hover"
    move = b.d.find_element(By.CSS_SELECTOR, '#analysis .line[data-multipv="1"] .pvmove')
    ActionChains(b.d).move_to_element(move).perform()
    b.wait("the preview board", lambda: b.el("preview-box").is_displayed())
    shown = b.js("return [...document.querySelectorAll('#preview .p')].length;")
    assert shown == 24, shown
    log("ok: hovering the PV shows it on the preview board: " + b.text("preview-caption"))
    b.js("window.scrollTo(0, 0);")
    b.screenshot("analysis")
    box = b.el("param-multipv")
    box.clear()
    box.send_keys("1\t")
    b.wait("multipv=1", lambda: any(p["name"] == "multipv" and p["value"] == "1"
                                   for p in b.state()["engine"]["params"]))


def check_proven_score(b):
    b.set_fen("W:W19:B14,6")
    b.el("go").click()
    b.wait("a proven score", lambda: re.search(r"(White|Black) wins in \d+", b.text("analysis")))
    text = re.search(r"(White|Black) wins in \d+", b.text("analysis")).group(0)
    assert text.startswith("White"), text
    assert "wins in" in b.text("evaltext"), b.text("evaltext")
    log("ok: proven score shown as %r" % text)
    b.el("stop").click()
    b.ready()


def check_variation(b):
    b.post("/api/settings", {"engine_side": "none", "mode": "play"})
    b.post("/api/new", {})
    b.wait("the new game", lambda: b.state()["plies"] == 0)
    for frm, to in [(22, 18), (11, 14)]:
        n = len(b.moves())
        b.click(frm)
        b.click(to)
        b.wait("the move", lambda: len(b.moves()) == n + 1)
    b.el("nav-back").click()
    b.wait("ply 1", lambda: b.state()["ply"] == 1)
    b.click(12)
    b.click(16)
    b.wait("the variation", lambda: b.moves() == ["22-18", "12-16"])
    everything = b.all_moves()
    assert "11-14" in everything and "12-16" in everything, everything
    variation = b.js("return [...document.querySelectorAll('#moves .variation .mv')].map(e => e.textContent);")
    assert variation == ["12-16"], variation
    log("ok: going back and playing 12-16 keeps 11-14: move list %s, variation %s" % (everything, variation))
    # Back to the main line by clicking its move; promote the variation through the page.
    b.d.find_element(By.XPATH, "//div[@id='moves']//button[starts-with(., '11-14')]").click()
    b.wait("the main line", lambda: b.moves() == ["22-18", "11-14"])
    b.d.find_element(By.XPATH, "//div[@id='moves']//button[starts-with(., '12-16')]").click()
    b.wait("the variation shown", lambda: b.moves() == ["22-18", "12-16"])
    b.el("promote").click()
    b.wait("the variation promoted", lambda: b.js(
        "return [...document.querySelectorAll('#moves .variation .mv')].map(e => e.textContent);") == ["11-14"])
    log("ok: variation promoted to the main line")


def check_review(b, seconds):
    b.post("/api/settings", {"engine_side": "none", "mode": "play", "review_seconds": seconds})
    b.post("/api/new", {})
    for _ in range(6):  # a short game: the first legal move each time
        b.post("/api/move", {"move": b.state()["legal"][0]["text"]})
    b.wait("the game", lambda: b.state()["plies"] == 6)
    plies = b.state()["plies"]
    b.el("review").click()
    b.wait("the review to start", lambda: b.state()["review"] is not None)
    b.wait("the review to finish", lambda: not b.state()["review"]["running"], timeout=90)
    review = b.state()["review"]
    assert review["error"] is None, review
    points = b.d.find_elements(By.CSS_SELECTOR, "#chart circle[data-ply]")
    assert len(points) == plies + 1, (len(points), plies)
    assert [int(p.get_attribute("data-ply")) for p in points] == list(range(plies + 1))
    log("ok: review done: %d chart points for %d plies (start and after each move); %s"
        % (len(points), plies, b.text("review-status")))
    points[2].click()
    b.wait("ply 2 shown", lambda: b.state()["ply"] == 2)
    current = b.js("return document.querySelector('#moves .mv.current').dataset.ply;")
    assert current == "2", current
    log("ok: clicking the chart's point 2 shows ply 2")
    marks = b.js("return [...document.querySelectorAll('#moves .mv .mark')].map(e => e.textContent);")
    expected = [p["mark"] for p in review["points"] if p["mark"]]
    assert marks == expected, (marks, expected)
    pdn = b.js("return fetch('/api/review/pdn').then(r => r.text());")
    assert "[Annotator" in pdn and "{" in pdn, pdn
    log("ok: %d ?/?? marks in the move list; annotated PDN:\n%s" % (len(marks), pdn.strip()))


def check_clock_loss(b):
    b.post("/api/settings", {"engine_side": "black", "mode": "play"})
    b.post("/api/new", {})
    Select(b.el("time-control")).select_by_value("custom")
    b.wait("the custom clock fields", lambda: b.el("clock-minutes").is_displayed())
    for box, value in [("clock-minutes", "0.05"), ("clock-inc", "0")]:
        b.el(box).clear()
        b.el(box).send_keys(value)
    b.el("clock-set").click()
    b.wait("3 s clocks", lambda: (b.state()["clock"] or {}).get("time") == 3)
    assert b.el("clock-white").is_displayed() and b.el("clock-black").is_displayed()
    b.click(22)
    b.click(18)
    b.wait("the engine's reply", lambda: b.state()["plies"] == 2)
    b.wait("White's flag", lambda: "lost on time" in b.text("result"), timeout=40)
    assert b.text("result").startswith("0-1"), b.text("result")
    clock = b.state()["clock"]
    assert clock["flag"] == "white" and clock["white"] == 0, clock
    log("ok: a 3 s clock: %s (clocks %s / %s)" % (b.text("result"), b.text("clock-white"), b.text("clock-black")))
    pdn = b.js("return fetch('/api/pdn').then(r => r.text());")
    assert '[Result "0-1"]' in pdn and "lost on time" in pdn, pdn
    b.js("window.scrollTo(0, 0);")
    b.screenshot("clock")
    Select(b.el("time-control")).select_by_value("move")
    b.wait("no clocks", lambda: b.state()["clock"] is None)


def square_of_focus(b):
    return b.js("const e = document.activeElement; return e && e.dataset.square ? Number(e.dataset.square) : null;")


def check_keyboard_game(b):
    """A whole game from the keyboard: the controls by Tab, the moves by arrows+Enter."""
    b.d.get(b.url)
    b.wait("the page", lambda: b.state() is not None and b.state()["engine"]["status"] == "ready")
    b.tab_to("e.id === 'engine-side'", "the engine side")
    b.keys(Keys.HOME)  # Black
    b.tab_to("e.id === 'time-control'", "the time control")
    b.keys(Keys.HOME)  # seconds per move
    box = b.tab_to("e.id === 'movetime'", "the move time")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("0.05", Keys.TAB)
    b.wait("the move time", lambda: b.state()["settings"]["movetime"] == 0.05
           and b.state()["settings"]["engine_side"] == "black")
    b.tab_to("e.id === 'new-game'", "New game")
    b.keys(Keys.ENTER)
    b.wait("a new game", lambda: b.state()["plies"] == 0)
    b.d.execute_script("document.activeElement.blur();")
    b.tab_to("e.dataset && e.dataset.square", "the board")
    moves = 0
    while not b.state()["result"]:
        b.wait("White's turn", lambda: b.state()["result"] or (b.state()["turn"] == "white" and b.state()["legal"]))
        state = b.state()
        if state["result"]:
            break
        move = state["legal"][0]
        for square in move["paths"][0]:
            keyboard_to(b, square)
        b.wait("the move played", lambda: b.state()["plies"] > state["plies"])
        moves += 1
        assert moves < 200, "the game does not end"
    result = b.state()["result"]
    log("ok: a whole game with the keyboard only: %d moves of White, %s (%s)"
        % (moves, result["result"], result["reason"]))
    assert b.state()["plies"] >= 2 * moves - 1


def native(binary, variant, fen, fmt="path"):
    """The rules core's legal moves of `fen` (`damiera moves`), one line each."""
    out = subprocess.run([binary, "moves", "--variant", variant, "--fen", fen, "--format", fmt],
                         capture_output=True, text=True, check=True)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()]


def square_names(variant):
    """Number -> (name, row, col) of the 32 dark squares, from each federation's own
    numbering (not from the page): FID square 1 top-left; English 1 at b8; Spanish 1 at
    White's bottom right of the FID board (Spanish n is FID 33 - n); the algebraic boards
    a1 = 1, c1 = 2, ... h8 = 32 with a1 bottom left."""
    out = {}
    for n in range(1, 33):
        k = (n - 1) % 4
        if variant == "spanish":
            fid = 33 - n
            row = (fid - 1) // 4
            out[n] = (str(n), row, 2 * ((fid - 1) % 4) + row % 2)
        elif variant in ("russian", "brazilian", "czech", "thai", "damka"):
            rank = (n - 1) // 4          # 0 = rank 1
            col = 2 * k + rank % 2
            out[n] = ("abcdefgh"[col] + str(rank + 1), 7 - rank, col)
        else:
            row = (n - 1) // 4
            col = 2 * k + (row % 2 if variant == "italian" else 1 - row % 2)
            out[n] = (str(n), row, col)
    return out


def fen_board(fen, variant):
    """{number: piece} of a FEN in the variant's notation (names or numbers, ranges)."""
    by_name = {name: n for n, (name, _, _) in square_names(variant).items()}
    board = {}
    for part in fen.split(":")[1:]:
        color = part[0].lower()
        for item in filter(None, part[1:].split(",")):
            king = item.startswith("K")
            item = item.lstrip("K")
            if "-" in item:
                lo, hi = (int(x) for x in item.split("-"))
                numbers = range(lo, hi + 1)
            else:
                numbers = [by_name[item]]
            for n in numbers:
                board[n] = color.upper() if king else color
    return board


def check_geometry(b, variant):
    """Every square drawn where that variant's players see it, named for screen
    readers in their notation."""
    drawn = b.js(
        "const box = document.getElementById('board').getBoundingClientRect();"
        "return [...document.querySelectorAll('#board [data-square]')].map(e => {"
        " const r = e.getBoundingClientRect();"
        " return [Number(e.dataset.square), Math.round((r.top - box.top) / r.height),"
        "  Math.round((r.left - box.left) / r.width), e.getAttribute('aria-label')]; });")
    want = square_names(variant)
    assert len(drawn) == 32, drawn
    for n, row, col, label in drawn:
        name, wrow, wcol = want[n]
        assert (row, col) == (wrow, wcol), (variant, n, name, row, col, wrow, wcol)
        assert label.startswith(name + ", "), (variant, n, label)


def keyboard_to(b, target):
    """Moves the focus to `target` with arrow keys over the board as drawn (rows of
    four dark squares), then presses Enter."""
    where = b.js(
        "return Object.fromEntries([...document.querySelectorAll('#board [data-square]')]"
        ".map(e => { const r = e.getBoundingClientRect();"
        " return [e.dataset.square, [Math.round(r.top), Math.round(r.left)]]; }));")
    cells = {int(n): tuple(v) for n, v in where.items()}
    rows = sorted({t for t, _ in cells.values()})
    place = {}
    for n, (top, left) in cells.items():
        row_lefts = sorted(l for t, l in cells.values() if t == top)
        place[n] = (rows.index(top), row_lefts.index(left))
    n = square_of_focus(b)
    assert n is not None, "the focus left the board"
    dr = place[target][0] - place[n][0]
    dk = place[target][1] - place[n][1]
    keys = [Keys.ARROW_DOWN if dr > 0 else Keys.ARROW_UP] * abs(dr)
    keys += [Keys.ARROW_RIGHT if dk > 0 else Keys.ARROW_LEFT] * abs(dk)
    if keys:
        b.keys(*keys)
    got = square_of_focus(b)
    assert got == target, (n, target, got)
    b.keys(Keys.ENTER)


def check_variant_game(b, binary, variant):
    """A game of `variant` chosen in the page, the person's moves alternately by
    clicks and by the keyboard, the engine's replies, to the end; every position's
    legal moves, every move's result and every board drawn checked against the rules
    core."""
    b.post("/api/settings", {"engine_side": "none"})  # nobody moves before the check
    Select(b.el("variant")).select_by_value(variant)
    b.wait("a new %s game" % variant, lambda: b.state()["variant"] == variant
           and b.state()["plies"] == 0 and b.state()["engine"]["status"] == "ready")
    human = b.state()["game"]["first_mover"].lower()  # the side that moves first
    engine = "white" if human == "black" else "black"
    b.post("/api/settings", {"engine_side": engine, "mode": "play", "movetime": 0.05, "clock": None})
    b.wait("the settings", lambda: b.state()["settings"]["engine_side"] == engine)
    check_geometry(b, variant)
    assert b.js("return document.title;").endswith(b.state()["variant_title"])
    turns = 0
    while True:
        b.wait("%s's turn or the end" % human, lambda: b.state()["result"]
               or (b.state()["turn"] == human and b.state()["legal"]
                   and not b.state()["engine"]["busy"]))
        state = b.state()
        if state["result"]:
            break
        page_legal = sorted(m["text"] for m in state["legal"])
        assert page_legal == sorted(native(binary, variant, state["fen"])), (state["fen"], page_legal)
        move = state["legal"][(turns * 5) % len(state["legal"])]
        plies = state["plies"]
        if turns % 2 == 0:
            for square in move["paths"][0]:
                b.click(square)
        else:
            if not b.js("const e = document.activeElement; return !!(e && e.dataset.square);"):
                b.js("document.querySelector('#board [tabindex=\"0\"]').focus();")
            for square in move["paths"][0]:
                keyboard_to(b, square)
        b.wait("the move played", lambda: b.state()["plies"] > plies)
        assert b.moves()[plies] == move["text"], (b.moves(), move)
        turns += 1
        assert turns < 200, "the game does not end"
    result = b.state()["result"]
    moves = b.moves()
    fens = []
    for ply in range(len(moves) + 1):
        b.post("/api/goto", {"ply": ply})
        b.wait("ply %d" % ply, lambda: b.state()["ply"] == ply)
        fen = b.state()["fen"]
        assert b.pieces() == fen_board(fen, variant), (variant, ply, fen, b.pieces())
        fens.append(fen)
    for ply, mv in enumerate(moves):
        after = dict(line.split(" ", 1) for line in native(binary, variant, fens[ply], "fen"))
        assert after.get(mv) == fens[ply + 1], (variant, ply, mv, fens[ply], after.get(mv), fens[ply + 1])
    log("ok: %s game chosen in the page, %d plies (%d by clicks and keys), %s (%s); every "
        "position's moves, every move and every board checked against the rules core"
        % (variant, len(moves), turns, result["result"], result["reason"]))


def check_house_rules(b):
    """Damka's house rules as check boxes under the game selector, sent by the server:
    shown for Damka only; ticking no-compulsory-capture puts the quiet moves beside a
    capture."""
    boxes_shown = "return !document.getElementById('house-rules').hidden;"
    Select(b.el("variant")).select_by_value("damka")
    b.wait("a new damka game", lambda: b.state()["variant"] == "damka")
    b.wait("the check boxes", lambda: b.js(boxes_shown))
    b.post("/api/settings", {"engine_side": "none", "mode": "play", "clock": None})
    b.post("/api/position", {"fen": "W:Wc3,g1:Bd4,b8"})
    b.wait("the position", lambda: b.state()["fen"] == "W:Wc3,g1:Bb8,d4")
    before = sorted(m["text"] for m in b.state()["legal"])
    assert before == ["c3:e5"], before
    box = b.d.find_element(By.CSS_SELECTOR, '#house-rules input[value="no-compulsory-capture"]')
    box.click()
    b.wait("the rule ticked", lambda: any(r["on"] for r in b.state()["house_rules"]))
    b.post("/api/position", {"fen": "W:Wc3,g1:Bd4,b8"})
    b.wait("the position", lambda: b.state()["fen"] == "W:Wc3,g1:Bb8,d4")
    after = sorted(m["text"] for m in b.state()["legal"])
    assert after == ["c3-b4", "c3:e5", "g1-f2", "g1-h2"], after
    Select(b.el("variant")).select_by_value("italian")
    b.wait("no check boxes", lambda: not b.js(boxes_shown))
    log("ok: Damka's house rule ticked in the page: legal moves %s -> %s" % (before, after))


def check_resign_and_draw(b):
    """Offer draw and Resign by clicks: the engine accepts when it is losing, declines
    (saying its evaluation) when it is winning; a resignation ends the game."""
    b.post("/api/new", {"variant": "italian"})
    b.post("/api/settings", {"engine_side": "black", "mode": "play", "movetime": 0.2, "clock": None})
    b.wait("an Italian game", lambda: b.state()["variant"] == "italian"
           and b.state()["engine"]["status"] == "ready")
    b.set_fen("W:WK13,K14,K15:B4")
    b.el("offer-draw").click()
    b.wait("the draw agreed", lambda: (b.state()["result"] or {}).get("reason") == "draw agreed")
    b.wait("the message", lambda: "accepts the draw" in b.text("message"))
    assert "draw agreed" in b.text("result"), b.text("result")
    assert b.el("resign").get_attribute("disabled") is not None
    log("ok: a draw offered in a lost position for the engine: %r" % b.text("message"))
    b.set_fen("W:W29:BK1,K2,K3")
    b.el("offer-draw").click()
    b.wait("the engine's refusal", lambda: "declines the draw" in b.text("message"))
    assert not b.state()["result"], b.state()["result"]
    log("ok: a draw offered in a won position for the engine: %r" % b.text("message"))
    b.el("resign").click()
    b.wait("the resignation", lambda: (b.state()["result"] or {}).get("reason") == "White resigned")
    assert b.text("result").startswith("0-1"), b.text("result")
    log("ok: Resign: %r" % b.text("result"))


def run_axe(b, name):
    with open(AXE, encoding="utf-8") as f:
        b.js(f.read() + "; return true;")
    result = b.d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations))"
        ".catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));")
    bad = [v for v in result if v.get("impact") in ("serious", "critical")]
    for v in result:
        log("  axe %s (%s): %s — %s" % (v["id"], v.get("impact"), v.get("help"),
                                        [n.get("target") for n in v.get("nodes", [])][:5]))
    assert not bad, "axe-core: %d serious or critical violations on %s" % (len(bad), name)
    log("ok: axe-core audit (%s): no serious or critical violations (%d minor)" % (name, len(result)))


def check_phone(b):
    b.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    b.d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    b.post("/api/settings", {"engine_side": "black", "movetime": 0.1, "mode": "play", "clock": None})
    b.post("/api/new", {})
    b.d.get(b.url)
    b.wait("the page", lambda: b.state() is not None and len(b.pieces()) == 24)
    b.wait("the layout", lambda: b.js("return window.innerWidth;") == 390)
    rect = b.js("const r = document.getElementById('board').getBoundingClientRect();"
                "return [r.left, r.top, r.right, r.bottom, window.innerWidth, window.innerHeight,"
                " document.documentElement.scrollWidth];")
    left, top, right, bottom, width, height, scroll_width = rect
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, rect
    assert scroll_width <= width, "horizontal scroll: %s > %s" % (scroll_width, width)
    log("ok: 390x844: the whole board in view (%.0f..%.0f x %.0f..%.0f), page %d px wide"
        % (left, right, top, bottom, scroll_width))
    # A move by touch: tap 22, tap 18.
    touch = PointerInput(interaction.POINTER_TOUCH, "finger")
    for square in (22, 18):
        el = b.d.find_element(By.CSS_SELECTOR, '#board [data-square="%d"]' % square)
        actions = ActionBuilder(b.d, mouse=touch)
        actions.pointer_action.move_to(el).pointer_down().pointer_up()
        actions.perform()
    b.wait("the touch move and the reply", lambda: b.state()["plies"] == 2)
    assert b.moves()[0] == "22-18", b.moves()
    log("ok: 22-18 played by touch on the phone, engine replied " + b.moves()[1])
    b.screenshot("phone")
    b.d.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    b.screenshot("phone-panel")
    run_axe(b, "phone")
    b.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def text_content(self, element_id):
    return self.js("return document.getElementById(arguments[0]).textContent;", element_id)


Board.text_content = text_content


def main():
    binary = sys.argv[1]
    engine = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--engine" else None
    if not os.path.exists(AXE):
        print("axe-core is not installed (npm ci --prefix tests/browser)")
        sys.exit(77)
    name = "minimal" if engine else "damiera"
    server, url = start_server(binary, engine)
    profile = tempfile.mkdtemp(prefix="damiera-chromium-")
    driver = None
    try:
        driver = start_browser(profile)
        driver.get(url)
        b = Board(driver, url)
        check_basics(b)
        check_pdn_picker(b, profile)
        check_pdn_warnings(b)
        check_analysis(b)
        check_settings_panel(b, engine)
        check_variation(b)
        if not engine:
            check_multipv(b)
            check_proven_score(b)
        check_review(b, 0.3 if engine else 0.2)
        b.js("window.scrollTo(0, 0);")
        b.screenshot("desktop-" + name)
        run_axe(b, "desktop, " + name)
        if not engine:
            check_clock_loss(b)
            check_keyboard_game(b)
            for variant in ("english", "russian", "brazilian", "pool", "czech", "spanish", "thai",
                            "damka"):
                check_variant_game(b, binary, variant)
            check_house_rules(b)
            check_resign_and_draw(b)
            check_phone(b)
    finally:
        if driver is not None:
            driver.quit()
        server.kill()
        server.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
