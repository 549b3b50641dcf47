"""List-valued card properties and "some choice of one value per card" tests (tests/definitions/lists.yaml)."""

from __future__ import annotations

import pytest

from interpreter import DefinitionError, RuleError, load_game
from interpreter.errors import DSLTypeError
from test_mechanisms import DEFINITIONS, line_of, load, play_until_over, write_definition

LISTS = DEFINITIONS / "lists.yaml"


def evaluate(state, text, **variables):
    """An expression of the game, with card variables given by name (cards) or players by seat index."""
    from interpreter.dsl.compiler import Compiler, Scope
    from interpreter.dsl.parser import parse_expression

    g = state.game
    kinds, env = {}, {}
    for name, value in variables.items():
        if isinstance(value, str):
            kinds[name], env[name] = "card", g.card_names.index(value)
        else:
            kinds[name], env[name] = "player", value
    fn, _ = Compiler(g).expr(parse_expression(text), Scope(kinds, None))
    return fn(state, env)


def balance(pile):
    return load("lists").new_game(1, 0, scenario={"zones": {"pile(1)": pile}})


def test_a_single_value_of_a_list_property_is_a_one_item_list():
    g = load("lists")
    table, kind = g.properties["weights"]
    assert kind == "list:int"
    assert [table[g.card_names.index(n)] for n in ("feather", "brick", "spring", "bellows")] == [[1], [4], [3, 6], [1, 4]]


@pytest.mark.parametrize("top, options", [
    ("brick", ["stack feather", "stack stone", "stack spring", "stack bellows"]),  # spring's 3 <= 4
    ("spring", ["stack feather", "stack stone", "stack brick", "stack anvil", "stack bellows"]),  # its 6 holds all
    ("bellows", ["stack feather", "stack stone", "stack brick", "stack spring"]),  # its 4 holds 4, 3 and 3/6
])
def test_lighter_weight_must_be_at_most_the_heavier_weight_below(top, options):
    assert balance([top]).legal_actions(0) == options


def test_the_only_card_that_fits_is_stacked_without_asking():
    state = balance(["feather"])  # only the bellows' 1 fits on a 1
    assert state.legal_actions(0) == ["stack stone", "stack brick", "stack spring"]  # on the bellows' 4


@pytest.mark.parametrize("pile, same, spread, light", [
    (["spring", "stone", "stone"], True, False, True),     # the spring counts as 3: three 3s
    (["anvil", "spring", "stone"], False, False, False),   # 6, 3|6, 3: never three different weights
    (["anvil", "spring", "feather"], False, True, False),  # 6, 3, 1; the anvil weighs more than 4
    (["anvil", "spring", "brick"], False, True, False),    # 6, 3, 4
    (["spring", "bellows", "brick"], False, True, True),   # 3|6, 1|4, 4: a 4 at most twice; 3, 1, 4
])
def test_some_choice_of_one_weight_per_card_meets_the_condition(pile, same, spread, light):
    state = load("lists").new_game(2, 0, scenario={"zones": {"pile(2)": pile}})  # seat 1 is to play: pile 2 stays
    assert evaluate(state, "same_three(p)", p=1) is same
    assert evaluate(state, "spread_three(p)", p=1) is spread
    assert evaluate(state, "light_three(p)", p=1) is light


def test_product_lists_every_choice_in_order():
    state = balance([])
    assert evaluate(state, "product([[1, 2], [3], [4, 5]])") == [[1, 3, 4], [1, 3, 5], [2, 3, 4], [2, 3, 5]]
    assert evaluate(state, "product([[1, 2], []])") == []
    assert evaluate(state, "product([])") == [[]]  # one way to choose nothing
    assert evaluate(state, "choices(p)", p=0) == [[]]
    assert evaluate(balance(["spring", "bellows"]), "choices(p)", p=0) == [[3, 1], [3, 4], [6, 1], [6, 4]]


def test_product_of_zones_picks_one_card_of_each():
    state = balance(["spring"])
    ids = evaluate(state, "product([deck, pile(p)])", p=0)
    names = [[state.game.card_names[c] for c in combo] for combo in ids]
    assert names == [["feather", "spring"], ["stone", "spring"], ["stone", "spring"], ["brick", "spring"],
                     ["anvil", "spring"], ["bellows", "spring"]]


def test_a_full_game_scores_the_choices():
    state = play_until_over(load("lists").new_game(1, 0))  # always the first option
    pile = [state.game.card_names[c] for c in state.zones[state.game.zone_index("pile(1)")]]
    assert pile == ["feather", "bellows", "stone", "stone", "spring", "brick"]  # the anvil never fits on the brick
    assert state.scores() == [6 + 5 + 3 + 2]  # cards; three 3s; 1, 4, 3; all weigh 4 or less


def test_product_too_large_for_the_step_budget_is_a_located_rule_error(tmp_path):
    path = write_definition(tmp_path, "big_product", "lists", "flow:\n",
                            "limits: {steps: 100}\nsetup: |\n"
                            "  let combos = product([[1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2]])\n"
                            "flow:\n")
    with pytest.raises(RuleError) as info:
        load_game(path).new_game(1, 0)
    err = info.value
    assert "product() would make more than 100 combinations" in err.message
    assert (err.location.line, err.location.column) == (line_of(path, "let combos"), 24)


def test_product_of_numbers_is_a_located_load_error(tmp_path):
    path = write_definition(tmp_path, "flat_product", "lists", "product(each c in pile(p): c.weights)",
                            "product(each c in pile(p): size(c.weights))")
    with pytest.raises(DSLTypeError) as info:
        load_game(path)
    assert "product() picks one item from each of several lists" in info.value.message
    assert "not a list of numbers" in info.value.message
    assert info.value.location.line == line_of(path, "choices(player p)")


def test_a_value_of_the_wrong_kind_for_a_list_property_is_refused(tmp_path):
    path = write_definition(tmp_path, "bad_weight", "lists", "{name: brick, weights: 4,", '{name: brick, weights: "4",')
    with pytest.raises(DefinitionError, match=r"property 'weights' is a list of numbers \(its default is \[1\]\), not \['4'\]"):
        load_game(path)


def test_distinct_of_lists_keeps_the_first_of_each_list_compared_by_value():
    # lists are not hashable: distinct() failed on them with a Python error, reported as "a value of the wrong kind"
    state = balance(["stone", "spring", "stone", "bellows"])
    assert evaluate(state, "distinct(each c in pile(p): c.weights)", p=0) == [[3], [3, 6], [1, 4]]
    assert evaluate(state, "distinct([[1, 2], [2, 1], [1, 2], []])") == [[1, 2], [2, 1], []]
    assert evaluate(state, "size(distinct(product(players, [1, 1])))") == 1
