"""The examples in the module's docstrings run as written (doctest)."""

import doctest

import pytest

import tiao

OBJECTS = [tiao, tiao.Position, tiao.Engine, tiao.PdnGame, tiao.perft, tiao.read_pdn]


@pytest.mark.parametrize("obj", OBJECTS, ids=lambda o: getattr(o, "__name__", str(o)))
def test_docstring_examples(obj):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(obj, obj.__name__, globs={"tiao": tiao})
    assert tests and any(t.examples for t in tests), "no example"
    for t in tests:
        runner.run(t)
    assert runner.failures == 0, f"{runner.failures} example(s) of {obj.__name__} failed"
