"""`ribbit play definitions/top_frog.yaml --players 4 --human 1` at the terminal: the Pond drawn as a grid
(cards, Gnats, meeples, Whirlpool steps), the River, each player's Stacks (Hats on top) as one block per
player, and only what player 1 may see: other hands and held Frogs as counts, the Pond Deck hidden."""

from __future__ import annotations

import builtins
import re

from conftest import REPO_ROOT
from interpreter.cli import main

TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"


def play_as_player_1(capsys, monkeypatch, seed=3):
    prompts = []

    def first_option(prompt=""):
        prompts.append(prompt)
        return "1"
    monkeypatch.setattr(builtins, "input", first_option)
    code = main(["play", str(TOP_FROG), "--players", "4", "--human", "1", "--seed", str(seed), "--log", "-"])
    out, err = capsys.readouterr()
    return code, out, err, prompts


def blocks_of(out, seat):
    """Each drawing of ``player <seat>``'s block: its lines up to the next player's block."""
    found = []
    for match in re.finditer(rf"^player {seat}( \(you\))?( \*)?\s*$", out, flags=re.M):
        rest = out[match.end():].splitlines()[1:]
        lines = []
        for line in rest:
            if re.match(r"^(player \d|\* active player|Game: )", line):
                break
            lines.append(line.rstrip())
        found.append(lines)
    return found


def test_terminal_play_draws_the_pond_river_and_stacks_and_hides_other_hands(capsys, monkeypatch):
    code, out, err, prompts = play_as_player_1(capsys, monkeypatch)
    assert code == 0 and "Traceback" not in err and prompts
    # the Pond: a 4x4 grid with its cards, the meeples standing on spaces, Gnats and the Whirlpool steps
    assert "Board, north at the top" in out
    assert re.search(r"│ r1 │ Pond card: \w", out) and re.search(r"│ r4 │ Pond card: \w", out) and "│ c4 " in out
    assert "meeples: meeple 1" in out and "[gnats " in out
    assert re.search(r"\(weights \d", out)  # a frog's badges beside its name
    for mark in ("↑ r4c3 (step only)", "↓ r1c3 (step only)", "← r3c4 (step only)", "→ r3c1 (step only)"):
        assert mark in out
    assert re.search(r"^ the River +\S", out, flags=re.M) and re.search(r"^ Pond Deck +\d+ cards \(hidden\)", out, flags=re.M)
    assert re.search(r"^Under the table: hats: \d+ cards", out, flags=re.M)  # the boxes, folded to a line
    # each player as a block: stacks (the Lily Pad at the bottom of stack 1), discard pile, counters
    mine, theirs = blocks_of(out, 1), blocks_of(out, 2)
    assert len(mine) == len(theirs) >= len(prompts)  # before each decision, and at the end
    assert any(re.match(r"stack 1 +Lily Pad #", line) for block in mine for line in block)
    assert any(re.match(r"stack \d +.*(Hat|Crown|Helmet|Cap|Bonnet|Tiara)", line)  # a Hat on top of a stack
               for seat in (1, 2, 3, 4) for block in blocks_of(out, seat)[-1:] for line in block)
    assert all(re.search(r"gnats \d+", " ".join(block)) for block in mine)
    assert not any("destination" in " ".join(block) for block in mine)  # the table shows no internal variable
    assert any(re.match(r"hand +Leap North", line) for block in mine for line in block)  # my hand, by name
    # another seat's hand and held Frogs: counts, and only the cards everyone saw go there (the starting
    # hands dealt from the face-up supply, a frog held from the Pond, an action card back from the Reveal),
    # known to all, never "shown to you"
    known = 0
    for seat in (2, 3, 4):
        for block in blocks_of(out, seat):
            for line in block:
                if line.startswith(("hand ", "held frogs ", "secret selection ", "Lily Pads to choose from ")):
                    assert re.fullmatch(r"(hand|held frogs|secret selection|Lily Pads to choose from) +\d+ cards?"
                                        r"( \(hidden\)|( \(\d+ hidden\))?  known to all: .*)", line), line
                    known += "known to all: " in line
    assert known, "no card everyone saw go into another seat's hand was listed"
    assert "final result" in out
