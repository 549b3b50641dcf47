"""A variable that holds a card never names it to a reader who cannot see that card where it lies.

Game and player variables of kinds ``card`` and ``cards`` point at cards on the table; a reader (a seat, or
a spectator) reads the card's name in the view, the trace and an adapter's observation only while they see
that card (as narration names it), else ``"a card"``; a bot searching a determinised copy finds in the
variable the card dealt to its place, not the real one.  The test-only definition
``tests/definitions/card_variables.yaml`` keeps the last card drawn, a face-down target, the buried cards and
each player's public and private cards in variables.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.agents.greedy import GreedyAgent
from invariants import seen_cards, with_cards_permuted

ROOT = Path(__file__).resolve().parents[2]
HELD = ROOT / "tests" / "definitions" / "card_variables.yaml"


@pytest.fixture(scope="module")
def game():
    return load_game(HELD)


def positions(game, players: int, seeds=range(3)):
    """Every position of seeded random games (a copy of each)."""
    for seed in seeds:
        state, rng = game.new_game(players, seed, trace=True), random.Random(seed)
        while not state.is_terminal():
            yield state.clone()
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))


def held(state, viewer):
    """(variable, value as the view shows it, the cards it holds) of every card variable ``viewer`` reads."""
    g, view = state.game, state.view(viewer)
    out = [(name, view["variables"][name], state.gv[name]) for name, kind in g.gvars.items()
           if kind in ("card", "list:card")]
    for p, row in enumerate(view["player_variables"]):
        out += [(f"{name}({p + 1})", row[name], state.pv[name][p]) for name, kind in g.pvars.items()
                if kind in ("card", "list:card") and name in row]
    return out


def test_a_card_variable_names_its_card_only_to_readers_who_see_the_card(game):
    names = game.card_names
    hidden_seen = shown_seen = 0
    for state in positions(game, 3):
        for viewer in [*state.players, None]:
            sees = seen_cards(state, viewer)
            for name, shown, value in held(state, viewer):
                cards = [] if value is None else value if type(value) is list else [value]
                expected = [names[c] if c in sees else "a card" for c in cards]
                assert (shown if type(shown) is list else [] if shown is None else [shown]) == expected, \
                    f"{name} as {viewer} reads it"
                hidden_seen += expected.count("a card")
                shown_seen += len(expected) - expected.count("a card")
    assert hidden_seen and shown_seen  # both cases met


def test_a_card_variable_reads_the_same_when_the_cards_a_reader_cannot_see_are_permuted(game):
    """Views, both observation encoders and a determinised copy's view are unchanged for that reader."""
    from interpreter.adapters.encoding import ViewEncoder
    from interpreter.adapters.state_encoding import StateEncoder

    encoder = ViewEncoder(game, 2)
    fast = StateEncoder(encoder)
    rng, checked = random.Random(5), 0
    for state in positions(game, 2):
        for viewer in [*state.players, None]:
            world, sigma = with_cards_permuted(state, sorted(set(range(len(game.card_names)))
                                                             - seen_cards(state, viewer)
                                                             - {c for c, z in enumerate(state.loc) if z < 0}), rng)
            checked += any(sigma[c] != c for c in sigma) and any(
                v in sigma for _, _, v in held(state, viewer) if type(v) is int)
            assert world.view(viewer) == state.view(viewer)
            assert (fast.encode(world, viewer) == fast.encode(state, viewer)).all()
            assert (encoder.encode(world.view(viewer)) == encoder.encode(state.view(viewer))).all()
            if viewer is not None:
                assert world.determinised(viewer, random.Random(1)).view(viewer) \
                    == state.determinised(viewer, random.Random(1)).view(viewer)
    assert checked  # some permutation did move a card a variable holds


def test_a_card_variable_change_is_traced_without_the_card_for_readers_who_cannot_see_it(game):
    state = game.new_game(2, 0, trace=True)
    seat = state.current_players()[0]
    target = game.card_names[state.gv["target"]]
    for reader in [*state.players, None]:
        records = {r["name"]: r for r in state.trace_for(reader) if r["type"] == "variable"}
        assert records["target"]["new"] == "a card"  # face down in a hidden zone: nobody sees it
        assert target not in str(state.trace_for(reader))
        drawn = records["last"]["new"]
        assert (drawn == game.card_names[state.gv["last"]]) == (reader == seat)


def test_a_bot_finds_in_a_card_variable_the_card_dealt_to_its_place_not_the_real_one(game):
    """A greedy bot keeps in mind the card that beats the target it cannot see: its choice must not follow the
    real target (permuting the unseen cards, the target variable with them, changes nothing it sees)."""
    followed = 0
    for seed in range(12):
        state = game.new_game(2, seed)
        seat = state.current_players()[0]
        unseen = sorted(set(range(len(game.card_names))) - seen_cards(state, seat))
        choices = set()
        for k in range(4):
            world, _ = with_cards_permuted(state, unseen, random.Random(k))
            assert world.view(seat) == state.view(seat)
            choices.add(GreedyAgent(seed=3).act(world, seat))
        followed += len(choices) > 1
    assert followed == 0, f"the bot's choice followed the hidden target in {followed} of 12 games"


def test_a_card_variable_starting_with_a_text_is_refused_where_it_is_written(tmp_path):
    """``default: none`` is the text "none" in YAML, not "no card": it was kept as a text, and the first view
    of the game failed with a traceback.  It is refused at load, naming the line; ``null`` is no card."""
    from interpreter.errors import RibbitError

    text = HELD.read_text(encoding="utf-8")
    (tmp_path / "none.yaml").write_text(text.replace("last: {default: null, kind: card}",
                                                      "last: {default: none, kind: card}"), encoding="utf-8")
    with pytest.raises(RibbitError) as refused:
        load_game(tmp_path / "none.yaml")
    message = str(refused.value)
    assert "none.yaml:" in message and "game_variables.last.default" in message and "null" in message


@pytest.mark.parametrize("definition", ["card_variables", "blind_picks"])
def test_narration_of_card_variables_and_blind_picks_does_not_change_when_unseen_cards_are_permuted(
        monkeypatch, definition):
    from invariants import check_cards, random_playout
    from test_narration import check_lines_as_written

    game = load_game(ROOT / "tests" / "definitions" / f"{definition}.yaml")
    checked = check_lines_as_written(monkeypatch, random.Random(3))
    for seed in range(3):
        random_playout(game, 2 + seed % 2, seed, checks=(check_cards,))
    assert checked
