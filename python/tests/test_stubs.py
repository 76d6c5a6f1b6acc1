"""The type stubs (damiera/_damiera.pyi) match the built module, by mypy's stubtest, and
the package type-checks in strict mode where it is used."""

import subprocess
import sys

SNIPPET = '''
import damiera
board = damiera.Board("italian")
move: damiera.Move = board.legal_moves[0]
board.push(move)
count: int = len(board.legal_moves)
with damiera.Engine(hash_mib=1) as engine:
    info = engine.analyse(board, depth=3)
reading: damiera.pdn.Reading = damiera.pdn.read(b"1. 22-19 *")
probe = damiera.egdb.probe
data = damiera.batch.play_games(1)
outcome = board.outcome()
winner = outcome.winner if outcome is not None else None
'''


def test_stubtest(tmp_path):
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases",
                          "damiera"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_strict_use(tmp_path):
    (tmp_path / "use.py").write_text(SNIPPET)
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "use.py"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
