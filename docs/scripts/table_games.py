#!/usr/bin/env python3
"""Classify the games of a `tiao match` PDN by A's first table score (docs/strength.md).

Usage: table_games.py MATCH.pdn "A's player name" [--list]

A is the engine with endgame tables. For each game this finds A's first move whose comment
carries a score from the tables: a win or loss shows as 81.20 to 96.00 men (TABLE_WIN = 96.00
less a hundredth per ply and per unit of the table's distance; evaluations stay within 80.00;
src/search/score.rs), a draw as a search of depth 127 (the
root position itself answered by the tables). Proven game ends (`#n`, `#-n`) are not table
scores. It prints, for each first table score (win, draw, loss, none), A's results, and with
--list the rounds of the games whose result is worse for A than the tables' first word.
"""

import re
import sys
from collections import Counter, defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
SCORE = re.compile(r"^([+-]?\d+\.\d+)/(\d+)\b")
TABLE_MIN, TABLE_MAX = 81.2, 96.0


def games(path):
    """Yields (tags, movetext) for each game of the file."""
    tags, text = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if text:
                    yield tags, " ".join(text)
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                text.append(line.strip())
    if text:
        yield tags, " ".join(text)


def a_comments(movetext, a_is_white):
    """A's move comments, in order. After `{end of opening}` the engines' moves alternate, and
    each move's comment follows it; the side of a comment is read from the move number form
    (`12.` White, `12...` Black) that precedes its move."""
    out = []
    tokens = re.findall(r"(\d+\.\.\.|\d+\.)|\{([^}]*)\}", movetext)
    side = None  # True: White's move was the last number seen
    started = False
    for number, comment in tokens:
        if number:
            side = not number.endswith("...")
        elif comment == "end of opening":
            started = True
        elif started and side is not None:
            if side == a_is_white:
                out.append(comment)
            # A number is not repeated before a Black move that follows White's comment:
            # the next move is the other side's.
            side = not side
    return out


def first_table_word(comments):
    for c in comments:
        m = SCORE.match(c.strip())
        if not m:
            continue
        score, depth = float(m.group(1)), int(m.group(2))
        if TABLE_MIN <= score <= TABLE_MAX:
            return "win"
        if -TABLE_MAX <= score <= -TABLE_MIN:
            return "loss"
        if depth == 127 and score == 0.0:
            return "draw"
    return "none"


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) != 2:
        sys.exit(__doc__)
    path, a_name = args
    table = defaultdict(Counter)
    worse = []
    rank = {"win": 2, "draw": 1, "loss": 0}
    for tags, text in games(path):
        if a_name not in (tags.get("White"), tags.get("Black")):
            sys.exit(f"{path}: round {tags.get('Round')}: no player named {a_name!r}")
        a_white = tags["White"] == a_name
        result = tags.get("Result", "*")
        if result == "1/2-1/2":
            outcome = "draw"
        elif result in ("1-0", "2-0"):
            outcome = "win" if a_white else "loss"
        elif result in ("0-1", "0-2"):
            outcome = "loss" if a_white else "win"
        else:
            outcome = "unfinished"
        word = first_table_word(a_comments(text, a_white))
        table[word][outcome] += 1
        if word != "none" and outcome in rank and rank[outcome] < rank[word]:
            worse.append(tags.get("Round"))
    for word in ("win", "draw", "loss", "none"):
        c = table[word]
        n = sum(c.values())
        print(f"table {word:4}: {n:4} games: A won {c['win']}, drew {c['draw']}, lost {c['loss']}"
              + (f", unfinished {c['unfinished']}" if c["unfinished"] else ""))
    print(f"games ending worse for A than its first table score: {len(worse)}")
    if "--list" in sys.argv:
        print("rounds:", " ".join(worse))


if __name__ == "__main__":
    main()
