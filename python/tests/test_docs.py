"""docs/python.md's tutorial runs: its ```python blocks, in order, as one script."""

import os
import re

from conftest import REPO

PAGE = REPO / "docs" / "python.md"


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def test_tutorial_runs(tmp_path, capsys, monkeypatch):
    blocks = python_blocks(PAGE.read_text())
    assert len(blocks) >= 5
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no user databases
    namespace = {"__name__": "tutorial"}
    for i, block in enumerate(blocks, 1):
        exec(compile(block, f"{PAGE.name} block {i}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "6 games read (0 repaired), 0 skipped" in out
    assert os.path.exists(tmp_path / "tutorial.pdn")
