"""``top(zone, n)`` / ``bottom(zone, n)`` with a count known at load (``top(pile, 1)``, the usual case) is
lowered to a slice of the zone (``s.zones[z][-1:]``) instead of a call of ``end_cards``: the same cards,
in zone order, all of them when the zone holds fewer, none for ``bottom(pile, 0)``.  A count worked out
at run time (or a negative one, a located error) keeps the helper; so does the ``fold`` option off."""

from __future__ import annotations

import pytest

from interpreter import CompileOptions, RuleError, load_game

GAME = """\
game: Slices
players: {min: 1, max: 1}
components:
  - {name: one, zone: pile}
  - {name: two, zone: pile}
  - {name: three, zone: pile}
zones:
  pile: {}
  empty: {}
game_variables:
  n: 2
functions:
  ends(zone z): "[top(z, 1), top(z, 2), top(z, 3), top(z, 5), bottom(z, 0), bottom(z, 1), bottom(z, 2), bottom(z, 5)]"
  by_count(zone z): "[top(z, game.n), bottom(z, game.n)]"
procedures:
  tell(zone z): |
    log "{top(z, 1)} | {top(z, 2)} | {top(z, 3)} | {top(z, 5)} | {bottom(z, 0)} | {bottom(z, 1)} | {bottom(z, 2)} | {bottom(z, 5)}; by count {top(z, game.n)} | {bottom(z, game.n)}; {size(ends(z))} {size(by_count(z))}"
  take_turn(player p): |
    tell(pile)
    tell(empty)
    let picked = top(pile, 2)
    move picked to empty
    log "moved {picked}; pile {top(pile, 1)}; empty {top(empty, 1)} {bottom(empty, 1)}"
    ask p to choose one of ["on", "off"] as x "go"
    let y = bottom(pile, 0 - 1)
    end game
flow:
  - turn: take_turn
"""


def load(tmp_path, options=None):
    path = tmp_path / "slices.yaml"
    path.write_text(GAME, encoding="utf-8")
    return load_game(path, options=options) if options is not None else load_game(path)


def function_code(game, name):
    source = game.code.source()
    start = source.index(f"# expression at functions.{name}(")
    return source[start:source.index("\n\n", start)]


def test_an_end_with_a_count_known_at_load_is_a_slice_of_the_zone(tmp_path):
    own = CompileOptions(inline=False)  # (each function has code of its own to read)
    ends = function_code(load(tmp_path, options=own), "ends")
    assert "][-1:]" in ends and "][-5:]" in ends and "][:0]" in ends and "][:2]" in ends
    assert "K[" not in ends  # no helper call is left
    by_count = function_code(load(tmp_path, options=own), "by_count")
    assert by_count.count("K[") >= 2  # counts read at run time keep the helper
    plain = function_code(load(tmp_path, options=CompileOptions(inline=False, fold=False)), "ends")
    assert "][-1:]" not in plain and plain.count("K[") >= 8


@pytest.mark.parametrize("options", [None, CompileOptions(fold=False)], ids=["fold", "no fold"])
def test_an_end_slice_gives_the_cards_the_helper_gives_and_the_same_error(tmp_path, options):
    state = load(tmp_path, options).new_game(1)
    assert state.log[:3] == [
        "three | two, three | one, two, three | one, two, three | nothing | one | one, two | one, two, three; "
        "by count two, three | one, two; 8 2",
        "nothing | nothing | nothing | nothing | nothing | nothing | nothing | nothing; by count nothing | nothing; 8 2",
        "moved two, three; pile one; empty three two",
    ]
    with pytest.raises(RuleError) as err:
        state.apply(0, state.legal_actions(0)[0])
    assert str(err.value).startswith(f"{tmp_path / 'slices.yaml'}:")
    assert "bottom(zone, n) needs n of 0 or more, not -1" in str(err.value)
    assert ":25:13:" in str(err.value)
