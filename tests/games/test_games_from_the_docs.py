"""Games and house rules written from the documentation alone, by someone who never read the engine
(tests/definitions/from_the_docs/): a press-your-luck game, a sealed-bid auction, a race on a board of one-way
edges, and house rules for Frog Tower, Kaeru and Top Frog. Each is played on seeded games and checked against
what its rules say."""

from __future__ import annotations

import random

import pytest

from interpreter import load_game
from interpreter.dsl.compiler import Compiler, Scope
from interpreter.dsl.parser import parse_expression

from conftest import REPO_ROOT

FROM_THE_DOCS = REPO_ROOT / "tests" / "definitions" / "from_the_docs"
DEFINITIONS = REPO_ROOT / "definitions"


def played(game, players, seeds=range(6)):
    return [game.new_game(players, seed).playout(random.Random(seed)) for seed in seeds]


def zone(state, name):
    return state.view(None)["zones"][name]["cards"]


@pytest.mark.parametrize("players", [2, 4])
def test_press_your_luck_ends_when_a_player_banks_the_target_and_that_player_wins(players):
    for state in played(load_game(FROM_THE_DOCS / "push.yaml"), players):
        assert state.ended_by == "end game"
        winner, = state.winners()
        assert state.scores()[winner] >= 25 and all(s < 25 for seat, s in enumerate(state.scores()) if seat != winner)
        assert all("busts on" not in line or "draws" in previous
                   for previous, line in zip(state.log, state.log[1:]))  # a bust comes right after its draw


@pytest.mark.parametrize("players", [2, 4])
def test_the_auction_gives_each_prize_to_a_lone_highest_bid_and_discards_the_rest(players):
    for state in played(load_game(FROM_THE_DOCS / "auction.yaml"), players):
        won = [zone(state, f"won({seat})") for seat in range(1, players + 1)]
        assert sum(map(len, won)) + len(zone(state, "box")) == 5  # every prize was auctioned
        assert [len(zone(state, f"used({seat})")) for seat in range(1, players + 1)] == [5] * players
        assert state.scores() == [sum({"small prize": 1, "medium prize": 3, "big prize": 5}[c] for c in w) for w in won]


@pytest.mark.parametrize("players", [2, 3])
def test_the_race_is_won_by_the_pawn_that_reaches_home(players):
    for state in played(load_game(FROM_THE_DOCS / "race.yaml"), players):
        winner, = state.winners()
        assert zone(state, "stand(home)") == [["red pawn", "blue pawn", "green pawn"][winner]]
        assert all(len(zone(state, f"stand({sp})")) <= 1 for sp in ("a", "b", "fork", "c", "d", "e", "shortcut", "join"))


def test_race_to_twelve_ends_frog_tower_when_a_player_reaches_twelve_points():
    game = load_game(DEFINITIONS / "frog_tower.yaml", variants=[str(FROM_THE_DOCS / "race_to_twelve.yaml")])
    states = played(game, 2, range(8))
    by_the_rule = [s for s in states if any("points and wins." in line for line in s.log)]
    assert by_the_rule  # the house rule decided some of these games
    for state in by_the_rule:
        winner, = state.winners()
        assert state.log[-1] == f"player {winner + 1} reaches {state.scores()[winner]} points and wins."
        assert state.scores()[winner] >= 12


def test_catch_up_jumps_move_the_trailing_players_frogs_one_pip_further():
    game = load_game(DEFINITIONS / "kaeru.yaml", variants=[str(FROM_THE_DOCS / "catch_up.yaml")])
    state = game.new_game(2, 0, scenario={"zones": {"goal(2)": ["goal: air"], "eaten(2)": ["whole card: air"]}})

    def movement(owner):
        text = f"movement(first(each f in gap where f.owner == {owner} and f.pips == 1))"
        fn, _ = Compiler(game).expr(parse_expression(text), Scope({}, None))
        return fn(state, {})

    assert (movement(1), movement(2)) == (2, 1)  # player 1 scores less: a 1-pip frog jumps 2


def test_squander_consolation_gives_each_squandering_player_a_gnat():
    game = load_game(DEFINITIONS / "top_frog.yaml", variants=[str(FROM_THE_DOCS / "squander_consolation.yaml")])
    squanders = 0
    for state in played(game, 3, range(2)):
        for at, line in enumerate(state.log):
            if line.startswith("Squander on "):
                squanders += 1
                here = [word for word in line.split(": ")[1].split(" all play")[0].replace(" and", ",").split(", ")]
                consoled = [text for text in state.log[at:] if text.endswith(" is consoled.")][:len(here)]
                assert consoled == [f"{q} is consoled." for q in here]
    assert squanders
