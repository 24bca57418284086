"""The type stub (python/tiao.pyi, installed as tiao/__init__.pyi) matches the module: every
name, class, signature and default, checked by mypy's stubtest."""

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy)")

ALLOWLIST = pathlib.Path(__file__).resolve().parents[1] / "stubtest-allowlist.txt"


def test_stub_matches_the_module(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tiao", "--ignore-disjoint-bases",
         "--allowlist", str(ALLOWLIST)],
        capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
