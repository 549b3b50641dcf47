"""The Python API refuses malformed arguments with Ribbit's own errors and changes nothing.

A caller of the API has the whole process anyway (docs/security.md, "Not in scope"); these checks are
a courtesy to programs: a wrong argument is an IllegalActionError that says what was expected, never a
bare AttributeError from deep inside, and never quietly accepted.  The adapters' arguments are in
tests/agents/test_pettingzoo_adapter.py and tests/agents/test_openspiel_adapter.py.
"""

from __future__ import annotations

import random

import pytest

from interpreter import IllegalActionError, load_game

from conftest import REPO_ROOT


@pytest.fixture(scope="module")
def kaeru():
    return load_game(REPO_ROOT / "definitions" / "kaeru.yaml")


class NotARandom:
    def randrange(self, n):
        return 0

    def getrandbits(self, k):
        return 0


@pytest.mark.parametrize("rng", [None, 3, "seed", NotARandom()], ids=["none", "int", "text", "look-alike"])
def test_sample_action_id_needs_a_random_generator(kaeru, rng):
    state = kaeru.new_game(2, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"sample_action_id draws from rng, which must be a random\.Random "
                                                 r"\(random\.Random\(seed\)\), not "):
        state.sample_action_id(0, rng)
    assert state.to_json() == before


@pytest.mark.parametrize("seat, message", [
    (-1, "there is no player -1 in this 2-player game"),
    (2, "there is no player 2 in this 2-player game"),
    (True, "a player must be exactly an int, numbered 0 to 1 (seats 1 to 2), not bool True"),
    ("0", "a player must be exactly an int, numbered 0 to 1 (seats 1 to 2), not str '0'"),
    (0.0, "a player must be exactly an int, numbered 0 to 1 (seats 1 to 2), not float 0.0"),
])
def test_determinised_is_only_for_a_seat_of_the_game(kaeru, seat, message):
    state = kaeru.new_game(2, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as caught:
        state.determinised(seat, random.Random(0))
    assert str(caught.value).startswith(message)
    assert state.to_json() == before


@pytest.mark.parametrize("rng", [None, 7, NotARandom()], ids=["none", "int", "look-alike"])
def test_determinised_needs_a_random_generator(kaeru, rng):
    state = kaeru.new_game(2, seed=1)
    with pytest.raises(IllegalActionError, match="determinised draws from rng, which must be a random.Random"):
        state.determinised(0, rng)


def test_a_random_generator_of_a_subclass_is_accepted(kaeru):
    class Seeded(random.Random):
        pass

    state = kaeru.new_game(2, seed=1)
    assert state.sample_action_id(0, Seeded(1)) in state.legal_action_ids(0)
    assert state.determinised(1, Seeded(1)).view(1) == state.view(1)


@pytest.mark.parametrize("cap", [0, -1, True, 2.5, None])
def test_simulate_refuses_a_decision_cap_that_would_stop_every_game_at_once(cap):
    from interpreter import DefinitionError
    from interpreter.sim import simulate

    with pytest.raises(DefinitionError, match="max_decisions must be a whole number \\(an int\\) from 1, not "):
        simulate(REPO_ROOT / "definitions" / "kaeru.yaml", 2, 2, max_decisions=cap)
