"""Differential tests: no optimisation of the compiler changes a game, and a save or a clone plays on exactly.

Every shipped game and variant setting (found on disk, as ``test_conformance.py`` finds them) is loaded
once per set of compile options (``interpreter.CompileOptions``): every optimisation on, every one off,
and each one off alone.  Seeded random games are then played in lockstep under all of them at every
player count (another value of a whole-number setting, which folds to other constants along its default's
paths: at the fewest players; a variant of a game hundreds of decisions long: at the fewest and most):
after every action the positions must be identical (who decides, their legal actions,
the prompt, zones, variables, counters, random-number state, the log written since; every player's
view at every 25th), and at the end
the histories, every player's narration, the scores, winners and how the game ended.  A difference is
reported at the first decision where it shows, naming the game, variant, players, seed, decision
number and the two differing items.

The save test stops random games at every decision (a sample of decisions for games hundreds of
decisions long) and checks that ``State.from_json(game, state.to_json())`` and ``state.clone()``
continue exactly like the uninterrupted game: the same legal actions now, and the same history,
narration and result when played on with the same choices.

CI runs a few games per player count.  To run it bigger locally::

    RIBBIT_DIFFERENTIAL_GAMES=25 python3 -m pytest tests/compiler/test_differential.py

(the number of seeded games per player count and option set, 3 by default; games hundreds of decisions
long play half as many, and the save test plays half as many per configuration, at least one, and not
the other values of whole-number settings).
"""

from __future__ import annotations

import json
import os
import random
import reprlib

import pytest

from conftest import REPO_ROOT
from test_conformance import CONFIGURATIONS, SWEEP_CONFIGURATIONS

from interpreter import CompileOptions, RibbitError, State, load_game
from interpreter.dsl.resumable import NEVER_ENTERED

DEFINITIONS = REPO_ROOT / "definitions"
GAMES = int(os.environ.get("RIBBIT_DIFFERENTIAL_GAMES", "3"))  # seeded games per player count (see above)
LONG_GAME = 300  # decisions: a random game longer than this plays fewer seeds and samples its saves
SAVE_SAMPLE = 8  # positions saved and resumed in a long game
MAX_ACTIONS = 5000
VIEWS_EVERY = 25  # decisions: players' views are compared at the first, every 25th and the last

OPTION_SETS = [CompileOptions(), CompileOptions.none()] + [CompileOptions().without(n) for n in CompileOptions.names()]
IDS = [stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS]
# another value of a whole-number setting folds to other constants but takes its default's paths: fewest players only
AMOUNTS_ONLY = set(CONFIGURATIONS) - set(SWEEP_CONFIGURATIONS)

_short = reprlib.Repr()
_short.maxstring, _short.maxother, _short.maxlist, _short.maxdict, _short.maxlevel = 300, 160, 12, 12, 4


def load(stem: str, variants: tuple, options: CompileOptions):
    return load_game(DEFINITIONS / f"{stem}.yaml", variants=list(variants), options=options)


def configuration_name(stem: str, variants: tuple) -> str:
    return stem + (f" with variant {', '.join(variants)}" if variants else "")


# ---------------------------------------------------------------- what is compared
def position(state: State, since: int, views: bool) -> dict:
    """Everything a decision shows, in the order a difference is looked for (``views``: and what each
    player sees, which costs more than the rest together: compared at every VIEWS_EVERY-th decision)."""
    waiting = state.current_players()
    shown = {
        "whose decision": waiting,
        "legal actions": {p: state.legal_actions(p) for p in waiting},
        "prompt": state.prompt(),
        "log lines written": (state.log or [])[since:],
        "who may read them": [entry for entry in state.log_seen if entry[0] >= since],
        "zones": {state.game.zone_label(i): cards for i, cards in enumerate(state.zones) if cards},
        "game variables": state.gv,
        "player variables": state.pv,
        "counters": state.counters,
        "random-number state": state.rng,
        "ended": state.is_terminal(),
    }
    if views:
        shown["what each player sees"] = {p: state.view(p) for p in list(range(state.n)) + [None]}
    return shown


def outcome(state: State) -> dict:
    """Everything a finished (or stopped) game shows."""
    result = {"history": state.history}
    for p in list(range(state.n)) + [None]:
        result[f"narration of {'a spectator' if p is None else f'player {p + 1}'}"] = state.narration(p)
    result["log"] = state.log
    result["zones"] = {state.game.zone_label(i): cards for i, cards in enumerate(state.zones) if cards}
    if state.is_terminal():
        result.update({"scores": state.scores(), "winners": state.winners(), "returns": state.returns(),
                       "ended by": state.ended_by})
    return result


def first_difference(expected: dict, got: dict):
    """(item, expected value, other value) of the first item that differs, or None."""
    for key in expected:
        a, b = expected[key], got.get(key)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):  # name the zone / player / variable that differs
            for k in list(a) + [k for k in b if k not in a]:
                if a.get(k) != b.get(k):
                    return f"{key}: {k}", a.get(k, "(nothing)"), b.get(k, "(nothing)")
        if isinstance(a, list) and isinstance(b, list):  # the first line / item that differs
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return f"{key}, item {i + 1}", x, y
            return f"{key} (lengths {len(a)} and {len(b)})", a[len(b):] or "(nothing more)", b[len(a):] or "(nothing more)"
        return key, a, b
    return None


def divergence(where: str, decision: int, names: tuple, difference) -> str:
    item, a, b = difference
    return (f"{where}: the games part at decision {decision}: {item} differs\n"
            f"    {names[0]:>22}: {_short.repr(a)}\n"
            f"    {names[1]:>22}: {_short.repr(b)}")


def apply(state: State, player: int, action: str):
    """None, or the error text if the action fails (a failing action is a difference like any other)."""
    try:
        state.apply(player, action)
    except RibbitError as exc:
        return f"{type(exc).__name__} at {exc.location}: {exc.message}"
    return None


def play_in_lockstep(games: list, players: int, seed: int, where: str) -> int:
    """Play one seeded random game in every compiled game at once; fail at the first difference.

    Returns the number of decisions."""
    states = [game.new_game(players, seed) for game in games]
    names = [game.compile_options.describe() for game in games]
    moves = random.Random(seed)
    since = 0
    for decision in range(MAX_ACTIONS):
        views = decision % VIEWS_EVERY == 0 or states[0].is_terminal()
        expected = position(states[0], since, views)
        for state, name in zip(states[1:], names[1:]):
            found = first_difference(expected, position(state, since, views))
            if found is not None:
                pytest.fail(divergence(where, decision, (names[0], name), found), pytrace=False)
        if states[0].is_terminal():
            break
        since = len(states[0].log or [])
        player = moves.choice(states[0].current_players())
        action = moves.choice(states[0].legal_actions(player))
        errors = [apply(state, player, action) for state in states]
        for error, name in zip(errors[1:], names[1:]):
            if error != errors[0]:
                pytest.fail(divergence(where, decision, (names[0], name),
                                       (f"applying {action!r} for player {player + 1}", errors[0] or "done",
                                        error or "done")), pytrace=False)
        assert errors[0] is None, f"{where}: {errors[0]}"
    else:
        pytest.fail(f"{where}: no end after {MAX_ACTIONS} actions")
    expected = outcome(states[0])
    for state, name in zip(states[1:], names[1:]):
        found = first_difference(expected, outcome(state))
        if found is not None:
            pytest.fail(divergence(where, decision, (names[0], name), found), pytrace=False)
    return decision


def seeds_for(game, players: int) -> int:
    """Seeded games per player count: GAMES, or half as many for games hundreds of decisions long."""
    state = game.new_game(players, 0)
    moves = random.Random(0)
    for _ in range(LONG_GAME):
        if state.is_terminal():
            return GAMES
        player = moves.choice(state.current_players())
        state.apply(player, moves.choice(state.legal_actions(player)))
    return max(1, GAMES // 2)


# ---------------------------------------------------------------- every option set plays the same games
@pytest.mark.parametrize("stem, variants", CONFIGURATIONS, ids=IDS)
def test_every_compile_option_set_plays_the_same_games(stem, variants):
    games = [load(stem, variants, options) for options in OPTION_SETS]
    assert [g.compile_options for g in games] == OPTION_SETS
    played = 0
    fewest, most = games[0].min_players, games[0].max_players
    counts = range(fewest, (fewest if (stem, variants) in AMOUNTS_ONLY else most) + 1)
    if variants and seeds_for(games[0], fewest) < GAMES:  # a long game's variant: its fewest and most players
        counts = sorted({counts[0], counts[-1]})
    for players in counts:
        for seed in range(seeds_for(games[0], players)):
            where = f"{configuration_name(stem, variants)}, {players} players, seed {seed}"
            play_in_lockstep(games, players, seed, where)
            played += 1
    assert played >= len(counts)


def test_the_option_sets_are_all_on_all_off_and_each_one_off():
    names = CompileOptions.names()
    assert set(names) >= {"inline", "splice", "tables", "fold", "fuse"}
    assert [o.describe() for o in OPTION_SETS] == ["all on", "all off"] + [f"{n} off" for n in names]


DIFFERENTIAL = REPO_ROOT / "tests" / "definitions" / "differential.yaml"


def test_each_option_switches_its_optimisation_off(monkeypatch):
    """Each option is read where its optimisation is chosen: with it off, the optimisation is not made
    (and the game still plays the same)."""
    from interpreter.dsl import lower_expr

    made = {"tables": 0}
    static_table = lower_expr.ExpressionLowering._static_table

    def counted_table(*args):
        made["tables"] += 1
        return static_table(*args)
    monkeypatch.setattr(lower_expr.ExpressionLowering, "_static_table", counted_table)

    def compiled(options):
        made.update(tables=0)
        game = load_game(DIFFERENTIAL, options=options)
        calls = {"bump": 0}
        direct = game.procedures["bump"].direct

        def bump(s, e):  # called at run time only where the call was not inlined
            calls["bump"] += 1
            return direct(s, e)
        table = game.code.constants  # generated code calls the direct function it finds there (K[i])
        table[:] = [bump if value is direct else value for value in table]
        return game, dict(made), _played(game, calls)

    on, on_made, on_played = compiled(CompileOptions())
    assert on_made["tables"] > 0 and on_played[-1] == 0
    for name in CompileOptions.names():
        game, off_made, off_played = compiled(CompileOptions().without(name))
        assert off_played[:-1] == on_played[:-1], f"{name} off plays another game"
        if name == "inline":
            assert off_played[-1] > 0  # the ordinary call ran
        elif name == "tables":
            assert off_made["tables"] == 0
        elif name == "fold":  # the folded value is not used: see the next test, which breaks folding
            assert game.compile_options.fold is False
        elif name == "splice":  # spliced, 'turn' runs inside the flow's code; not spliced, it is called
            assert code_of(on, "turn") is NEVER_ENTERED is not code_of(game, "turn")
        else:  # fuse: one instruction per statement
            assert name == "fuse" and instructions(game, "main") > instructions(on, "main")


def code_of(game, name):
    """The resumable function of the procedure ``name`` (the flow is 'main'; NEVER_ENTERED if never entered)."""
    return next(proc.code for proc in game.procs if proc.name == name)


def instructions(game, name) -> int:
    """How many instructions the function of the procedure ``name`` has (its pcs; resumable.assemble)."""
    return next(proc.instructions for proc in game.procs if proc.name == name)


def _played(game, calls):
    state = game.new_game(2, 1)
    while not state.is_terminal():
        state.apply(state.current_players()[0], state.legal_actions()[-1])
    return state.history, state.log, state.scores(), calls["bump"]


# ---------------------------------------------------------------- the harness reports a difference
def test_a_broken_optimisation_is_reported_at_its_first_differing_decision(monkeypatch):
    """Constant folding broken on purpose ('2 * 3' folded to 7): the report names the game, the variant,
    the players, the seed, the decision and the two values."""
    from interpreter.dsl import static

    real = static.fold_arith
    monkeypatch.setattr("interpreter.dsl.analysis.fold_arith",  # constants are folded by the analysis
                        lambda op, a, b: real(op, a, b) + (op == "*"))
    games = [load_game(DIFFERENTIAL, options=o) for o in (CompileOptions(), CompileOptions(fold=False))]
    with pytest.raises(pytest.fail.Exception) as failed:
        play_in_lockstep(games, 2, 5, "differential.yaml, 2 players, seed 5")
    assert str(failed.value) == ("differential.yaml, 2 players, seed 5: the games part at decision 1: "
                                 "log lines written, item 1 differs\n"
                                 "                    all on: 'player 1 has 10 points'\n"
                                 "                  fold off: 'player 1 has 9 points'")


def test_a_failing_action_under_one_option_set_is_a_difference():
    """The first decision where one compiled game refuses what the other accepts is reported as such."""
    good, bad = load_game(DIFFERENTIAL), load_game(DIFFERENTIAL, options=CompileOptions.none())
    turn = bad.procedures["turn"]
    real = bad.codes[turn.id]  # the procedure's function

    def broken(s, fr, pc):  # fails when the turn goes on after its first decision
        if pc > 0:
            raise RuntimeError("broken on purpose")
        return real(s, fr, pc)
    bad.codes = list(bad.codes)
    bad.codes[turn.id] = broken
    with pytest.raises(pytest.fail.Exception) as failed:
        play_in_lockstep([good, bad], 2, 0, "differential.yaml, 2 players, seed 0")
    message = str(failed.value)
    assert "decision 0: applying" in message and "all on: 'done'" in message and "broken on purpose" in message


# ---------------------------------------------------------------- a save or a clone continues exactly
def play_on(state: State, choices: list, what: str = "", first: int = 0) -> State:
    """``state`` after ``choices``; ``what`` (and the number of the first choice) for a readable failure."""
    for number, (player, action) in enumerate(choices, first):
        legal = state.legal_actions(player)
        assert action in legal, (f"{what}: at decision {number} player {player + 1} cannot play {action!r} "
                                 f"as the whole game did; the actions open there: {_short.repr(legal)}")
        state.apply(player, action)
    return state


def check_saves_continue(game, players: int, seed: int, where: str) -> int:
    """Stop a seeded random game at every decision (a sample of them in a long game): its save and its
    clone must offer the same actions and play on to the same end.  Returns the number of stops."""
    whole = game.new_game(players, seed)
    moves = random.Random(seed)
    choices = []
    while not whole.is_terminal():
        player = moves.choice(whole.current_players())
        choices.append((player, moves.choice(whole.legal_actions(player))))
        whole.apply(*choices[-1])
    ending = outcome(whole)
    if len(choices) > LONG_GAME:
        stops = sorted(random.Random(f"stops {seed}").sample(range(len(choices)), SAVE_SAMPLE))
    else:
        stops = range(len(choices) + 1)
    state, done = game.new_game(players, seed), 0
    for stop in stops:
        play_on(state, choices[done:stop])
        done = stop
        saved = json.loads(json.dumps(state.to_json()))
        for how, copy in (("the save", State.from_json(game, saved)), ("the clone", state.clone())):
            for p in range(players):
                assert copy.legal_actions(p) == state.legal_actions(p), \
                    f"{where}: {how} at decision {stop} offers player {p + 1} other actions"
            found = first_difference(ending, outcome(play_on(copy, choices[stop:], f"{where}: {how} at decision {stop}",
                                                             stop)))
            assert found is None, divergence(where, stop, ("the whole game", how), found)
    assert [tuple(h) for h in state.history] == choices[:done]
    return len(stops)


@pytest.mark.parametrize("stem, variants", SWEEP_CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in SWEEP_CONFIGURATIONS])
def test_a_save_or_a_clone_at_any_decision_continues_like_the_game(stem, variants):
    game = load(stem, variants, CompileOptions())
    counts = list(range(game.min_players, game.max_players + 1))
    for seed in range(max(1, GAMES // 2)):
        players = counts[seed % len(counts)]
        where = f"{configuration_name(stem, variants)}, {players} players, seed {seed}"
        assert check_saves_continue(game, players, seed, where) >= min(SAVE_SAMPLE, 10)


def test_a_clone_that_goes_its_own_way_is_reported(monkeypatch):
    """A clone that forgets the random-number state (broken on purpose) is caught where it parts."""
    real = State.clone

    def forgetful(state):
        copy = real(state)
        copy.rng = 12345
        return copy
    monkeypatch.setattr(State, "clone", forgetful)
    game = load_game(DIFFERENTIAL)
    with pytest.raises(AssertionError) as failed:
        check_saves_continue(game, 2, 3, "differential.yaml, 2 players, seed 3")
    assert str(failed.value).startswith("differential.yaml, 2 players, seed 3: the games part at decision 0: ")
    assert "the whole game" in str(failed.value) and "the clone" in str(failed.value)


# ---------------------------------------------------------------- found by this harness
QUANTITY_READER = """
game: Quantity Reader
players: {min: 2, max: 2}
components:
  - {name: stone, count: 6, zone: deck}
zones:
  deck: {visibility: public}
  hand: {per: player, visibility: public}
player_variables:
  points: 0
quantities:
  reach(player p): 2
functions:
  reach_of(player p): reach(p) + 1
procedures:
  take_turn(player p): |
    p.points += reach_of(players[0])
    move top(deck) to hand(p)
flow:
  - phase: play
    turn: take_turn
    until: size(deck) == 0
scoring:
  score: p.points
"""


@pytest.mark.parametrize("options", [CompileOptions(), CompileOptions(inline=False)], ids=["all on", "inline off"])
def test_a_function_reading_a_quantity_works_when_its_call_is_not_inlined(tmp_path, options):
    """A function's own body is compiled before the quantities are: it must still read the quantity.
    (A call with a computed argument, players[0], is never inlined; with inlining off no call is.)"""
    path = tmp_path / "quantity_reader.yaml"
    path.write_text(QUANTITY_READER)
    state = load_game(path, options=options).new_game(2)
    assert state.is_terminal() and state.pv["points"] == [9, 9]  # 3 turns each, reach 2 + 1 a turn
