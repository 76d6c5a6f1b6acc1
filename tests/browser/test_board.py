#!/usr/bin/env python3
"""Browser test of the web board: headless Chromium (Debian's chromium and
chromium-driver) driven by Selenium through /usr/bin/chromedriver; nothing is
downloaded.

Usage: test_board.py <damiera binary> [--engine CMD]

Starts `damiera gui --no-open` on a free port, then: the 24 pieces on their squares,
a move by clicking and the engine's reply in #moves, an illegal click explained, a FEN
set through the page, a multi-capture chosen by clicking its landing squares, a
three-game PDN file (Latin-1, CRLF) loaded through the picker, analysis with a depth
line in #analysis, stop. Saves target/gui-board[-NAME].png.
Exit status 0 on success; the first failed check raises.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not download

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("selenium is not installed (pip install -r tests/python/requirements.txt)")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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
                "--disable-dev-shm-usage", "--window-size=1200,900",
                "--user-data-dir=" + profile]:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, what, cond):
    try:
        return WebDriverWait(driver, TIMEOUT, poll_frequency=0.05).until(lambda d: cond())
    except Exception as e:
        log("wait failed: %r" % e)
        msg = driver.find_element(By.ID, "message").text
        status = driver.find_element(By.ID, "engine-status").text
        raise AssertionError("timed out waiting for %s (message %r, engine %r)"
                             % (what, msg, status))


def pieces(driver):
    """{square: piece letter} read from the DOM contract."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('[data-square] > [data-piece]')]"
        ".map(e => [e.parentElement.dataset.square, e.dataset.piece]);")
    return {int(sq): piece for sq, piece in found}


def click(driver, square):
    driver.find_element(By.CSS_SELECTOR, '#board [data-square="%d"]' % square).click()


def moves(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#moves .mv')].map(e => e.textContent);")


def main():
    binary = sys.argv[1]
    engine = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--engine" else None
    name = "-minimal" if engine else ""
    server, url = start_server(binary, engine)
    profile = tempfile.mkdtemp(prefix="damiera-chromium-")
    driver = None
    try:
        driver = start_browser(profile)
        driver.get(url)

        # The start position: 24 pieces, Black on 1-12, White on 21-32.
        wait(driver, "24 pieces", lambda: len(pieces(driver)) == 24)
        start = pieces(driver)
        assert start == {**{s: "b" for s in range(1, 13)}, **{s: "w" for s in range(21, 33)}}, start
        log("ok: 24 pieces on their squares")
        wait(driver, "the engine", lambda: "ready" in driver.find_element(By.ID, "engine-status").text)

        # A short move time, through the page.
        box = driver.find_element(By.ID, "movetime")
        box.clear()
        box.send_keys("0.2\t")
        wait(driver, "the move time", lambda: box.get_attribute("value") == "0.2")

        # An illegal click is explained.
        click(driver, 15)
        wait(driver, "an explanation", lambda: "empty" in driver.find_element(By.ID, "message").text)
        log("ok: illegal input explained: " + driver.find_element(By.ID, "message").text)

        # A move by clicking; the engine (Black) answers in #moves.
        click(driver, 22)
        click(driver, 18)
        wait(driver, "the engine's reply", lambda: len(moves(driver)) == 2)
        assert moves(driver)[0] == "22-18", moves(driver)
        log("ok: played 22-18 by clicking, engine replied " + moves(driver)[1])

        # Set a position through the FEN box; nobody plays for the engine now.
        Select(driver.find_element(By.ID, "engine-side")).select_by_value("none")
        wait(driver, "engine side none", lambda: driver.find_element(By.ID, "engine-side")
             .get_attribute("value") == "none")
        fen = driver.find_element(By.ID, "fen")
        fen.clear()
        fen.send_keys("W:W24:B9,11,12,20")
        driver.find_element(By.ID, "set-fen").click()
        wait(driver, "the FEN position",
             lambda: pieces(driver) == {24: "w", 9: "b", 11: "b", 12: "b", 20: "b"})
        assert moves(driver) == [], moves(driver)
        log("ok: FEN set")

        # Two captures from 24 share the landing square 15; clicking 8 picks one.
        click(driver, 24)
        click(driver, 15)
        wait(driver, "the capture to go on",
             lambda: "next landing" in driver.find_element(By.ID, "message").text)
        click(driver, 8)
        wait(driver, "the multi-capture", lambda: moves(driver) == ["24x15x8"])
        after = pieces(driver)
        assert after == {8: "w", 9: "b", 11: "b"}, after
        log("ok: multi-capture 24x15x8 chosen by its landing squares")

        # A PDN file of three games: the page offers them, game 2 is loaded.
        pdn = os.path.join(profile, "three.pdn")
        with open(pdn, "wb") as f:
            f.write(b'[White "Uno"]\r\n\r\n1. 22-18 *\r\n\r\n'
                    b'[White "Due"]\r\n[Event "Citt\xe0"]\r\n\r\n1. 22-19 11-15 2. 21-17 *\r\n\r\n'
                    b'[White "Tre"]\r\n\r\n1. 23-19 *\r\n')
        driver.find_element(By.ID, "pdn-file").send_keys(pdn)
        picker = driver.find_element(By.ID, "pdn-picker")
        wait(driver, "the game picker", lambda: picker.get_attribute("open") is not None)
        options = driver.execute_script(
            "return [...document.querySelectorAll('#pdn-games option')].map(o => o.textContent);")
        assert len(options) == 3 and options[1].startswith("2. Due - ?, Citt\u00e0"), options
        Select(driver.find_element(By.ID, "pdn-games")).select_by_value("2")
        driver.find_element(By.ID, "pdn-load").click()
        wait(driver, "game 2 of the file", lambda: moves(driver) == ["22-19", "11-15", "21-17"])
        assert picker.get_attribute("open") is None
        log("ok: a 3-game PDN file offers a picker; game 2 loaded")
        fen = driver.find_element(By.ID, "fen")
        fen.clear()
        fen.send_keys("W:W24:B9,11,12,20")
        driver.find_element(By.ID, "set-fen").click()
        wait(driver, "the FEN position again",
             lambda: pieces(driver) == {24: "w", 9: "b", 11: "b", 12: "b", 20: "b"})

        # Analysis: a depth line in #analysis, then stop.
        driver.find_element(By.ID, "go").click()
        wait(driver, "a depth line", lambda: "depth" in driver.find_element(By.ID, "analysis").text)
        log("ok: analysis line: " + driver.find_element(By.ID, "analysis").text.splitlines()[0])
        driver.find_element(By.ID, "stop").click()
        wait(driver, "analysis to stop",
             lambda: not driver.find_element(By.ID, "stop").is_enabled()
             and "analysing" not in driver.find_element(By.ID, "engine-status").text)
        log("ok: analysis stopped")

        os.makedirs(os.path.join(ROOT, "target"), exist_ok=True)
        shot = os.path.join(ROOT, "target", "gui-board%s.png" % name)
        driver.save_screenshot(shot)
        log("ok: screenshot " + shot)
    finally:
        if driver is not None:
            driver.quit()
        server.kill()
        server.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
