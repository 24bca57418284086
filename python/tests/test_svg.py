"""Board pictures: well-formed SVG for every game, the last move marked, Jupyter's hook."""

import xml.etree.ElementTree as ET

import pytest

import tiao
from conftest import random_game

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_is_well_formed(variant):
    p = random_game(variant, "svg", 9)
    for kw in ({}, {"flip": True}, {"coordinates": False, "square": 20}):
        text = tiao.board_svg(p, **kw)
        root = ET.fromstring(text)
        assert root.tag == SVG + "svg"
        assert p.fen in root.find(SVG + "title").text
    # Jupyter's hook is the default picture.
    assert p._repr_svg_() == tiao.board_svg(p)


def test_the_last_move_is_marked():
    p = tiao.Position("international")
    before = tiao.board_svg(p)
    p.push("32-28")
    after = tiao.board_svg(p)
    assert "arrowhead)" not in before and "url(#arrowhead)" in after


def test_bad_square_size_raises():
    with pytest.raises(tiao.OptionError):
        tiao.board_svg(tiao.Position(), square=2)
    with pytest.raises(tiao.OptionError):
        tiao.board_svg(tiao.Position(), square=float("nan"))
