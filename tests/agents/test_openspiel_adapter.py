"""interpreter.adapters.openspiel: an OpenSpiel Python game for any definition, checked by OpenSpiel's random_sim_test.

Skipped only when the ``openspiel`` extra (open_spiel) is not installed.
"""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")

from interpreter import DefinitionError, load_game  # noqa: E402
from interpreter.adapters.openspiel import RECALL, RibbitSpielGame  # noqa: E402
from interpreter.runtime.chance import Unresolved, raw  # noqa: E402

DEFINITIONS = Path(__file__).resolve().parents[2] / "definitions"


def spiel_game(path: str, variants=(), players: int = 2, **options) -> RibbitSpielGame:
    return RibbitSpielGame(load_game(DEFINITIONS / path, variants=list(variants)), players, **options)


def chance_step(state, rng) -> None:
    """Apply one outcome of the chance node ``state`` is at, drawn by its probabilities."""
    outcomes = state.chance_outcomes()
    state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])


def to_decision(state, rng):
    """``state`` after the outcomes of the chance nodes it is at (drawn by their probabilities): at a decision."""
    while state.is_chance_node():
        chance_step(state, rng)
    return state


def raw_zones(state) -> list:
    """The Ribbit state's zones read deciding nothing (chance mode's undecided zones in their sorted order)."""
    return [raw(cards) for cards in state.ribbit.zones]


def at_secret_decision_of_several_seats(game):
    """A state of a random game at a secret decision that waits for two or more seats, and that decision."""
    rng = random.Random(0)
    for _ in range(200):
        state = to_decision(game.new_initial_state(), rng)
        while not state.is_terminal():
            decision = state.ribbit.view(None)["decision"]
            if decision["secret"] and len(decision["waiting_for"]) >= 2:
                return state, decision
            state.apply_action(rng.choice(state.legal_actions()))
            to_decision(state, rng)
    raise AssertionError("no random game reached a secret decision of two or more seats")


SHIPPED = [  # every shipped definition, and the variants that add decisions of their own
    ("frog_tower.yaml", [], 3),
    ("frog_tower.yaml", ["crayfish"], 4),
    ("frog_tower.yaml", ["flower"], 2),
    ("kaeru.yaml", [], 2),
    ("kaeru.yaml", ["unknown_tastes"], 2),
    ("crazy_eights.yaml", [], 3),
    ("top_frog.yaml", [], 2),
]


def test_every_shipped_definition_is_covered():
    assert {p.name for p in DEFINITIONS.glob("*.yaml")} <= {path for path, _, _ in SHIPPED}


@pytest.mark.parametrize("path, variants, players", SHIPPED)
def test_the_game_passes_openspiel_s_random_simulation_test_with_serialisation(path, variants, players):
    game = spiel_game(path, variants, players)
    assert game.chance == "explicit"  # the default: every random event a chance node
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


EVERY_VARIANT = [(path.name, variant.stem) for path in sorted(DEFINITIONS.glob("*.yaml"))
                 for variant in sorted((DEFINITIONS / "variants" / path.stem).glob("*.yaml"))]


@pytest.mark.parametrize("path, variant", EVERY_VARIANT)
def test_every_shipped_variant_passes_the_random_simulation_test_with_serialisation(path, variant):
    ribbit = load_game(DEFINITIONS / path, variants=[variant])
    pyspiel.random_sim_test(RibbitSpielGame(ribbit, ribbit.min_players), num_sims=1, serialize=True, verbose=False)


def test_the_seed_model_passes_the_random_simulation_test_with_serialisation():
    pyspiel.random_sim_test(spiel_game("kaeru.yaml", chance="seed"), num_sims=2, serialize=True, verbose=False)


def test_a_serialised_state_comes_back_as_it_was_and_plays_on_alike():
    game = spiel_game("crazy_eights.yaml", players=3)
    state, rng = game.new_initial_state(), random.Random(3)
    for _ in range(20):  # chance nodes and decisions alike (legal_actions at a chance node: its outcomes)
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game) and str(again) == str(state) and again.history() == state.history()
    for seat in range(3):
        assert again.information_state_string(seat) == state.information_state_string(seat)
        assert again.information_state_tensor(seat) == state.information_state_tensor(seat)
    while not state.is_terminal():
        assert again.legal_actions() == state.legal_actions()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        again.apply_action(action)
    assert again.returns() == state.returns()
    assert pickle.loads(pickle.dumps(state)).returns() == state.returns()


@pytest.mark.parametrize("path, variants, players", [("crazy_eights.yaml", [], 3), ("kaeru.yaml", [], 2)])
def test_a_resampled_world_serialises_and_plays_on_alike(path, variants, players):
    """A world dealt again for search holds no chance outcome in its history (they name hidden cards), so it
    cannot be replayed: it pickles as its data, undecided zones undecided, and comes back as it was."""
    game = spiel_game(path, variants, players)
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    to_decision(state, rng)
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert any(type(cards) is Unresolved and cards.lo < cards.hi for cards in world.ribbit.zones)
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, world))
    assert raw_zones(again) == raw_zones(world) and again.ribbit.history == world.ribbit.history
    for seat in range(players):
        assert again.information_state_string(seat) == world.information_state_string(seat)
        assert again.information_state_tensor(seat) == world.information_state_tensor(seat)
    while not world.is_terminal():
        assert again.legal_actions() == world.legal_actions()
        if world.is_chance_node():
            assert again.chance_outcomes() == world.chance_outcomes()  # the same cards left to draw
        action = rng.choice(world.legal_actions())
        world.apply_action(action)
        again.apply_action(action)
    assert again.returns() == world.returns()


def test_the_seed_model_s_first_node_chooses_a_seed_uniformly_and_deals_ribbit_s_seeded_game():
    game = spiel_game("kaeru.yaml", seeds=10, chance="seed")
    state = game.new_initial_state()
    assert state.is_chance_node() and game.max_chance_outcomes() == 10
    outcomes = state.chance_outcomes()
    assert [seed for seed, _ in outcomes] == list(range(10)) and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal with seed 7"
    state.apply_action(7)
    dealt = game.ribbit.new_game(2, 7)
    assert state.observation_string(0) == json.dumps(dealt.view(0), sort_keys=True)
    assert state.current_player() == dealt.current_players()[0]
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == sorted(dealt.legal_actions(0))


@pytest.mark.parametrize("outcome", [10, 11, 10 ** 12])
def test_the_seed_model_s_deal_refuses_an_outcome_that_is_not_one_of_its_seeds_and_stays_before_the_deal(outcome):
    """As the engine's own chance nodes refuse an outcome they do not have (and an illegal decision is refused)."""
    state = spiel_game("kaeru.yaml", seeds=10, chance="seed").new_initial_state()
    with pytest.raises(pyspiel.SpielError, match=f"outcome {outcome} is not one of this chance node's: the deal's "
                                                 "seeds are 0 to 9"):
        state.apply_action(outcome)
    assert state.is_chance_node() and str(state) == "before the deal" and state.history() == []
    state.apply_action(9)
    assert not state.is_chance_node() and state.ribbit.seed == 9


def test_a_clone_is_independent_and_keeps_the_history():
    game = spiel_game("kaeru.yaml")
    state = to_decision(game.new_initial_state(), random.Random(3))
    state.apply_action(state.legal_actions()[0])
    to_decision(state, random.Random(4))
    before, ribbit_before = state.history(), list(state.ribbit.history)
    clone = state.clone()
    assert clone.history() == before and clone.ribbit.history == ribbit_before
    clone.apply_action(clone.legal_actions()[0])
    to_decision(clone, random.Random(5))
    assert state.history() == before and state.ribbit.history == ribbit_before
    assert len(clone.history()) > len(before) and clone.ribbit.history[:len(ribbit_before)] == ribbit_before


def test_a_clone_at_a_decision_cannot_predict_the_next_draw():
    """The explicit model: a state holds no order for the hidden cards not drawn yet, so two clones of it
    given different outcomes at the next draw deal different cards (the seed model's clones deal alike)."""
    def probe(chance):
        game = spiel_game("crazy_eights.yaml", players=3, chance=chance)
        rng, found, undecided = random.Random(1), [], 0
        state = to_decision(game.new_initial_state(), rng)
        while not state.is_terminal() and len(found) < 3:
            for cards in state.ribbit.zones:
                if type(cards) is Unresolved and cards.lo < cards.hi:
                    run = raw(cards)[cards.lo:cards.hi]
                    assert run == sorted(run)  # canonical order: nothing of a shuffle's outcome is kept
                    undecided += 1
            for action in state.legal_actions():
                a, b = state.child(action), state.child(action)
                if chance == "explicit" and not a.is_chance_node():
                    continue
                if a.is_chance_node():
                    outcomes = a.chance_outcomes()
                    assert len({p for _, p in outcomes}) == 1  # every card it may be, as likely
                    a.apply_action(outcomes[0][0])
                    b.apply_action(outcomes[1][0])
                    to_decision(a, random.Random(0))
                    to_decision(b, random.Random(0))
                found.append(raw_zones(a) != raw_zones(b))
                break
            state.apply_action(rng.choice(state.legal_actions()))
            to_decision(state, rng)
        return found, undecided

    found, undecided = probe("explicit")
    assert len(found) == 3 and all(found) and undecided
    found, _ = probe("seed")  # the seed model's clones know the draw: the check tells the two apart
    assert found and not any(found)


def test_information_states_never_show_another_seat_s_secret_pick():
    game = spiel_game("frog_tower.yaml", ["crayfish"], 4)
    state, decision = at_secret_decision_of_several_seats(game)
    first = state.current_player()
    others = [p for p in range(4) if p != first]
    assert len(state.legal_actions()) >= 2
    seen = set()
    for action in state.legal_actions():
        after = state.child(action)
        assert after.current_player() == decision["waiting_for"][1]
        seen.add(tuple(after.information_state_string(p) for p in others))
    assert len(seen) == 1
    picks = {state.child(action).information_state_string(first) for action in state.legal_actions()}
    assert len(picks) == len(state.legal_actions())  # the seat itself remembers what it chose


def test_the_information_state_is_the_view_the_seat_s_own_actions_and_its_narration():
    game = spiel_game("kaeru.yaml")
    rng = random.Random(1)
    state = to_decision(game.new_initial_state(), rng)
    seat = state.current_player()
    state.apply_action(state.legal_actions()[0])
    to_decision(state, rng)
    ribbit = state.ribbit
    own = [action for player, action in ribbit.history if player == seat]
    assert len(own) == 1
    assert state.information_state_string(seat) == (json.dumps(ribbit.view(seat), sort_keys=True) + "\n"
                                                    + json.dumps(own) + "\n" + "\n".join(ribbit.narration(seat)))
    assert state.observation_string(1 - seat) == json.dumps(ribbit.view(1 - seat), sort_keys=True)
    assert spiel_game("kaeru.yaml", chance="seed").new_initial_state().information_state_string(0) == "before the deal"


@pytest.mark.parametrize("path, variants, players", [("kaeru.yaml", [], 2), ("crazy_eights.yaml", [], 3)])
def test_no_chance_outcome_reaches_a_seat_before_the_step_that_draws_it_is_done(path, variants, players):
    game = spiel_game(path, variants, players)
    state, rng, nodes = game.new_initial_state(), random.Random(2), 0

    def seen():
        return [(state.observation_string(p), state.information_state_string(p), state.observation_tensor(p),
                 state.information_state_tensor(p)) for p in range(players)]

    for _ in range(40):
        if state.is_terminal():
            break
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        first = seen()  # the position before the step: every chance node of the step shows it alike
        while state.is_chance_node():
            assert seen() == first
            chance_step(state, rng)
            nodes += 1
    assert nodes >= 2


def test_the_readme_example_runs(monkeypatch):
    readme = (DEFINITIONS.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Game-AI ecosystem", 1)[1].split("\n## ", 1)[0]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    monkeypatch.chdir(DEFINITIONS.parent)
    (example,) = [block for block in blocks if "adapters.openspiel" in block]
    scope = {}
    exec(compile(example, "README.md", "exec"), scope)
    assert not scope["state"].is_chance_node() and scope["state"].legal_actions()  # dealt, at a decision


@pytest.mark.parametrize("options", [{"max_actions": 0}, {"max_actions": False}, {"seeds": 0}, {"seeds": 1.0},
                                     {"max_decisions": -5}])
def test_a_game_size_that_is_not_a_positive_int_is_refused(options):
    name = next(iter(options))
    with pytest.raises(DefinitionError, match=f"{name} must be a whole number \\(an int\\) from 1 to "):
        spiel_game("kaeru.yaml", **options)


def test_legal_actions_are_the_fixed_ids_of_the_options_and_name_them():
    game = spiel_game("crazy_eights.yaml", players=3)
    rng = random.Random(4)
    state = to_decision(game.new_initial_state(), rng)
    for _ in range(30):
        to_decision(state, rng)
        seat = state.current_player()
        ids = game.actions.ids(state.ribbit, seat)
        assert state.legal_actions() == sorted(ids) and game.num_distinct_actions() == game.actions.size
        assert [state.action_to_string(seat, a) for a in ids] == state.ribbit.legal_actions(seat)
        action = rng.choice(ids)
        text = state.action_to_string(seat, action)
        state.apply_action(action)
        assert state.ribbit.history[-1] == [seat, text]
    to_decision(state, rng)
    wrong = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match=f"action {wrong} is not legal for player"):
        state.apply_action(wrong)


# ==================================================================== tensors
TENSOR_GAMES = [("frog_tower.yaml", ["crayfish"], 4), ("kaeru.yaml", [], 2), ("crazy_eights.yaml", [], 3),
                ("top_frog.yaml", [], 2)]


def spiel_positions(game, seeds=range(2), every: int = 5):
    """Adapter states of random games (every ``every``-th decision, and the end; never a chance node)."""
    for seed in seeds:
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():  # a random event (or the seed model's deal): by its probabilities
                chance_step(state, rng)
                continue
            if len(state.ribbit.history) % every == 0:
                yield state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


@pytest.mark.parametrize("path, variants, players", TENSOR_GAMES)
def test_the_tensors_have_the_shapes_the_game_states_and_are_never_empty(path, variants, players):
    game = spiel_game(path, variants, players)
    (observation,), (information,) = game.observation_tensor_shape(), game.information_state_tensor_shape()
    assert observation == game.encoder.size and information == observation + game.recall.size > 0
    assert game.recall.size == game.actions.parts_size + RECALL * game.recall.slot_size
    before = game.new_initial_state()  # setup's first chance node: the position before setup
    assert len(before.observation_tensor(0)) == observation and len(before.information_state_tensor(0)) == information
    assert not any(spiel_game(path, variants, players, chance="seed").new_initial_state().observation_tensor(0))
    for state in spiel_positions(game, seeds=range(1), every=9):
        for seat in range(players):
            seen = np.asarray(state.observation_tensor(seat), np.float32)
            assert np.array_equal(seen, game.encoder.encode(state.ribbit.view(seat)))
            assert len(state.information_state_tensor(seat)) == information


@pytest.mark.parametrize("path, variants, players", TENSOR_GAMES[1:3])
def test_the_tensors_read_from_python_are_openspiel_s_own_and_deal_no_new_game(path, variants, players, monkeypatch):
    """rl_environment reads both tensors of every seat at every step from Python: OpenSpiel's C++ path
    (``pyspiel.State.observation_tensor``) deals a new game per call to learn the shape; the adapter's does not."""
    game = spiel_game(path, variants, players, narration=False)
    dealt, deal = [], RibbitSpielGame.new_initial_state
    monkeypatch.setattr(RibbitSpielGame, "new_initial_state", lambda self: dealt.append(self) or deal(self))
    for state in spiel_positions(game, seeds=range(1), every=7):
        for seat in range(players):
            del dealt[:]
            python = (state.observation_tensor(seat), state.information_state_tensor(seat))
            assert not dealt and all(type(tensor) is list for tensor in python)
            assert python == (pyspiel.State.observation_tensor(state, seat),
                              pyspiel.State.information_state_tensor(state, seat))
    with pytest.raises(pyspiel.SpielError, match="player must be a seat"):
        state.observation_tensor(players)


@pytest.mark.parametrize("path, variants, players", TENSOR_GAMES)
def test_the_tensors_do_not_change_when_the_cards_a_seat_cannot_see_are_permuted(path, variants, players):
    from invariants import seen_cards, with_cards_permuted

    game = spiel_game(path, variants, players)
    rng, moved, recalled = random.Random(0), 0, 0
    for state in spiel_positions(game, seeds=range(1)):
        for seat in range(players):
            unseen = [card for cards in raw_zones(state) for card in cards
                      if card not in seen_cards(state.ribbit, seat)]
            world, sigma = with_cards_permuted(state.ribbit, unseen, rng)
            moved += any(game.ribbit.card_names[a] != game.ribbit.card_names[b] for a, b in sigma.items())
            other = state.clone()
            other._state.state = world
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            recalled += any(own_actions_in_order(state, seat).ravel())
    assert moved and recalled  # (the tensors compared held the seat's own actions in order)


def own_actions_in_order(state, seat) -> np.ndarray:
    """The information state tensor's window of ``seat``'s last actions (RECALL rows, most recent first)."""
    observer = state.get_game().make_py_observer()
    observer.set_from(state, seat)
    return observer.dict["own actions in order"].copy()


def read_back(game, row) -> int | None:
    """The fixed id a window row holds (None: an empty row), worked out from the table's blocks."""
    on = np.flatnonzero(row)
    if not len(on):
        return None
    actions, parts = game.actions, game.actions.parts_size
    items, texts, templates = len(actions.items), len(actions.texts), actions.templates
    head, holes = on[0], [(at - parts) % items for at in on[1:]]
    assert head < parts and [(at - parts) // items for at in on[1:]] == list(range(len(holes)))  # hole k, block k
    if head < items + texts:
        return int(head)
    if head < items + texts + len(templates):
        _, count, first = templates[head - items - texts]
        assert len(holes) == count  # one item per hole, hole 1 first
        return first + sum(digit * items ** (count - 1 - k) for k, digit in enumerate(holes))
    return actions.fallback + int(head - items - texts - len(templates))


@pytest.mark.parametrize("path, variants, players", [("crazy_eights.yaml", [], 3), ("top_frog.yaml", [], 2),
                                                     ("frog_tower.yaml", ["crayfish"], 4)])
def test_the_information_state_tensor_lists_the_seat_s_last_actions_in_order(path, variants, players):
    game = spiel_game(path, variants, players)
    state, rng, taken = game.new_initial_state(), random.Random(6), [[] for _ in range(players)]
    templated = 0
    for _ in range(600 if path == "top_frog.yaml" else 300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        seat, action = state.current_player(), rng.choice(state.legal_actions())
        state.apply_action(action)
        taken[seat].append(action)
        templated += len(np.flatnonzero(own_actions_in_order(state, seat)[0])) > 1
        for p in range(players):
            window = own_actions_in_order(state, p)
            expected = list(reversed(taken[p][-RECALL:])) + [None] * (RECALL - min(RECALL, len(taken[p])))
            assert [read_back(game, row) for row in window] == expected
    assert max(map(len, taken)) > RECALL  # the window slid
    if path == "top_frog.yaml":
        assert templated  # an action of a template with holes was read back


def test_the_information_state_tensor_never_shows_another_seat_s_secret_pick_but_remembers_its_own():
    game = spiel_game("frog_tower.yaml", ["crayfish"], 4)
    state, _ = at_secret_decision_of_several_seats(game)
    first = state.current_player()
    others = [p for p in range(4) if p != first]
    children = [state.child(action) for action in state.legal_actions()]
    assert len(children) >= 2
    assert len({tuple(tuple(c.information_state_tensor(p)) for p in others) for c in children}) == 1
    assert len({tuple(c.information_state_tensor(first)) for c in children}) == len(children)


# ==================================================================== search
@pytest.mark.parametrize("chance", ["seed", "explicit"])
@pytest.mark.parametrize("path, variants, players", [("frog_tower.yaml", ["crayfish"], 4), ("kaeru.yaml", [], 2),
                                                     ("crazy_eights.yaml", [], 3)])
def test_a_resampled_state_has_the_seat_s_information_state_and_deals_the_rest_again(path, variants, players,
                                                                                       chance):
    game = spiel_game(path, variants, players, chance=chance)
    differs = 0
    for state in spiel_positions(game, seeds=range(2), every=2):
        if state.is_terminal():
            continue
        seat = state.current_player()
        world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert world.current_player() == seat and world.legal_actions() == state.legal_actions()
        differs += raw_zones(world) != raw_zones(state)
        assert world.history() == state.history()
        assert all(seat >= 0 for seat, _ in world.ribbit.history)  # no chance outcome: they name hidden cards
    assert differs  # the cards the seat cannot see were dealt again


def test_a_resample_at_a_chance_node_is_refused_with_the_reason():
    game = spiel_game("kaeru.yaml", chance="explicit")
    state = game.new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(pyspiel.SpielError, match="resample_from_infostate at a chance node"):
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


@pytest.mark.parametrize("chance", ["seed", "explicit"])
def test_openspiel_s_ismcts_bot_plays_through_the_adapter(chance):
    from open_spiel.python.algorithms import ismcts, mcts

    game = spiel_game("frog_tower.yaml", ["crayfish"], 4, chance=chance)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 2.0, 8,
                           random_state=np.random.RandomState(0))
    state, rng = game.new_initial_state(), random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("chance", ["seed", "explicit"])
def test_openspiel_s_mcts_bot_plays_through_the_adapter(chance):
    from open_spiel.python.algorithms import mcts

    game = spiel_game("kaeru.yaml", chance=chance)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state, rng = game.new_initial_state(), random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


# ==================================================================== chance models
@pytest.mark.parametrize("path, variants, players", [("kaeru.yaml", [], 2), ("frog_tower.yaml", ["crayfish"], 4)])
def test_chance_is_the_engine_s_chance_nodes_by_default(path, variants, players):
    game = spiel_game(path, variants, players)
    state = game.new_initial_state()
    assert game.chance == "explicit" and state.is_chance_node() and state.ribbit.is_chance()
    assert state.chance_outcomes() == state.ribbit.chance_outcomes()  # the engine's outcomes and probabilities
    assert game.max_chance_outcomes() >= max(outcome for outcome, _ in state.chance_outcomes()) + 1
    outcome = state.chance_outcomes()[0][0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcome).endswith(f"(outcome {outcome})")
    with pytest.raises(pyspiel.SpielError, match="is not an outcome of the pending chance event"):
        state.apply_action(10 ** 6)
    assert state.is_chance_node() and state.ribbit.history == []  # refused, and nothing changed


def test_a_chance_model_that_is_not_seed_or_explicit_is_refused():
    with pytest.raises(DefinitionError, match="chance must be 'explicit' .* or 'seed' .*, not str 'dice'"):
        spiel_game("kaeru.yaml", chance="dice")
