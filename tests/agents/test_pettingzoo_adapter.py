"""interpreter.adapters.pettingzoo: PettingZoo AEC and parallel environments for any definition, checked by
PettingZoo's api_test, seed_test and parallel_api_test; the encoder of views (interpreter.adapters.encoding).

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

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from interpreter import DefinitionError, IllegalActionError, RibbitError, State, load_game, replay  # noqa: E402
from interpreter.adapters import ActionIndexError, TooManyActionsError, probe_max_actions  # noqa: E402
from interpreter.adapters.encoding import ViewEncoder  # noqa: E402
from interpreter.adapters.pettingzoo import RibbitEnv, RibbitParallelEnv  # noqa: E402
from interpreter.adapters.state_encoding import StateEncoder  # noqa: E402
from invariants import seen_cards, with_cards_permuted  # noqa: E402

DEFINITIONS = Path(__file__).resolve().parents[2] / "definitions"
SIMULTANEOUS = Path(__file__).resolve().parents[1] / "definitions" / "simultaneous.yaml"  # test-only: secret picks each round

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
        assert sorted(legal) == sorted(info["legal_actions"])
        assert list(info["legal_actions"].values()) == env.state.legal_actions(env.seat[agent])
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
            env.step(text_id(info["legal_actions"], chosen[len(env.state.history)][1]))
    assert [rewards[agent] for agent in env.possible_agents] == state.returns()
    assert env.agents == []  # every agent stepped out once the game was over


def text_id(legal: dict, text: str) -> int:
    """The id of the legal action that reads ``text`` (``legal``: an info's ``legal_actions``)."""
    return next(action for action, label in legal.items() if label == text)


def random_id(env, agent, rng) -> int:
    return rng.choice(list(env.legal_actions(agent)))


def secret_decision(env: RibbitEnv, seed: int):
    """Play random actions until a secret decision waits for two or more seats; None if the game ends first."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    while not env.state.is_terminal():
        view = env.state.view(None)
        if view["decision"]["secret"] and len(view["decision"]["waiting_for"]) >= 2:
            return env.state.history[:]
        env.step(random_id(env, env.agent_selection, rng))
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
    for index in options:
        env.reset(seed=seed)
        for player, action in history:
            env.step(text_id(env.legal_actions(env.agent_selection), action))
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


def test_the_fallback_block_of_the_action_space_is_sized_from_the_definition_unless_given():
    env = make_env("kaeru.yaml")
    assert env.max_actions == 16  # Kaeru offers at most 3 actions at once: the next power of two from 4 x 3
    assert env.action_space("player_1").n == env.actions.size == env.actions.fallback + 16
    small = make_env("kaeru.yaml", max_actions=5)
    assert small.action_space("player_2").n == small.actions.fallback + 5


def test_a_combination_decision_with_more_options_than_the_fallback_block_holds_is_an_error_that_names_it():
    assert issubclass(TooManyActionsError, RibbitError)  # Ribbit's own error, as every refusal of the API
    env = make_env("frog_tower.yaml", players=3, max_actions=1)
    env.reset(seed=0)
    rng = random.Random(0)
    with pytest.raises(TooManyActionsError, match=r"a decision offers \d+ combinations, more than this "
                                                  r"environment's fallback block holds \(max_actions=1\)"):
        while True:  # fixed menus and one-card choices have their own ids: only a combination can overflow
            env.step(random_id(env, env.agent_selection, rng))


def test_an_action_the_mask_does_not_allow_is_refused_with_the_legal_range():
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    legal = sorted(env.legal_actions(env.agent_selection))
    wrong = next(action for action in range(env.actions.size) if action not in legal)
    with pytest.raises(ActionIndexError, match=f"{wrong} is not one of player_1's {len(legal)} legal action ids now "
                                               f"\\({', '.join(map(str, legal))}\\)"):
        env.step(wrong)
    assert env.state.history == []


@pytest.mark.parametrize("action", ["0", 0.0, True, 1.9, None, np.float64(1.0), np.bool_(True), [0]],
                         ids=["text", "float", "bool", "fraction", "none", "numpy-float", "numpy-bool", "list"])
def test_an_action_that_is_not_the_number_of_a_legal_action_is_refused_and_plays_nothing(action):
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    agent, before = env.agent_selection, env.state.to_json()
    with pytest.raises(ActionIndexError, match="an action is the id of one of player_1's 3 legal actions now "
                                               r"\(an int: \d+, \d+, \d+\), not "):
        env.step(action)
    assert env.state.to_json() == before and env.agent_selection == agent
    assert issubclass(ActionIndexError, IllegalActionError) and issubclass(ActionIndexError, ValueError)


def test_numpy_integers_are_action_numbers():
    env = make_env("kaeru.yaml")
    env.reset(seed=0)
    env.step(np.int64(min(env.legal_actions(env.agent_selection))))
    env.step(np.array(min(env.legal_actions(env.agent_selection))))
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
        env.step(random_id(env, env.agent_selection, rng))
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
        env.step(min(env.legal_actions(env.agent_selection)))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.state.ended_by == "decision cap"


def readme_examples(marker: str) -> list[str]:
    """The Python examples of the README's "Game-AI ecosystem" section that use ``marker``."""
    readme = (DEFINITIONS.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Game-AI ecosystem", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    return [block for block in blocks if marker in block]


def test_the_readme_examples_run(monkeypatch):
    monkeypatch.chdir(DEFINITIONS.parent)
    examples = readme_examples("adapters.pettingzoo")
    assert len(examples) == 2  # the AEC environment and the parallel one
    for example in examples:
        scope = {}
        exec(compile(example, "README.md", "exec"), scope)
        assert scope["env"].agents == [] and scope["env"].state.is_terminal()


# ==================================================================== deals
def test_reset_without_a_seed_deals_a_fresh_game_each_time():
    env = make_env("kaeru.yaml")
    seeds, deals = set(), set()
    for _ in range(6):
        env.reset()
        seeds.add(env.state.seed)
        deals.add(env.observe(env.agent_selection)["observation"].tobytes())
    assert len(seeds) == 6 and len(deals) >= 2  # not one deal (seed 0) over and over


def test_reset_with_a_seed_deals_that_seed_and_the_unseeded_resets_after_it_are_reproducible():
    first, second = make_env("kaeru.yaml"), make_env("kaeru.yaml")
    sequences = []
    for env in (first, second):
        env.reset(seed=11)
        assert env.state.seed == 11
        sequences.append([env.state.seed] + [env.reset() or env.state.seed for _ in range(4)])
    assert sequences[0] == sequences[1] and len(set(sequences[0])) == 5


@pytest.mark.parametrize("path, variants, players", [("kaeru.yaml", [], 2), ("frog_tower.yaml", ["crayfish"], 4)])
def test_the_environment_passes_pettingzoo_s_seed_test(path, variants, players):
    game = load_game(DEFINITIONS / path, variants=list(variants))
    seed_test(lambda: RibbitEnv(game, players), num_cycles=100)


# ==================================================================== sizing
def test_sizing_the_action_space_stops_after_a_budget_of_decisions():
    game = load_game(DEFINITIONS / "top_frog.yaml")
    started = []
    new_game = game.new_game

    def counting(*args, **kwargs):
        started.append(args)
        return new_game(*args, **kwargs)

    game.new_game = counting
    probe_max_actions(game, 2, games=50, decisions=1)
    assert len(started) == 1  # one game of hundreds of decisions, not fifty
    started.clear()
    probe_max_actions(game, 2, games=3, decisions=10 ** 9)
    assert len(started) == 3


# ==================================================================== the encoder
ENCODED = CONFIGURATIONS + [(SIMULTANEOUS, [], 3)]


def positions(game, players: int, seeds=range(2), every: int = 7):
    """States of random games (every ``every``-th decision, and the end)."""
    for seed in seeds:
        state, rng = game.new_game(players, seed, log=False), random.Random(seed)
        while not state.is_terminal():
            if len(state.history) % every == 0:
                yield state.clone()
            seat = state.current_players()[0]
            state.apply_id(seat, state.sample_action_id(seat, rng))
        yield state


@pytest.mark.parametrize("path, variants, players", ENCODED)
def test_an_encoded_view_does_not_change_when_the_cards_its_seat_cannot_see_are_permuted(path, variants, players):
    game = load_game(DEFINITIONS / path, variants=list(variants))
    encoder, rng, moved = ViewEncoder(game, players), random.Random(0), 0
    fast = StateEncoder(encoder)  # the path the environments take: read from the state, without the view
    for state in positions(game, players):
        for seat in range(players):
            unseen = [card for cards in state.zones for card in cards if card not in seen_cards(state, seat)]
            world, sigma = with_cards_permuted(state, unseen, rng)
            moved += any(game.card_names[a] != game.card_names[b] for a, b in sigma.items())
            assert np.array_equal(encoder.encode(world.view(seat)), encoder.encode(state.view(seat)))
            assert np.array_equal(fast.encode(world, seat), fast.encode(state, seat))
    assert moved  # the permutations did put other cards where the seats could not see them


def test_the_encoding_counts_the_names_a_seat_sees_and_nothing_of_hidden_zones():
    game = load_game(DEFINITIONS / "crazy_eights.yaml")
    encoder = ViewEncoder(game, 3)
    state = game.new_game(3, 4, log=False)
    vector = encoder.encode(state.view(0))
    cards = state.view(0)["zones"]["hand(1)"]["cards"]
    hand = vector[encoder.part("zone hand(1): count, top, names")]  # seat 1's own hand: it sees every card
    assert hand[0] == len(cards) and hand[1] == 1 + encoder.names.index(cards[-1])
    assert {encoder.names[i]: int(n) for i, n in enumerate(hand[2:]) if n} == {name: cards.count(name) for name in cards}
    assert not vector[encoder.part("zone hand(2): count, top, names")][1:].any()  # another's: its count only
    stock = vector[encoder.part("zone stock: count, names")]
    assert stock[0] == len(state.zones[game.zone_index("stock")]) and not stock[1:].any()
    assert sum(length for _, _, length in encoder.parts) == encoder.size == len(vector) and vector.dtype == np.float32


# ==================================================================== the parallel environment
def make_parallel(path, variants=(), players: int = 2, **options) -> RibbitParallelEnv:
    return RibbitParallelEnv(load_game(Path(DEFINITIONS / path), variants=list(variants)), players, **options)


@pytest.mark.parametrize("path, variants, players", [(SIMULTANEOUS, [], 3), ("top_frog.yaml", [], 2),
                                                     ("frog_tower.yaml", ["crayfish"], 4), ("kaeru.yaml", [], 2)])
def test_the_parallel_environment_passes_pettingzoo_s_parallel_api_test(path, variants, players):
    env = make_parallel(path, variants, players)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a live agent without an observation, reward... is a warning: fail on it
        parallel_api_test(env, num_cycles=3000)


def test_at_a_simultaneous_decision_every_waiting_agent_acts_in_one_step():
    env = make_parallel(SIMULTANEOUS, players=3)
    observations, infos = env.reset(seed=2)
    assert env.acting == env.possible_agents
    picks = {}
    for agent in env.agents:
        legal = infos[agent]["legal_actions"]
        assert list(legal.values()) == env.state.legal_actions(env.seat[agent]) and len(legal) == 3
        assert sorted(np.flatnonzero(observations[agent]["action_mask"])) == sorted(legal)
        picks[agent] = list(legal)[2]
    env.step(picks)
    assert [seat for seat, _ in env.state.history] == [0, 1, 2]
    assert len(env.state.zones[env.game.zone_index("played(1)")]) == 1


def play_parallel(env, seed: int, rng: random.Random):
    """A whole game through the parallel API, each acting agent choosing among what its mask allows."""
    observations, infos = env.reset(seed=seed)
    chosen, rewards = [], {agent: 0.0 for agent in env.possible_agents}
    while env.agents:
        actions = {}
        for agent in env.agents:
            seat = env.seat[agent]
            assert np.array_equal(observations[agent]["observation"], env.encoder.encode(env.state.view(seat)))
            mask = observations[agent]["action_mask"]
            if agent in env.acting:
                assert list(infos[agent]["legal_actions"].values()) == env.state.legal_actions(seat)
                assert list(np.flatnonzero(mask)) == sorted(infos[agent]["legal_actions"])
                actions[agent] = int(rng.choice(np.flatnonzero(mask)))
                chosen.append((seat, infos[agent]["legal_actions"][actions[agent]]))
            else:
                assert infos[agent] == {} and list(np.flatnonzero(mask)) == [0]  # only the no-op
        observations, step_rewards, terminations, truncations, infos = env.step(actions)
        for agent, reward in step_rewards.items():
            rewards[agent] += reward
    return chosen, rewards


def test_a_game_played_through_the_parallel_environment_is_the_game_the_engine_plays_from_that_seed():
    env = make_parallel("top_frog.yaml", players=2)
    chosen, rewards = play_parallel(env, 3, random.Random(3))
    state = replay(env.game, 2, 3, chosen)
    assert state.is_terminal() and env.state.history == state.history
    assert [rewards[agent] for agent in env.possible_agents] == state.returns()


def test_top_frog_s_parallel_steps_have_several_agents_acting_at_once():
    env = make_parallel("top_frog.yaml", players=2)
    env.reset(seed=1)
    rng, together = random.Random(1), 0
    while env.agents and len(env.state.history) < 200:
        together += len(env.acting) > 1
        env.step({agent: random_id(env, agent, rng) for agent in env.acting})
    assert together


def test_an_agent_not_asked_to_act_has_only_the_no_op_and_a_wrong_step_plays_nothing():
    env = make_parallel("frog_tower.yaml", players=3)
    env.reset(seed=0)
    (acting,) = env.acting
    idle = next(agent for agent in env.agents if agent != acting)
    before = env.state.to_json()
    legal = sorted(env.legal_actions(acting))
    first = legal[0]
    refusals = [
        ({idle: 0}, f"{acting} must act now"),
        ({acting: None}, f"{acting} must act now"),
        ({acting: first, idle: 1}, r"not asked to act now; 0 is its no-op\) has 1 legal actions now \(0 to 0\), not 1"),
        ({acting: first, idle: "0"}, "not asked to act now; 0 is its no-op"),
        ({acting: 99999}, f"99999 is not one of {acting}'s 2 legal action ids now"),
        ([0], "step takes a dict of actions by agent"),
    ]
    for actions, message in refusals:
        with pytest.raises(ActionIndexError, match=message):
            env.step(actions)
        assert env.state.to_json() == before
    with pytest.raises(IllegalActionError, match="there is no agent 'player_9'"):
        env.step({acting: first, "player_9": 0})
    env.step({acting: first, idle: 0, next(a for a in env.agents if a not in (acting, idle)): None})
    assert len(env.state.history) == 1


def test_the_parallel_environment_refuses_steps_before_reset_and_after_the_game():
    env = make_parallel(SIMULTANEOUS, players=2)
    with pytest.raises(ActionIndexError, match=r"reset\(\) must be called before step\(\)"):
        env.step({})
    play_parallel(env, 0, random.Random(0))
    assert env.agents == [] and env.state.is_terminal()
    with pytest.raises(ActionIndexError, match="the game is over and every agent has left"):
        env.step({})


def test_the_parallel_environment_truncates_a_game_too_long():
    env = make_parallel(SIMULTANEOUS, players=2, max_decisions=2)
    env.reset(seed=0)
    observations, rewards, terminations, truncations, infos = env.step({agent: min(env.legal_actions(agent))
                                                                        for agent in env.acting})
    assert all(truncations.values()) and not any(terminations.values()) and env.agents == []
    assert env.state.ended_by == "decision cap"


def test_at_a_secret_decision_the_parallel_observations_show_no_pick_before_every_pick_is_made():
    env = make_parallel("frog_tower.yaml", ["crayfish"], 4)
    rng = random.Random(5)
    for seed in range(50):
        observations, infos = env.reset(seed=seed)
        while env.agents and not (env.state.pending and env.state.pending["secret"] and len(env.acting) >= 2):
            observations, *_, infos = env.step({a: random_id(env, a, rng) for a in env.acting})
        if env.agents:
            break
    assert len(env.acting) >= 2
    for agent in env.possible_agents:  # the decision waits for them all: nobody has decided, nobody sees a pick
        view = env.state.view(env.seat[agent])
        assert view["decision"]["decided"] == []
        assert np.array_equal(observations[agent]["observation"], env.encoder.encode(view))


def test_games_are_played_without_narration_unless_it_is_asked_for():
    quiet, told = make_env("kaeru.yaml"), make_env("kaeru.yaml", narration=True)
    for env in (quiet, told):
        env.reset(seed=1)
        env.step(min(env.legal_actions(env.agent_selection)))
    assert quiet.state.narration(0) == [] and told.state.narration(0) != []
    assert quiet.state.history == told.state.history
    with pytest.raises(DefinitionError, match="narration must be True or False, not str 'yes'"):
        make_parallel("kaeru.yaml", narration="yes")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_encoder_has_a_place_for_every_zone_and_space_of_the_view_at_each_player_count(players):
    game = load_game(DEFINITIONS / "top_frog.yaml")  # a board per player count: more cells and spaces with more players
    encoder = ViewEncoder(game, players)
    view = game.new_game(players, 0, log=False).view(0)
    assert {label for label, _ in encoder.zones} == set(view["zones"])
    for name, where, length in encoder.counters:
        assert length == len(view["counters"][name][where])


def test_a_parallel_step_that_fails_after_one_seat_s_action_was_played_leaves_the_game_as_before(monkeypatch):
    env = make_parallel(SIMULTANEOUS, players=3)
    env.reset(seed=1)
    before, calls, apply = env.state.to_json(), [], State.apply

    def failing_on_the_second(state, seat, action):  # a rule that fails while the second seat's pick resolves
        calls.append(seat)
        if len(calls) == 2:
            raise RuntimeError("a rule failed")
        apply(state, seat, action)

    monkeypatch.setattr(State, "apply", failing_on_the_second)
    with pytest.raises(RuntimeError, match="a rule failed"):
        env.step({agent: min(env.legal_actions(agent)) for agent in env.acting})
    monkeypatch.undo()
    assert calls == [0, 1] and env.state.to_json() == before
    env.step({agent: min(env.legal_actions(agent)) for agent in env.acting})
    assert len(env.state.history) == 3


@pytest.mark.parametrize("path, variants, players", [("kaeru.yaml", [], 2), ("top_frog.yaml", [], 3)])
def test_an_observation_info_or_mask_a_caller_keeps_keeps_its_values_after_later_steps(path, variants, players):
    env, rng, kept = make_env(path, variants, players), random.Random(2), []
    env.reset(seed=2)
    for agent in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        again = env.observe(agent)  # asked twice for one state: equal, and not the same arrays
        assert again["observation"] is not observation["observation"]
        assert again["action_mask"] is not observation["action_mask"]
        kept.append((observation, info, {key: value.copy() for key, value in observation.items()}, dict(info)))
        env.step(None if terminated or truncated else rng.choice(list(info["legal_actions"])))
    assert len(kept) > 50
    for observation, info, values, texts in kept:
        assert all(np.array_equal(observation[key], values[key]) for key in values) and info == texts
    parallel, kept = RibbitParallelEnv(env.game, players), []
    observations, infos = parallel.reset(seed=2)
    while parallel.agents:
        kept.append((observations, infos, {a: {k: v.copy() for k, v in o.items()} for a, o in observations.items()},
                     {a: dict(i) for a, i in infos.items()}))
        actions = {agent: rng.choice(list(infos[agent]["legal_actions"])) for agent in parallel.acting}
        observations, _, _, _, infos = parallel.step(actions)
    for observations, infos, values, texts in kept:
        assert all(np.array_equal(observations[a][k], values[a][k]) for a in values for k in values[a])
        assert infos == texts


@pytest.mark.parametrize("kept", [None, 2])
@pytest.mark.parametrize("path, variants, players", [("frog_tower.yaml", [], 3), ("kaeru.yaml", ["unknown_tastes"], 2),
                                                     ("frog_tower.yaml", ["crayfish"], 4)])
def test_options_offered_again_get_the_ids_texts_and_mask_worked_out_fresh_and_an_info_of_their_own(
        path, variants, players, kept, monkeypatch):
    """The environment keeps each list of options' ids, texts and mask for the next decisions that offer it
    (``DECISIONS_KEPT`` lists at most): what it gives is what a fresh table gives, and an info or mask the caller
    changes changes nothing given later."""
    from interpreter.adapters import pettingzoo
    from interpreter.adapters.actions import ActionTable

    if kept is not None:
        monkeypatch.setattr(pettingzoo, "DECISIONS_KEPT", kept)
    env, rng, steps = make_env(path, variants, players), random.Random(4), 0
    fresh = ActionTable(env.game, players, env.max_actions)
    for seed in (1, 2):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.seat[agent]
            ids = fresh.ids(env.state, seat)
            assert info["legal_actions"] == dict(zip(ids, env.state.legal_actions(seat)))
            assert list(info["legal_actions"]) == ids
            assert sorted(np.flatnonzero(observation["action_mask"])) == sorted(ids)
            info["legal_actions"].clear()  # the caller's own: changing it changes nothing given later
            observation["action_mask"][:] = 1
            env.step(rng.choice(ids))
            steps += 1
    assert len(env._decisions) <= (kept or pettingzoo.DECISIONS_KEPT)
    if kept is None:
        assert len(env._decisions) < steps / 2  # options met again, not worked out again


def test_agent_iter_gives_the_agent_to_act_until_every_agent_has_left_and_at_most_max_iter_agents():
    env, rng, stepped = make_env("kaeru.yaml"), random.Random(1), 0
    env.reset(seed=1)
    iterable = env.agent_iter(max_iter=5)
    assert list(iterable) == [env.agent_selection] * 5  # (nothing stepped: the same agent each time)
    assert list(iterable) == [env.agent_selection] * 5  # iterated again, as PettingZoo's
    for agent in env.agent_iter():
        assert agent == env.agent_selection
        _, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else rng.choice(list(info["legal_actions"])))
        stepped += 1
    assert env.agents == [] and stepped == len(env.state.history) + len(env.possible_agents)
