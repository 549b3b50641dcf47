"""Integer actions: option ``i`` of a player is ``legal_actions(player)[i]``, made without the others' texts.

``legal_action_ids``, ``action_to_string``, ``sample_action_id`` and ``apply_id`` (interpreter/state.py);
choices of several cards are kept as option spaces and unranked (interpreter/runtime/option_spaces.py).
tests/definitions/large_choice.yaml is one large choice of each form, then the end of the game.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import cache

import pytest

from conftest import REPO_ROOT
from interpreter import IllegalActionError, RuleError, State, load_game
from interpreter.state import replay
from interpreter.agents import RandomAgent
from interpreter.dsl import decisions, one_plus_any
from interpreter.runtime import option_spaces
from interpreter.runtime.selections import combo_shapes
from interpreter.sim import play_out
from test_conformance import CONFIGURATIONS, shipped_game
from test_mechanisms import load

stats = pytest.importorskip("scipy.stats", reason="the uniformity tests need scipy (the dev extra)")

FORMS = {1: "choose 4 of the table", 2: "any number of the small cards", 3: "one big card plus any number of small"}


@cache
def large_choice_game():
    return load("large_choice")


def large_choice(form: int, game=None) -> State:
    return (game or large_choice_game()).new_game(2, 0, scenario={"game_variables": {"form": form}})


def same_position(a: State, b: State) -> bool:
    def position(s):
        return json.dumps([s.to_json(), [f.to_json() for f in s.frames], s.pending and s.pending.to_json(), s.trace])
    return position(a) == position(b)


# ---------------------------------------------------------------- numbering an option space
@pytest.mark.parametrize("caps", [(1,), (3,), (1, 1, 1, 1), (3, 2, 1, 1, 2, 1, 1, 1), (2, 5, 1, 3), (4, 4, 4)])
def test_option_k_of_a_space_is_the_kth_selection_listed(caps):
    for k in range(sum(caps) + 1):
        listed = combo_shapes(caps, k)
        assert [option_spaces._shape(caps, k, i) for i in range(len(listed))] == [list(s) for s in listed]
    every = [list(s) for k in range(sum(caps) + 1) for s in combo_shapes(caps, k)]
    assert [option_spaces._any_shape(caps, i) for i in range(len(every))] == every


def test_a_huge_selection_is_numbered_in_the_order_of_the_large_listing():
    caps = (2,) * 9 + (1,) * 8  # comb(26, 6) > 20,000: combo_shapes lists it by its large-case path
    listed = combo_shapes(caps, 6)
    assert len(listed) > 20_000
    for i in list(range(0, len(listed), 97)) + [len(listed) - 1]:
        assert option_spaces._shape(caps, 6, i) == list(listed[i])


@pytest.mark.parametrize("form", FORMS, ids=FORMS.values())
def test_a_large_choice_lists_no_option_until_asked_and_stays_plain_data(form):
    state = large_choice(form)
    pending = json.dumps(state.pending.to_json())
    assert state.pending["labels"] == [None] and state.pending["values"] == [None]  # nothing listed
    assert state.pending["lazy"][0][0] == ("choose" if form < 3 else "plus")
    legal = state.legal_actions(0)
    assert json.dumps(state.pending.to_json()) == pending  # asking changes nothing the rules made
    assert state.legal_action_ids(0) == range(len(legal)) and state.legal_action_ids(1) == range(0)
    assert [state.action_to_string(0, i) for i in state.legal_action_ids(0)] == legal
    assert state.to_json()["pending"]["labels"] == [legal]  # a save lists them, as before


@pytest.mark.parametrize("form", FORMS, ids=FORMS.values())
def test_an_option_space_lists_what_the_listing_builder_lists(form, monkeypatch):
    spaced = large_choice(form).legal_actions(0)
    monkeypatch.setattr(decisions, "names_can_collide", lambda names: True)  # the builder that lists everything
    monkeypatch.setattr(one_plus_any, "names_can_collide", lambda names: True)
    listing = load_game(REPO_ROOT / "tests" / "definitions" / "large_choice.yaml")
    state = large_choice(form, listing)
    assert state.pending["lazy"] is None
    assert state.legal_actions(0) == spaced
    assert len(spaced) == {1: 143, 2: 24, 3: 72}[form]
    assert spaced[:3] == {1: ["keep 3 x ant, bee", "keep 3 x ant, cat", "keep 3 x ant, dog"],
                          2: ["keep nothing", "keep ant", "keep bee"],
                          3: ["keep dog", "keep dog + ant", "keep dog + bee"]}[form]


def test_a_first_card_with_nothing_to_add_is_listed_as_unranking_names_and_picks_it():
    names = ["ant", "bee", "cat", "cat"]
    alone = ["plus", "play ", [0, 1, 2], [1, 1, 1], [], [], 3]  # nothing to add to any first card
    labels, values = option_spaces.expand(alone, names)
    assert labels == [option_spaces.label(alone, i, names) for i in range(3)] == ["play ant", "play bee", "play cat"]
    assert values == [option_spaces.value(alone, i) for i in range(3)] == [[0], [1], [2]]
    mixed = ["plus", "play ", [0, 1], [6, 3], [1, 2, 3], ["bee", "cat", "cat"], 9]  # ant + any of bee, 2 cats; bee + cats
    labels, values = option_spaces.expand(mixed, names)
    assert labels == [option_spaces.label(mixed, i, names) for i in range(9)]
    assert values == [option_spaces.value(mixed, i) for i in range(9)]
    assert labels[0] == "play ant" and values[0] == [0] and labels[6:] == ["play bee", "play bee + cat", "play bee + 2 x cat"]


def test_cards_whose_names_could_make_two_options_read_alike_are_listed_in_full():
    assert option_spaces.names_can_collide(["ant", "half card: air + fire"])
    assert option_spaces.names_can_collide(["salt, pepper"]) and option_spaces.names_can_collide(["2 x ant"])
    assert not option_spaces.names_can_collide(["ant", "bee", "red frog 3"])


# ---------------------------------------------------------------- apply_id is apply
@pytest.mark.parametrize("form", FORMS, ids=FORMS.values())
def test_apply_id_plays_exactly_what_apply_plays(form):
    for i in (0, 1, 17, 23):
        by_text, by_number = large_choice(form), large_choice(form)
        by_text.apply(0, by_text.legal_actions(0)[i])
        by_number.apply_id(0, i)
        assert same_position(by_text, by_number)
        assert by_number.history == by_text.history and by_number.log == by_text.log


@pytest.mark.parametrize("form", FORMS, ids=FORMS.values())
def test_apply_id_on_an_option_space_makes_the_chosen_option_alone_once(form, monkeypatch):
    state = large_choice(form)
    space, names = state.pending["lazy"][0], state.game.card_names
    assert [option_spaces.option(space, i, names) for i in range(option_spaces.count(space))] == \
        [(option_spaces.label(space, i, names), option_spaces.value(space, i)) for i in range(option_spaces.count(space))]
    located = []
    real = option_spaces._locate
    monkeypatch.setattr(option_spaces, "_locate", lambda *args: located.append(args[1]) or real(*args))
    monkeypatch.setattr(option_spaces, "expand", None)  # no listing of every option
    by_text = large_choice(form)
    expected = by_text.action_to_string(0, 17)
    located.clear()
    state.apply_id(0, 17)
    assert located == [17] and state.history[-1] == [0, expected]


def test_apply_id_traces_the_choice_as_apply_does():
    game = large_choice_game()
    states = [game.new_game(2, 0, scenario={"game_variables": {"form": 3}}, trace=True) for _ in range(2)]
    states[0].apply(0, "keep elk + 2 x ant")
    states[1].apply_id(0, states[1].legal_actions(0).index("keep elk + 2 x ant"))
    assert states[1].trace == states[0].trace
    assert {"type": "decision", "player": 1, "prompt": "keep", "options": 72, "chosen": "keep elk + 2 x ant",
            "automatic": False} in states[1].trace


@pytest.mark.parametrize("bad, message", [
    (143, "143 is not an action id of player 0 (seat 1) now: the ids are 0 to 142"),
    (-1, "-1 is not an action id of player 0 (seat 1) now: the ids are 0 to 142"),
    (True, "an action id must be exactly an int, not bool True"),
    ("3", "an action id must be exactly an int, not str '3'"),
    (2.0, "an action id must be exactly an int, not float 2.0"),
])
def test_an_illegal_action_id_is_refused_and_changes_nothing(bad, message):
    state = large_choice(1)
    before = json.dumps([state.to_json(), [f.to_json() for f in state.frames], state.pending and state.pending.to_json()])
    with pytest.raises(IllegalActionError) as caught:
        state.apply_id(0, bad)
    assert str(caught.value) == message
    with pytest.raises(IllegalActionError):
        state.action_to_string(0, bad)
    assert json.dumps([state.to_json(), [f.to_json() for f in state.frames], state.pending and state.pending.to_json()]) == before


def test_an_action_id_of_a_player_not_asked_or_of_a_finished_game_is_refused():
    state = large_choice(2)
    with pytest.raises(IllegalActionError, match=r"it is not player 1's \(seat 2\) decision; waiting for player 0"):
        state.apply_id(1, 0)
    with pytest.raises(IllegalActionError, match="there is no player 5 in this 2-player game"):
        state.apply_id(5, 0)
    with pytest.raises(IllegalActionError, match=r"player 1 \(seat 2\) has no decision to make now"):
        state.sample_action_id(1, random.Random(0))
    state.apply_id(0, 3)
    assert state.over and state.legal_action_ids() == range(0)
    with pytest.raises(IllegalActionError, match="the game is over; action id 0 cannot be played"):
        state.apply_id(0, 0)


def test_a_rule_that_fails_after_an_action_id_rewinds_the_game(monkeypatch):
    state = large_choice(1)
    before = json.dumps([state.to_json(), [f.to_json() for f in state.frames], state.pending and state.pending.to_json()])
    real = State._run

    def failing_once(self):  # the rules that run after the action fail; the replay that rewinds runs them right
        monkeypatch.setattr(State, "_run", real)
        raise RuleError("a rule failed on purpose")
    monkeypatch.setattr(State, "_run", failing_once)
    with pytest.raises(RuleError, match="on purpose"):
        state.apply_id(0, 5)
    assert json.dumps([state.to_json(), [f.to_json() for f in state.frames], state.pending and state.pending.to_json()]) == before
    assert state.history == []


def test_a_save_made_after_apply_id_is_the_save_made_after_apply():
    by_text, by_number = large_choice(1), large_choice(1)
    label = by_text.legal_actions(0)[42]
    by_text.apply(0, label)
    by_number.apply_id(0, 42)
    assert by_number.history == [[0, label]]  # the option's text, as apply records it
    assert by_number.to_json() == by_text.to_json()
    assert State.from_json(by_number.game, by_number.to_json()).to_json() == by_text.to_json()


def test_a_simultaneous_choice_of_several_cards_takes_ids_per_player():
    state = load("selection").new_game(2, 0, scenario={"zones": {
        "hand(1)": ["walk", "jump", "plus one", "plus one", "double"],
        "hand(2)": ["run", "run", "plus two", "plus two", "double"]}})
    assert [state.action_to_string(1, i) for i in state.legal_action_ids(1)] == state.legal_actions(1)
    copy = state.clone()
    state.apply_id(1, 5)
    copy.apply(1, "play run + 2 x plus two, double")
    assert state.current_players() == [0] and same_position(state, copy)
    state.apply_id(0, 4)
    copy.apply(0, "play walk + plus one, double")
    assert same_position(state, copy)
    assert state.log == ["player 2 wins the round with run and 3 extras."]


# ---------------------------------------------------------------- every shipped game
def random_positions(game, players: int, seed: int, share: float):
    """The positions of one random game (a share of them), played by number."""
    rng = random.Random(seed)
    state = game.new_game(players, seed)
    while not state.is_terminal() and len(state.history) < 400:
        if rng.random() < share:
            yield state
        seat = state.current_players()[0]
        state.apply_id(seat, state.sample_action_id(seat, rng))


@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join("+" + v for v in variants) for stem, variants in CONFIGURATIONS])
def test_every_shipped_game_numbers_its_actions_as_it_lists_them(stem, variants):
    game = shipped_game(stem, variants)
    checked = 0
    for players in sorted({game.min_players, game.max_players}):
        for position in random_positions(game, players, seed=players, share=0.15 if stem == "top_frog" else 0.5):
            rng = random.Random(checked)
            for seat in position.current_players():
                ids = position.legal_action_ids(seat)
                legal = position.clone().legal_actions(seat)
                assert [position.action_to_string(seat, i) for i in ids] == legal
                i = rng.randrange(len(legal))
                by_text, by_number = position.clone(), position.clone()
                by_text.apply(seat, legal[i])
                by_number.apply_id(seat, i)
                assert same_position(by_text, by_number), f"{stem} {variants}: {legal[i]!r}"
                checked += 1
    assert checked > 5


# ---------------------------------------------------------------- the random bot is uniform over legal_actions
def first_choices(start: State, games: int) -> Counter:
    """The option each of ``games`` random bots (the simulate path: act_id + apply_id) chose first."""
    chosen = Counter()
    for seed in range(games):
        state = start.clone()
        play_out(state, {0: RandomAgent(seed), 1: RandomAgent(seed + 1)})
        chosen[state.history[0][1]] += 1
    return chosen


def uniformity(chosen: Counter, legal: list) -> float:
    """The chi-square p-value of ``chosen`` against uniform over ``legal`` (every option once)."""
    assert set(chosen) <= set(legal)
    return stats.chisquare([chosen[label] for label in legal]).pvalue


@pytest.mark.parametrize("form", FORMS, ids=FORMS.values())
def test_the_random_bot_plays_every_distinct_option_equally_often(form):
    start = large_choice(form)
    legal = start.legal_actions(0)
    chosen = first_choices(start, 25 * len(legal))
    assert len(chosen) == len(legal)  # every option is reached
    assert uniformity(chosen, legal) > 0.001
    if form == 1:  # the test tells: drawing four of the twelve cards instead is far from uniform over options
        cards, names = start.zones[0], start.game.card_names
        wrong = Counter()
        draw = random.Random(0)
        for _ in range(25 * len(legal)):
            picked = sorted(draw.sample(cards, 4), key=cards.index)
            counts = Counter(names[c] for c in picked)
            wrong["keep " + ", ".join(n if k == 1 else f"{k} x {n}" for n, k in counts.items())] += 1
        assert set(wrong) == set(legal) and uniformity(wrong, legal) < 1e-9


def test_the_random_bot_builds_any_frog_tower_tower_equally_often():
    game = load_game(REPO_ROOT / "definitions" / "frog_tower.yaml")
    start = None
    for seed in range(200):  # a tower choice with many options, reached in a random game
        rng = random.Random(seed)
        state = game.new_game(3, seed, log=False)
        while not state.is_terminal():
            seat = state.current_players()[0]
            if state.prompt() == "build a tower with" and len(state.legal_action_ids(seat)) >= 15:
                start = state
                break
            state.apply_id(seat, state.sample_action_id(seat, rng))
        if start is not None:
            break
    seat = start.current_players()[0]
    legal = start.legal_actions(seat)
    assert start.pending["lazy"] is not None  # a space: the bot never lists the options
    chosen = Counter()
    for n in range(40 * len(legal)):
        state = start.clone()
        state.apply_id(seat, RandomAgent(n).act_id(state, seat))
        chosen[state.history[-1][1]] += 1
    assert len(chosen) == len(legal) and uniformity(chosen, legal) > 0.001


def test_simulate_plays_the_same_games_by_number_as_by_text():
    class ByText(RandomAgent):
        act_id = None  # play_out falls back to act(): legal_actions + apply

    game = load_game(REPO_ROOT / "definitions" / "top_frog.yaml")
    for seed in range(2):
        games = []
        for kind in (RandomAgent, ByText):
            state = game.new_game(3, seed)
            play_out(state, {p: kind(seed * 10 + p) for p in range(3)})
            games.append((state.history, state.log, state.scores()))
        assert games[0] == games[1]


def test_the_readme_example_of_actions_by_number_runs():
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("```python\n")[1:]]
    example = next(b for b in blocks if "apply_id" in b)
    scope: dict = {}
    exec(compile(example, "README.md", "exec"), scope)
    state = scope["state"]
    assert state.is_terminal()
    assert replay(state.game, 3, 7, state.history).to_json() == state.to_json()  # the texts replay the game
