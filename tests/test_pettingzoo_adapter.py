"""interpreter.adapters.pettingzoo: a PettingZoo AEC environment for any definition, checked by PettingZoo's api_test.

Skipped only when the ``pettingzoo`` extra (pettingzoo, gymnasium) is not installed.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install -e '.[pettingzoo]'")

from pettingzoo.test import api_test  # noqa: E402

from interpreter import DefinitionError, IllegalActionError, RibbitError, load_game, replay  # noqa: E402
from interpreter.adapters import ActionIndexError, TooManyActionsError  # noqa: E402
from interpreter.adapters.pettingzoo import RibbitEnv  # noqa: E402

DEFINITIONS = Path(__file__).resolve().parents[1] / "definitions"

CONFIGURATIONS = [  # every shipped definition, and the variants that add decisions of their own
    ("frog_tower.yaml", [], 3),
    ("frog_tower.yaml", ["crayfish"], 4),  # secret simultaneous passes
    ("frog_tower.yaml", ["flower"], 2),
    ("kaeru.yaml", [], 2),
    ("kaeru.yaml", ["unknown_tastes"], 2),
    ("crazy_eights.yaml", [], 3),
    ("top_frog.yaml", [], 3),  # simultaneous secret selection with bonus cards, a board per player count
]
EXPECTED = {path for path, _, _ in CONFIGURATIONS}


def make_env(path: str, variants=(), players: int = 2, **options) -> RibbitEnv:
    return RibbitEnv(load_game(DEFINITIONS / path, variants=list(variants)), players, **options)


def test_every_shipped_definition_is_covered():
    assert {p.name for p in DEFINITIONS.glob("*.yaml")} <= EXPECTED


@pytest.mark.parametrize("path, variants, players", CONFIGURATIONS)
def test_the_environment_passes_pettingzoo_s_api_test(path, variants, players):
    env = make_env(path, variants, players)
    with warnings.catch_warnings():  # api_test's advice for plain-array observations, not failures
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=300)


def play_masked(env: RibbitEnv, seed: int, rng: random.Random):
    """Play a whole game through the AEC API, choosing uniformly among the actions the mask allows."""
    env.reset(seed=seed)
    chosen = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert list(legal) == list(range(len(info["legal_actions"])))
        assert info["legal_actions"] == env.state.legal_actions(env.seat[agent])
        action = int(rng.choice(legal))
        chosen.append((env.seat[agent], info["legal_actions"][action]))
        env.step(action)
    return chosen


def test_a_game_played_through_the_environment_is_the_game_the_engine_plays_from_that_seed():
    env = make_env("kaeru.yaml")
    chosen = play_masked(env, 5, random.Random(1))
    state = replay(env.game, 2, 5, chosen)
    assert state.is_terminal() and env.state.history == state.history
    rewards = {agent: 0.0 for agent in env.possible_agents}
    env.reset(seed=5)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(info["legal_actions"].index(chosen[len(env.state.history)][1]))
    assert [rewards[agent] for agent in env.possible_agents] == state.returns()
    assert env.agents == []  # every agent stepped out once the game was over


def secret_decision(env: RibbitEnv, seed: int):
    """Play random actions until a secret decision waits for two or more seats; None if the game ends first."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    while not env.state.is_terminal():
        view = env.state.view(None)
        if view["decision"]["secret"] and len(view["decision"]["waiting_for"]) >= 2:
            return env.state.history[:]
        env.step(rng.randrange(len(env.legal_actions(env.agent_selection))))
    return None


def test_at_a_secret_decision_seats_act_in_turn_and_no_observation_shows_another_s_pick():
    env = make_env("frog_tower.yaml", ["crayfish"], 4)
    history = next(h for h in (secret_decision(env, seed) for seed in range(200)) if h is not None)
    seed = env.state.seed
    first = env.agent_selection
    waiting = env.state.current_players()
    assert env.seat[first] == waiting[0]
    options = env.legal_actions(first)
    assert len(options) >= 2
    before = None
    seen = set()
    for index in range(len(options)):
        env.reset(seed=seed)
        for player, action in history:
            env.step(env.legal_actions(env.agent_selection).index(action))
        if before is None:
            before = {a: env.observe(a)["observation"].tobytes() for a in env.possible_agents if a != first}
        env.step(index)
        second = env.agent_selection
        assert env.seat[second] == waiting[1] and env.terminations[second] is False
        seen.add(tuple(env.observe(a)["observation"].tobytes() for a in env.possible_agents if a != first))
    assert len(seen) == 1  # every pick the first seat could make looks the same to all the others
    after = dict(zip([a for a in env.possible_agents if a != first], seen.pop()))
    assert after != before  # ... and they do see that it has decided


def test_observations_do_not_change_when_hidden_cards_are_exchanged_but_the_owner_s_does():
    env = make_env("crazy_eights.yaml", players=3)
    env.reset(seed=2)
    game, state = env.game, env.state
    stock = game.zone_index("stock")
    hand = game.zone_index("hand(2)")
    before = {agent: env.observe(agent)["observation"].copy() for agent in env.possible_agents}
    other = next(i for i, card in enumerate(state.zones[stock])
                 if game.card_names[card] != game.card_names[state.zones[hand][0]])
    a, b = state.zones[hand][0], state.zones[stock][other]
    state.zones[hand][0], state.zones[stock][other] = b, a  # one hidden card into seat 2's hand, one out
    state.loc[a], state.loc[b] = stock, hand
    state.zones[stock].reverse()  # and the draw pile in another order
    after = {agent: env.observe(agent)["observation"] for agent in env.possible_agents}
    assert np.array_equal(after["player_1"], before["player_1"])
    assert np.array_equal(after["player_3"], before["player_3"])
    assert not np.array_equal(after["player_2"], before["player_2"])


def test_the_action_space_is_sized_from_the_definition_unless_given():
    env = make_env("kaeru.yaml")
    assert env.action_space("player_1").n == env.max_actions == 8  # Kaeru offers at most 3 actions at once
    assert make_env("kaeru.yaml", max_actions=5).action_space("player_2").n == 5


def test_a_decision_with_more_actions_than_the_space_holds_is_an_error_that_names_it():
    assert issubclass(TooManyActionsError, RibbitError)  # Ribbit's own error, as every refusal of the API
    env = make_env("frog_tower.yaml", players=3, max_actions=1)
    with pytest.raises(TooManyActionsError, match=r"the decision 'choose' offers 2 actions, more than this "
                                                  r"environment's action space holds \(max_actions=1\)"):
        env.reset(seed=0)


def test_an_action_the_mask_does_not_allow_is_refused_with_the_legal_range():
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    count = len(env.legal_actions(env.agent_selection))
    with pytest.raises(ActionIndexError, match=f"has {count} legal actions now \\(0 to {count - 1}\\), not 7"):
        env.step(7)
    assert env.state.history == []


@pytest.mark.parametrize("action", ["0", 0.0, True, 1.9, None, np.float64(1.0), np.bool_(True), [0]],
                         ids=["text", "float", "bool", "fraction", "none", "numpy-float", "numpy-bool", "list"])
def test_an_action_that_is_not_the_number_of_a_legal_action_is_refused_and_plays_nothing(action):
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    agent, before = env.agent_selection, env.state.to_json()
    with pytest.raises(ActionIndexError, match="an action is the number of one of player_1's 3 legal actions now "
                                               r"\(an int, 0 to 2\), not "):
        env.step(action)
    assert env.state.to_json() == before and env.agent_selection == agent
    assert issubclass(ActionIndexError, IllegalActionError) and issubclass(ActionIndexError, ValueError)


def test_numpy_integers_are_action_numbers():
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    env.step(np.int64(0))
    env.step(np.array(0))
    assert len(env.state.history) == 2


def test_an_agent_the_game_does_not_have_is_refused_with_ribbit_s_error():
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    for call in (lambda: env.observe("player_3"), lambda: env.action_space("nobody"),
                 lambda: env.observation_space(1), lambda: env.legal_actions(None)):
        with pytest.raises(IllegalActionError, match="there is no agent .* in this game; its agents are player_1, "
                                                     "player_2"):
            call()


def test_a_finished_agent_is_stepped_only_with_none_and_nothing_is_stepped_after_the_game():
    env = make_env("kaeru.yaml")
    with pytest.raises(ActionIndexError, match=r"reset\(\) must be called before step\(\)"):
        env.step(0)
    env.reset(seed=2)
    rng = random.Random(2)
    while not all(env.terminations.values()):
        env.step(rng.randrange(len(env.legal_actions(env.agent_selection))))
    agents, before = list(env.agents), env.state.to_json()
    with pytest.raises(ActionIndexError, match="player_.'s game is over \\(terminated\\): the only valid action is "
                                               "None, as PettingZoo's AEC API says"):
        env.step(0)
    assert env.agents == agents and env.state.to_json() == before
    while env.agents:
        env.step(None)
    for action in (None, 0):
        with pytest.raises(ActionIndexError, match="the game is over and every agent has left"):
            env.step(action)


@pytest.mark.parametrize("options", [{"max_actions": 0}, {"max_actions": -1}, {"max_actions": True},
                                     {"max_actions": 2.0}, {"max_actions": "8"}, {"max_actions": 10 ** 9},
                                     {"max_decisions": 0}, {"max_decisions": None}])
def test_an_environment_size_that_is_not_a_positive_int_is_refused(options):
    name = next(iter(options))
    with pytest.raises(DefinitionError, match=f"{name} must be a whole number \\(an int\\) from 1 to "):
        make_env("kaeru.yaml", **options)
    assert issubclass(DefinitionError, RibbitError)


@pytest.mark.parametrize("seed", ["3", 1.5, True])
def test_a_seed_that_is_not_an_int_is_refused_not_rounded(seed):
    env = make_env("kaeru.yaml")
    with pytest.raises(DefinitionError, match="the seed must be a whole number"):
        env.reset(seed=seed)
    env.reset(seed=np.int64(3))
    assert env.state.seed == 3


def test_a_game_still_running_after_max_decisions_is_truncated_for_every_agent():
    env = make_env("frog_tower.yaml", players=3, max_decisions=4)
    env.reset(seed=1)
    for _ in range(4):
        env.step(0)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.state.ended_by == "decision cap"


def readme_examples(marker: str) -> list[str]:
    """The Python examples of the README's "Game-AI ecosystem" section that use ``marker``."""
    readme = (DEFINITIONS.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Game-AI ecosystem", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    return [block for block in blocks if marker in block]


def test_the_readme_example_runs(monkeypatch):
    monkeypatch.chdir(DEFINITIONS.parent)
    (example,) = readme_examples("adapters.pettingzoo")
    scope = {}
    exec(compile(example, "README.md", "exec"), scope)
    assert scope["env"].agents == [] and scope["env"].state.is_terminal()
