"""Narration and the table agree, for every audience, by one rule (docs/dsl.md, "Public reveals").

The invariant, checked after every action over the lines that action wrote (and after setup over its lines),
with each audience's view at the moment the lines are delivered (a player's, or a spectator's):

* **named, then shown**: a card a line names to an audience in the clear is listed in that audience's view
  when the line is delivered, unless after the line the card left that audience's sight by the rule: it moved
  from where not everyone saw it, its zone was shuffled, another card left its zone, or another card covered
  it on a pile; or it was seen only through a zone's ``seen_by`` when written.  A card everyone saw go into a
  zone that hides it (a frog caught from the Pond and held) stays listed: narration and table both name it.
* **hidden, then hidden**: a part a line reads as hidden ("(hidden)", "a card") never refers to cards the
  audience's view lists when the line is delivered, unless one of them moved, was shown or was uncovered
  after the line (later news the line could not know).

What happened to each card between a line and its delivery comes from :mod:`public_recall`, which follows
every move and shuffle itself; it never reads ``State.public``.
"""

from __future__ import annotations

import random

import pytest

from conftest import REPO_ROOT
from interpreter import State, load_game
from interpreter import trace as TR
from public_recall import check_lines_agree_with_views, recalled

FISH = REPO_ROOT / "tests" / "definitions" / "public_reveals.yaml"
TOP_FROG = REPO_ROOT / "definitions" / "top_frog.yaml"


def play_checked(game, players, seed, recall, max_actions=600) -> int:
    """A random traced game, narration checked against the views after setup and after every action."""
    moves = random.Random(seed)
    state = game.new_game(players, seed, trace=True)
    checked = check_lines_agree_with_views(state, recall, 0)
    for _ in range(max_actions):
        if state.is_terminal():
            break
        since = len(recall.lines)
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
        checked += check_lines_agree_with_views(state, recall, since)
    return checked


@pytest.mark.parametrize("players, seeds", [(2, range(3)), (4, range(2))])
def test_top_frog_narration_names_a_card_exactly_when_the_table_shows_it(monkeypatch, players, seeds):
    game = load_game(TOP_FROG)
    with recalled(monkeypatch, lines=True) as recall:
        checked = sum(play_checked(game, players, seed, recall) for seed in seeds)
    assert checked > 100 and recall.named_public > 10  # held frogs and returned action cards among them


@pytest.mark.parametrize("players", [2, 3])
def test_public_fish_narration_names_a_card_exactly_when_the_table_shows_it(monkeypatch, players):
    game = load_game(FISH)
    with recalled(monkeypatch, lines=True) as recall:
        checked = sum(play_checked(game, players, seed, recall) for seed in range(6))
    assert checked > 50 and recall.named_public > 0  # a book's card kept


class Forgetful(set):
    """A State.public that never keeps a card: the engine as it was before the rule."""

    def add(self, card):
        pass

    def update(self, *cards):
        pass


def test_the_agreement_check_fails_when_a_card_everyone_saw_go_is_hidden_again(monkeypatch):
    """Without the rule ('Green holds Unicorn.' while the table shows that held frog as '1 card (hidden)'),
    the check fails: it can tell."""
    def forgetful_start(s):
        s.public = Forgetful()
        start(s)

    def forgetful_clone(s):
        c = clone(s)
        c.public = Forgetful()
        return c
    game = load_game(TOP_FROG)
    with recalled(monkeypatch, lines=True) as recall:
        start, clone = TR.start, State.clone  # the recall's own, which these call
        monkeypatch.setattr(TR, "start", forgetful_start)
        monkeypatch.setattr(State, "clone", forgetful_clone)
        with pytest.raises(AssertionError, match="no longer shows it") as failed:
            for seed in range(3):
                play_checked(game, 2, seed, recall)
    assert "Rest" in str(failed.value) or "holds" in str(failed.value) or "a line named" in str(failed.value)
