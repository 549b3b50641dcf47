"""Properties every game must keep, written once for any definition, and a random-playout driver that checks them.

Conformance in the style of OpenSpiel's random_sim_test.  Nothing here names a game: what a viewer may see
is worked out from the definition itself (``game.zone_spec[i].visibility``, ``game.zone_owner``,
``game.hidden_pvars``) and compared with what ``state.view`` shows.  Game-specific properties are passed to
:func:`random_playout` as extra checks by the test files that know the game.
"""

from __future__ import annotations

import json
import math
import random
from functools import lru_cache

import pytest

from interpreter import IllegalActionError, State, replay
from interpreter.determinise import cards_follow

MAX_ACTIONS = 2000  # no playout of the games tested comes near this; reaching it means the flow never ends
DECISION_KEYS = {"prompt", "secret", "waiting_for", "decided"}  # what every viewer may see of a decision


def snapshot(state) -> str:
    """The whole state as canonical text, to compare two states exactly."""
    return json.dumps(state.to_json(), sort_keys=True)


def reload(state) -> State:
    """The state saved to JSON text and loaded again."""
    return State.from_json(state.game, json.loads(json.dumps(state.to_json())))


# ==================================================================== cards
def check_cards(state, in_play: frozenset) -> None:
    """Every card is in exactly one zone or out of the game, loc agrees, and none appears or vanishes."""
    seen = set()
    for index, cards in enumerate(state.zones):
        for card in cards:
            assert card not in seen, f"card {card} is in two zones"
            seen.add(card)
            assert state.loc[card] == index, f"card {card} is in zone {index} but loc says {state.loc[card]}"
    assert len(state.loc) == len(state.game.card_names)
    out = {card for card, where in enumerate(state.loc) if where == -1}
    assert seen.isdisjoint(out)
    assert seen | out == set(range(len(state.loc)))
    assert seen == in_play, "cards came into play or left it"


# ==================================================================== views
def seen_cards(state, viewer) -> set[int]:
    """The cards ``viewer`` (``None``: a spectator) may see now, worked out from the definition: public
    zones, their own ``owner`` zones, the top of ``top`` zones, cards shown to them ('show'), cards public
    where they lie (``state.public``) and the top cards of a zone whose ``seen_by`` condition holds for them."""
    g, seen = state.game, set()
    for index, cards in enumerate(state.zones):
        if not cards:
            continue
        vis, owner = g.zone_spec[index].visibility, g.zone_owner[index]
        if vis == "public" or (vis == "owner" and viewer is not None and owner == viewer):
            seen.update(cards)
            continue
        if vis == "top":
            seen.add(cards[-1])
        watch = g.seen_zone[index] if g.seen_zone is not None else None
        if watch is not None and viewer is not None and watch[1](state.clone(), {"p": viewer}):
            seen.update(cards[-watch[0]:])
    seat = state.n if viewer is None else viewer  # a spectator: seat n, listed for what every player was shown
    seen.update(c for c, players in state.shown.items() if seat in players and state.loc[c] >= 0)
    seen.update(c for c in state.public if state.loc[c] >= 0)  # public where it lies: everyone watched it go there
    return seen


@lru_cache(maxsize=None)
def zone_layout(game, players: int) -> tuple:
    """(index, label, visibility, owner) of every zone that exists in a game of that many players."""
    return tuple((i, game.zone_label(i), game.zone_spec[i].visibility, game.zone_owner[i])
                 for i in range(game.zone_count)
                 if game.zone_spec[i].per != "player" or game.zone_owner[i] < players)


def expected_zone_views(state) -> list[dict]:
    """What each viewer (players, then a spectator) must see of the zones, worked out from the raw state."""
    names = state.game.card_names
    seen = [{} for _ in range(state.n + 1)]
    on_cards = {name: rows["card"] for name, rows in state.counters.items() if "card" in rows}

    def listed(cards):  # a card's counters are shown beside it wherever the card itself is shown
        shown = {"cards": [names[c] for c in cards]}
        if on_cards:
            shown["counters"] = {name: [row[c] for c in cards] for name, row in on_cards.items()}
        return shown

    for index, label, visibility, owner in zone_layout(state.game, state.n):
        cards = state.zones[index]
        if visibility == "public":
            closed = opened = listed(cards)
        elif visibility == "top":
            closed = opened = {"count": len(cards), "top": names[cards[-1]] if cards else None}
            if on_cards and cards:
                closed["top_counters"] = {name: row[cards[-1]] for name, row in on_cards.items()}
        else:
            closed = {"count": len(cards)}
            opened = listed(cards) if visibility == "owner" else closed
        seen_by = state.game.seen_zone[index] if state.game.seen_zone is not None else None
        for viewer, zones in enumerate(seen):
            zones[label] = opened if viewer == owner else closed
            # the top cards of a zone with seen_by, while its condition holds for this player (never a spectator)
            looks = set()
            if seen_by is not None and viewer < state.n and "cards" not in zones[label]:
                probe = state.clone()  # the condition must leave the state as it was: read it on a copy
                if seen_by[1](probe, {"p": viewer}):
                    looks = set(range(max(len(cards) - seen_by[0], 0), len(cards)))
                assert snapshot(probe) == snapshot(state)
            # a card shown to this player ('show') or public (seen by everyone) is listed beside a zone that
            # hides it, marked public when every player and the spectator see it
            def item(k, c):
                public = c in state.public or len(state.shown.get(c, ())) == state.n + 1
                return {"card": names[c], "from_top": len(cards) - 1 - k, **({"public": True} if public else {})}
            extra = sorted((item(k, c) for k, c in enumerate(cards)
                            if (viewer in state.shown.get(c, ()) or c in state.public or k in looks)
                            and "cards" not in zones[label] and not ("top" in zones[label] and k == len(cards) - 1)),
                           key=lambda item: item["from_top"])
            if extra:
                zones[label] = {**zones[label], "shown": extra}
    return seen


@lru_cache(maxsize=None)
def quoted_names(game) -> dict[str, str]:
    """Each card name as it reads inside JSON text."""
    return {name: json.dumps(name) for name in game.card_names}


def secret_names(cards_in_play: set[str], zones_seen: dict) -> set[str]:
    """Names of cards in play that the viewer cannot see and that no card the viewer can see shares."""
    return cards_in_play - {name for zone in zones_seen.values()
                            for name in zone.get("cards", [zone.get("top")]) + [s["card"] for s in zone.get("shown", [])]}


def check_decision_view(state, viewer, decision, waiting: list[int]) -> None:
    """Everyone sees who must act and who has already acted; only the viewer's own options, and no picks."""
    if state.is_terminal():
        assert decision is None, f"a finished game shows a decision to {viewer}"
        return
    pend = state.pending
    asked = viewer in pend["players"]
    assert set(decision) == DECISION_KEYS | ({"your_options"} if asked else set()), \
        f"the decision shown to {viewer} has keys {sorted(decision)}: a new key may leak others' options or picks"
    assert decision["waiting_for"] == waiting
    assert decision["secret"] == pend["secret"]
    assert decision["decided"] == [p for p in pend["players"] if p not in waiting], \
        f"the decision shown to {viewer} names who has decided wrongly"
    if viewer in waiting:
        assert decision["your_options"] == state.legal_actions(viewer)
    elif asked:
        assert decision["your_options"] == [], f"{viewer} sees options after choosing"


def check_views(state) -> None:
    """Each player and a spectator see exactly what the definition allows, and nothing more.

    Hidden zones show counts, other players' ``owner`` zones counts, ``top`` zones their top card only;
    private player variables are absent for others; the decision shows only the viewer's own options;
    and no card the viewer cannot see (nor any card of the same name) is a value anywhere else in the view
    (variables, decision).
    """
    hidden_vars = state.game.hidden_pvars
    expected = expected_zone_views(state)
    waiting = state.current_players()
    names, quoted = state.game.card_names, quoted_names(state.game)
    in_play = {names[c] for cards in state.zones for c in cards}
    for viewer in state.players + [None]:
        view = state.view(viewer)
        zones_seen = expected[state.n if viewer is None else viewer]
        assert view["you"] == viewer and view["players"] == state.n
        assert view["zones"] == zones_seen, f"zones as seen by {viewer}"
        for p, row in enumerate(view["player_variables"]):
            assert set(row) == {v for v in state.pv if v not in hidden_vars or p == viewer}, \
                f"player {p}'s variables as seen by {viewer}"
        check_decision_view(state, viewer, view.get("decision"), waiting)
        secrets = secret_names(in_play, zones_seen)
        if secrets:
            rest = json.dumps({key: value for key, value in view.items() if key != "zones"})
            leaked = [name for name in secrets if quoted[name] in rest]
            assert not leaked, f"the view of {viewer} names cards it cannot see: {sorted(leaked)}"


def check_secret_choice_is_invisible(state, player: int) -> bool:
    """Whatever ``player`` picks at a secret decision, nobody else's view can tell (until all have chosen).

    Returns whether there was such a decision to check.
    """
    pend = state.pending
    if not (pend and pend["secret"] and len(state.current_players()) > 1):
        return False
    others = [q for q in state.players if q != player] + [None]
    seen = set()
    for action in state.legal_actions(player):
        branch = state.clone()
        branch.apply(player, action)
        seen.add(json.dumps([branch.view(q) for q in others], sort_keys=True))
    assert len(seen) == 1, "another player's view depends on a secret choice"
    return True


# ==================================================================== actions, copies, saves, replays
def check_illegal_actions_change_nothing(state, before: str, rng: random.Random, stale: list[str]) -> None:
    """Unknown actions, unknown players, stale actions and acting out of turn all raise and change nothing."""
    waiting = state.current_players()
    attempts = [(waiting[0] if waiting else 0, "an action nobody can play"), (state.n, "x"), (-1, "x"), (True, "x")]
    if waiting:
        legal = state.legal_actions(waiting[0])
        attempts += [(waiting[0], a) for a in stale if a not in legal][:1]  # legal earlier, not now
        idle = [p for p in state.players if p not in waiting]
        if idle:
            attempts.append((rng.choice(idle), rng.choice(legal)))
    for player, action in attempts:
        with pytest.raises(IllegalActionError):
            state.apply(player, action)
    assert snapshot(state) == before, "an illegal action changed the state"


def check_clone_is_independent(state, before: str, rng: random.Random) -> None:
    """Playing on a clone leaves the original as it was."""
    if state.is_terminal():
        return
    copy = state.clone()
    p = rng.choice(copy.current_players())
    copy.apply(p, rng.choice(copy.legal_actions(p)))
    assert snapshot(state) == before, "playing on a clone changed the original"


def check_reload(state, before: str) -> State:
    """A JSON save (``before``, the state's snapshot) loads to the same state, players to act and options."""
    loaded = State.from_json(state.game, json.loads(before))
    assert snapshot(loaded) == before, "a saved game loads differently"
    for p in state.players:
        assert loaded.legal_actions(p) == state.legal_actions(p)
    assert loaded.current_players() == state.current_players()
    return loaded


def check_replay(state) -> None:
    """The game replays bit for bit (log included) from its seed and its actions."""
    assert snapshot(replay(state.game, state.n, state.seed, state.history)) == snapshot(state), \
        "the game does not replay from its seed and actions"


def check_result(state) -> None:
    """A finished game asks nobody, has winners among its players, and returns that sum to 1 on them."""
    assert state.is_terminal()
    assert state.current_players() == [] and state.legal_actions() == []
    winners = state.winners()
    assert winners and set(winners) <= set(state.players)
    assert math.isclose(sum(state.returns()), 1.0)
    assert [p for p, r in enumerate(state.returns()) if r > 0] == sorted(winners)
    assert len(state.scores()) == state.n


# ==================================================================== the driver
CHEAP_CHECKS = (check_cards, check_views, check_secret_choice_is_invisible, check_illegal_actions_change_nothing,
                check_result, check_replay)
ALL_CHECKS = CHEAP_CHECKS + (check_clone_is_independent, check_reload)
SHARED_CHECKS = frozenset(ALL_CHECKS)


def random_playout(game, players: int, seed: int, checks=ALL_CHECKS, max_actions: int = MAX_ACTIONS,
                   sample: float = 1.0) -> State:
    """Play one random game and return the finished state, checking ``checks`` along the way.

    ``checks`` names shared checks of this module; any other callable in it is a game-specific check
    called as ``check(state)`` on every position.  With ``check_reload`` a reloaded save (and, with
    ``check_clone_is_independent``, a clone) follows the game in lockstep from a random point, and the
    game also replays at two random points, not only at the end.  The moves come from ``seed`` alone,
    so the same seed plays the same game whatever is checked.

    ``sample`` below 1 is for games hundreds of decisions long: cards and the game's own checks still
    run at every position, the other per-position checks at a random share ``sample`` of them, and
    the save check (which replays the game so far, so costs more the later it runs) at a share
    ``sample * min(1, 20 / step)``, so its total cost grows with the game's length, not its square.
    """
    moves, rng = random.Random(seed), random.Random(f"checks {seed}")
    checks = tuple(checks)
    own_checks = [check for check in checks if check not in SHARED_CHECKS]
    cards, views, secrets = check_cards in checks, check_views in checks, check_secret_choice_is_invisible in checks
    illegal, clones, saves = (check_illegal_actions_change_nothing in checks, check_clone_is_independent in checks,
                              check_reload in checks)
    state = game.new_game(players, seed)
    in_play = frozenset(c for z in state.zones for c in z)
    followers: list[State] = []  # a reloaded save and a clone, fed the same actions in lockstep
    fork_at = rng.randrange(0, 30)
    replay_at = {rng.randrange(1, 40), rng.randrange(1, 40)} if saves and check_replay in checks else set()
    stale: list[str] = []
    before = snapshot(state) if illegal or clones or saves else None  # the position about to be checked
    for step in range(max_actions):
        here = sample >= 1 or rng.random() < sample
        if cards:
            check_cards(state, in_play)
        if views and here:
            check_views(state)
        for check in own_checks:
            check(state)
        if illegal and here:
            check_illegal_actions_change_nothing(state, before, rng, stale)
        if clones and here:
            check_clone_is_independent(state, before, rng)
        if saves and (sample >= 1 or step == fork_at or rng.random() < sample * min(1.0, 20 / (step + 1))):
            loaded = check_reload(state, before)
            if step == fork_at:
                followers = [loaded] + ([state.clone()] if clones else [])
        if step in replay_at:
            check_replay(state)
        if state.is_terminal():
            break
        player = moves.choice(state.current_players())
        actions = state.legal_actions(player)
        assert actions, f"player {player} must act but has no legal action"
        action = moves.choice(actions)
        if secrets and here:
            check_secret_choice_is_invisible(state, player)
        stale = [a for a in actions if a != action]
        state.apply(player, action)
        if before is not None:
            before = snapshot(state)
        for follower in followers:
            follower.apply(player, action)
            assert snapshot(follower) == before, "a reloaded save or a clone went its own way"
    else:
        pytest.fail(f"{game.name} with {players} players, seed {seed}: no end after {max_actions} actions")
    if check_result in checks:
        check_result(state)
    if check_replay in checks:
        check_replay(state)
    return state


def with_cards_permuted(state, cards, rng):
    """(a copy of ``state`` where ``cards`` swapped places among themselves at random, the permutation).

    The secrecy properties use it: what a player may read must not change when the cards they
    cannot see are permuted."""
    shuffled = list(cards)
    rng.shuffle(shuffled)
    sigma = dict(zip(cards, shuffled))
    world = state.clone()
    for index, zone in enumerate(world.zones):
        moved = [sigma.get(c, c) for c in list.__iter__(zone)]  # read deciding nothing (chance mode)
        if type(zone) is list:
            world.zones[index] = moved
        else:  # a zone whose order chance mode has not decided stays so: its undecided run sorted, as the engine keeps it
            moved[zone.lo:zone.hi] = sorted(moved[zone.lo:zone.hi])
            list.__setitem__(zone, slice(None), moved)
        for card in moved:
            world.loc[card] = index
    cards_follow(state, world, sigma)  # what points at a place (variables, rule locals, options read as places)
    return world, sigma


