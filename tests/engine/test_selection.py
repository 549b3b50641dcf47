"""'choose one of X plus any number of Y as a, b': one card of one list and any others of another, in one step.

Top Frog's action selection needs it (one action card plus any bonus cards, all secret and at
once); tests/definitions/selection.yaml isolates it.  Every test asserts an exact outcome.
"""

from __future__ import annotations

import json
import random

import pytest

from interpreter import DefinitionError, RuleError, load_game
from interpreter.runtime import option_spaces
from interpreter.runtime.option_lists import PlusSpec, plus_options
from invariants import reload, snapshot
from test_mechanisms import line_of, load, write_definition, zone

HANDS = {"zones": {"hand(1)": ["walk", "jump", "plus one", "plus one", "double"],
                   "hand(2)": ["run", "run", "plus two", "plus two", "double"]}}


@pytest.fixture
def selection():
    return load("selection").new_game(2, 0, scenario=HANDS, trace=True)


def test_each_player_is_offered_one_action_plus_any_number_of_bonuses_identical_cards_merged(selection):
    assert selection.current_players() == [0, 1]
    assert selection.prompt() == "play"
    assert selection.legal_actions(0) == [
        "play walk", "play walk + plus one", "play walk + double", "play walk + 2 x plus one",
        "play walk + plus one, double", "play walk + 2 x plus one, double",
        "play jump", "play jump + plus one", "play jump + double", "play jump + 2 x plus one",
        "play jump + plus one, double", "play jump + 2 x plus one, double"]
    assert selection.legal_actions(1) == [  # two identical 'run' cards: one choice each way
        "play run", "play run + plus two", "play run + double", "play run + 2 x plus two",
        "play run + plus two, double", "play run + 2 x plus two, double"]


def test_the_one_card_and_the_others_reach_the_rules_as_two_names(selection):
    selection.apply(0, "play jump + plus one, double")  # 5 + 1 + 4 = 10
    assert selection.log == []
    selection.apply(1, "play run + 2 x plus two, double")  # 3 + 2 + 2 + 4 = 11
    assert selection.log == ["player 2 wins the round with run and 3 extras."]
    assert selection.pv["points"] == [0, 1]
    assert zone(selection, "played(1)") == ["jump", "plus one", "double"]
    assert zone(selection, "played(2)") == ["run", "plus two", "plus two", "double"]
    assert zone(selection, "hand(1)") == ["walk", "plus one"]
    assert selection.legal_actions(0) == ["play walk", "play walk + plus one"]
    assert selection.current_players() == [0]  # player 2's one option ('play run') is taken without asking


def test_an_action_alone_is_a_choice_and_its_others_are_an_empty_list(selection):
    selection.apply(0, "play jump")
    selection.apply(1, "play run")
    assert selection.log == ["player 1 wins the round with jump and 0 extras."]
    assert zone(selection, "played(1)") == ["jump"]


def test_a_player_whose_only_option_is_one_card_is_not_asked_and_one_without_any_is_skipped():
    state = load("selection").new_game(2, 0, scenario={"zones": {"hand(1)": ["walk"], "hand(2)": ["plus one"]}})
    # player 1 has one option (taken without asking), player 2 has no action (action none, extras [])
    assert state.is_terminal()
    assert state.log == ["player 1 wins the round with walk and 0 extras."]
    assert zone(state, "hand(2)") == ["plus one"]


def test_a_secret_selection_shows_in_no_other_view_narration_or_trace_until_all_have_chosen():
    game = load("selection")
    seen = set()
    for action in ("play walk", "play jump + 2 x plus one, double", "play walk + double"):
        state = game.new_game(3, 0, trace=True, scenario={"zones": {**HANDS["zones"],
                                                                    "hand(3)": ["walk", "plus two"]}})
        state.apply(0, action)
        assert state.current_players() == [1, 2]
        seen.add(json.dumps([[state.view(q), state.narration(q), state.trace_for(q)] for q in (1, 2, None)],
                            sort_keys=True))
        own = state.trace_for(0)
        assert [r["chosen"] for r in own if r["type"] == "decision"] == [action]
    assert len(seen) == 1  # what the others see does not depend on player 1's pick
    assert '"(secret)"' in next(iter(seen))


def test_a_selection_survives_save_clone_and_replay_mid_decision(selection):
    selection.apply(1, "play run + double")
    before = snapshot(selection)
    loaded = reload(selection)
    assert snapshot(loaded) == before
    copy = selection.clone()
    copy.apply(0, "play walk")
    assert snapshot(selection) == before
    loaded.apply(0, "play walk")
    assert snapshot(loaded) == snapshot(copy)
    assert copy.log == ["player 2 wins the round with run and 1 extras."]


ONE_PLAYER = """
game: Pick With
players: {min: 1, max: 1}
components:
  - {name: a, zone: hand}
  - {name: b, count: 2, zone: hand}
zones:
  hand: {visibility: public}
  out: {visibility: public}
procedures:
  go(player p): |
    ask p to choose one of hand CHOICE
    move first to out
    move others to out
setup: ""
flow:
  - phase: once
    turn: go
    until: size(hand) < 3
"""


def one_player(tmp_path, choice: str, name="pick_with"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(ONE_PLAYER.replace("CHOICE", choice))
    return path


def test_one_player_form_never_offers_the_chosen_card_again_among_the_others(tmp_path):
    game = load_game(one_player(tmp_path, "plus any number of hand as first, others"))
    state = game.new_game(1, 0)
    assert state.legal_actions(0) == ["a", "a + b", "a + 2 x b", "b", "b + a", "b + b", "b + a, b"]
    state.apply(0, "b + b")
    assert zone(state, "out") == ["b", "b"]


def test_more_options_than_the_cap_are_refused_before_any_is_listed(tmp_path):
    path = tmp_path / "wide.yaml"
    path.write_text("""
game: Wide
players: {min: 1, max: 1}
properties: {n: 0}
components:
  - {name: lead, zone: hand}
  - family: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]}
    name: "extra {n}"
    zone: hand
zones:
  hand: {visibility: public}
procedures:
  go(player p): |
    ask p to choose one of hand plus any number of hand as first, others
setup: ""
flow:
  - phase: once
    turn: go
""")
    with pytest.raises(RuleError, match=r"wide\.yaml:\d+:\d+.*more than 100,000 options to choose from \(one of 18 "
                                        r"different plus any number of 18\)"):
        load_game(path).new_game(1, 0)


def column_of(path, line: int, text: str) -> int:
    return path.read_text().splitlines()[line - 1].index(text) + 1


@pytest.mark.parametrize("choice, message, at", [
    ("plus any number of hand as first, first",
     "the two names after 'as' must differ; both are 'first'", "ask"),
    ("plus any number of [p] as first, others", "'choose one of X plus any number of Y' chooses cards; this is a list "
     "of players", "[p]"),
])
def test_misused_selections_are_refused_at_load_where_they_are(tmp_path, choice, message, at):
    path = one_player(tmp_path, choice)
    line = line_of(path, "ask p to choose")
    column = column_of(path, line, at)
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert f"pick_with.yaml:{line}:{column}:" in str(info.value)
    assert message in str(info.value)


def test_a_count_other_than_one_before_plus_is_refused_at_load(tmp_path):
    path = one_player(tmp_path, "CHOICE").with_name("two.yaml")
    path.write_text(ONE_PLAYER.replace("one of hand CHOICE", "2 of hand plus any number of hand as first, others"))
    line = line_of(path, "ask p to choose")
    with pytest.raises(DefinitionError) as info:
        load_game(path)
    assert f"two.yaml:{line}:{column_of(path, line, '2 of')}:" in str(info.value)
    assert "chooses exactly one of the first list" in str(info.value)


def test_an_open_selection_of_hidden_cards_reads_as_secret_in_the_others_trace(tmp_path):
    path = write_definition(tmp_path, "open_pick", "hidden_hands",
                            'ask p to choose one of hand(p) as dropped "discard"\n    move dropped to discard',
                            'ask p to choose one of hand(p) plus any number of hand(p) as dropped, more "discard"\n'
                            '    move dropped to discard\n    move more to discard')
    state = load_game(path).new_game(2, 0, trace=True, scenario={
        "zones": {"hand(1)": ["ant", "bee"], "hand(2)": ["cricket", "dragonfly"]}, "on_top": {"deck": ["earwig"]}})
    assert state.legal_actions(0)[:3] == ["discard ant", "discard ant + bee", "discard ant + earwig"]
    state.apply(0, "discard bee + earwig")
    assert zone(state, "discard") == ["bee", "earwig"]
    mine = [r["chosen"] for r in state.trace_for(0) if r["type"] == "decision"]
    theirs = [r["chosen"] for r in state.trace_for(1) if r["type"] == "decision"]
    assert (mine, theirs) == (["discard bee + earwig"], ["(secret)"])


def test_a_plus_choice_is_counted_from_the_sizes_of_its_groups_and_no_option_is_made(selection, monkeypatch):
    # (option_lists.plus_counted: the groups of the others are made for an option asked for, not to count them)
    (_, prefix, firsts, sizes, pool, keys, total), _ = selection.pending["lazy"]
    names = selection.game.card_names
    assert (prefix, [names[c] for c in firsts], sizes, total) == ("play ", ["walk", "jump"], [6, 6], 12)
    assert keys == [names[c] for c in pool] == ["plus one", "plus one", "double"]
    made = []
    real = option_spaces.others
    monkeypatch.setattr(option_spaces, "others", lambda *args: made.append(args[2]) or real(*args))
    assert selection.action_to_string(0, 7) == "play jump + plus one"
    assert made == [firsts[1]]  # only the groups of the option asked for


def test_a_first_card_among_the_others_leaves_them_grouped_in_the_order_of_the_cards_that_remain(tmp_path):
    game = load_game(one_player(tmp_path, "plus any number of hand as first, others"))
    state = game.new_game(1, 0, scenario={"zones": {"hand": ["b", "a", "b"]}})
    # b first: the others are [a, b] (a before b); a first: the others are [b, b]
    assert state.legal_actions(0) == ["b", "b + a", "b + b", "b + a, b", "a", "a + b", "a + 2 x b"]
    state.apply(0, "b + a, b")
    assert zone(state, "out") == ["b", "a", "b"]


def test_an_option_text_longer_than_a_save_keeps_is_refused_before_any_is_listed(tmp_path):
    # six cards with 2,000-letter names: "lead + aa…, bb…, …" runs past the 10,000 characters of one saved action
    names = "\n".join(f'  - {{name: "{chr(97 + i) * 2000}", zone: hand}}' for i in range(6))
    path = tmp_path / "long.yaml"
    path.write_text(f"""
game: Long names
players: {{min: 1, max: 1}}
components:
  - {{name: lead, zone: hand}}
{names}
zones:
  hand: {{visibility: public}}
procedures:
  go(player p): |
    ask p to choose one of hand plus any number of hand as first, others
setup: ""
flow:
  - phase: once
    turn: go
""")
    with pytest.raises(RuleError, match=r"long\.yaml:16:28: procedures\.go\(player p\): an option of this choice "
                                        r"\(one of 7 different plus any number of 7\) could list 12,019 characters"):
        load_game(path).new_game(1, 0)


def test_a_choice_is_refused_exactly_when_its_longest_option_could_be_longer_than_an_action_may_have():
    """``savable_labels`` refuses exactly the choices whose longest option (the ``k`` longest entries, "name" or
    "N x name" and a separator each, after the prefix) is over the limit, whatever shortcut it takes."""
    import random

    from interpreter.runtime.decisions import savable_labels
    from interpreter.runtime.limits import MAX_ACTION_TEXT

    def longest(prefix, keys, caps, k):
        entries = sorted(len(key) + 2 + (len(str(cap)) + 3 if cap > 1 else 0) for key, cap in zip(keys, caps))
        return len(prefix) + sum(entries[-k:]) if k > 0 else len(prefix)

    rng = random.Random(0)
    refused = accepted = 0
    for _ in range(3000):
        groups = rng.randrange(1, 40)
        keys = ["x" * rng.choice((1, 50, 300, 800)) for _ in range(groups)]
        caps = tuple(rng.choice((1, 1, 2, 9, 10, 1000)) for _ in range(groups))
        k = rng.randrange(-1, groups + 2)
        prefix = "p" * rng.choice((0, 5, 9000))
        try:
            savable_labels(prefix, keys, caps, k, "a test", None)
        except RuleError:
            refused += 1
            assert longest(prefix, keys, caps, k) > MAX_ACTION_TEXT
        else:
            accepted += 1
            assert longest(prefix, keys, caps, k) <= MAX_ACTION_TEXT
    assert refused > 100 and accepted > 100
    edge = ["x" * (MAX_ACTION_TEXT // 2 - 2)] * 2  # two entries of exactly half the limit
    savable_labels("", edge, (1, 1), 2, "a test", None)
    with pytest.raises(RuleError):
        savable_labels("p", edge, (1, 1), 2, "a test", None)


def test_a_counted_plus_choice_offers_exactly_the_options_its_listing_offers():
    # (option_lists.plus_counted: counted from group sizes; listing them is the definition of the options)
    names = ["ant", "bee", "cricket", "ant", "bee", "dragonfly", "ant", "earwig"]
    counted, listed = PlusSpec("play ", names, True, None), PlusSpec("play ", names, False, None)
    rng = random.Random(4)
    spaces = 0
    for _ in range(300):
        ones = rng.sample(range(len(names)), rng.randrange(0, 5))
        pool = [rng.randrange(len(names)) for _ in range(rng.randrange(0, 6))] + rng.sample(ones, min(len(ones), 2))
        labels, values = plus_options(listed, ones, pool)
        got = plus_options(counted, ones, pool)
        if got[0] is None:
            spaces += 1
            space = got[1]
            assert option_spaces.count(space) == len(labels)
            assert option_spaces.expand(space, names) == (labels, values)
            assert [option_spaces.option(space, i, names) for i in range(len(labels))] == list(zip(labels, values))
        else:
            assert got == (labels, values) and len(labels) < 2
    assert spaces > 200
