"""Perft figures of ../shared/perft (the project's reference counts) through tiao.perft and
Position.perft."""

import pytest

import tiao
from conftest import SHARED

# Figures up to this many leaves (a few seconds in all on a loaded 2-core machine).
MAX_LEAVES = 20_000_000


def cases():
    folder = SHARED / "perft"
    if not folder.is_dir():
        return [pytest.param(None, None, None, None, marks=pytest.mark.skip(
            reason=f"no perft figures: {folder} is absent (the project's shared folder is "
                   "expected beside the repository)"))]
    out = []
    for path in sorted(folder.glob("*.perft")):
        variant = fen = None
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            key, _, rest = line.partition(" ")
            if key == "variant":
                variant = rest.strip()
            elif key == "fen":
                fen = rest.strip()
            else:
                depth, leaves = int(key), int(rest)
                if leaves <= MAX_LEAVES:
                    out.append(pytest.param(variant, fen, depth, leaves,
                                            id=f"{path.stem}-{fen[:24]}-{depth}"))
    return out


@pytest.mark.parametrize("variant,fen,depth,leaves", cases())
def test_perft_figures(variant, fen, depth, leaves):
    assert tiao.perft(variant, fen, depth) == leaves


def test_perft_threads_and_position_agree():
    assert tiao.perft("international", "start", 6, threads=2) == 167140
    assert tiao.Position("international").perft(6) == 167140
    assert tiao.perft("morris", None, 0) == 1


def test_perft_bad_input():
    with pytest.raises(tiao.OptionError):
        tiao.perft("international", None, 65)
    with pytest.raises(tiao.OptionError):
        tiao.perft("international", None, -1)
    with pytest.raises(tiao.OptionError):
        tiao.perft("international", None, 3, threads=0)
    with pytest.raises(tiao.FenError):
        tiao.perft("international", "W:W99", 3)
    with pytest.raises(tiao.VariantError):
        tiao.perft("chess", None, 3)
