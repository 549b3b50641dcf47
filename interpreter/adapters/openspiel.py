"""An OpenSpiel Python game for any Ribbit definition (``pip install -e '.[openspiel]'``).

    import pyspiel
    from interpreter import load_game
    from interpreter.adapters.openspiel import RibbitSpielGame

    game = RibbitSpielGame(load_game("definitions/GAME.yaml"), players=2)
    state = game.new_initial_state()                # setup's first random event: a chance node
    while state.is_chance_node():                   # each shuffle read, each draw, each roll
        outcomes, chances = zip(*state.chance_outcomes())
        state.apply_action(random.choices(outcomes, chances)[0])
    state.legal_actions(), state.information_state_string(0)   # fixed action ids (actions.py)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

* **Chance**: ``chance="explicit"`` (the default) runs the game in the engine's chance mode
  (``new_game(..., chance=True)``, docs/chance.md): every random event (a position of a shuffled
  hidden zone read when a card is drawn, a ``random`` pick, a roll) is a chance node with the
  engine's outcomes and probabilities (card ids, or numbers below the engine's ``MAX_OUTCOMES``).
  A state holds no order for the hidden cards not yet drawn, so a clone knows nothing of future
  draws (search that clones, as ``MCTSBot``, plays fair), and the deals are unbounded.
  ``chance="seed"`` reproduces Ribbit's *seeded* games instead: the first node is one chance node
  choosing a seed uniformly among ``seeds`` (default 100, outcomes 0 to ``seeds - 1``), outcome ``N``
  dealing the game ``ribbit play --seed N`` (``ribbit simulate``/``compare --seed``, PettingZoo's
  ``reset(seed=N)``) deals, and every later draw fixed by that seed.  Use it to set an OpenSpiel agent
  on exactly the deals a Ribbit tool played; not for search that clones (a clone knows the future
  draws) nor for training on many deals (there are only ``seeds``).
* **Actions**: fixed ids (:mod:`interpreter.adapters.actions`): ``num_distinct_actions`` is the
  table's size, an id means the same option in every decision of its kind (the card named X, a
  menu's fixed text, a menu entry's text with given items; combinations by their place, in a
  fallback block of ``max_actions`` ids, sized from random games when not given, as in the
  PettingZoo adapter).  ``legal_actions()`` is sorted; ``action_to_string`` gives an option's text
  (an id not legal now: what it means, ``game.actions.describe``).
* **Players**: sequential.  At a simultaneous secret decision the seats it waits for move
  one after another, and what each sees never includes another's pick.
* **Information**: ``observation_string(p)`` is ``state.view(p)`` as JSON (sorted keys);
  ``information_state_string(p)`` adds, for perfect recall, the seat's own actions so far
  (a JSON list of their texts: a secret pick is remembered before the narration tells it)
  and its narration of the game (``state.narration(p)``: what it was told).  Games are narrated
  unless ``narration=False`` (faster by a third to two thirds; the strings then hold the view and
  the seat's own actions only, so two histories that end in the same view may read alike).
  ``observation_tensor(p)`` is the view encoded (:mod:`interpreter.adapters.encoding`: the same
  vector as the PettingZoo observation); ``information_state_tensor(p)`` is that followed by the
  seat's own actions (:class:`RecallEncoder`): a count of their parts (items, texts, templates,
  fallback places) over the whole game, then its last ``RECALL`` (8) actions in order, each a
  one-hot of its fixed id's head and holes.  Both have shapes fixed per game and player count
  (with ``chance="seed"``, zeros before the deal).
* **Returns**: ``state.returns()`` at the end (1/k for each of k winners, 0 otherwise).
  A game still running after ``max_decisions`` decisions ends with nobody winning.
* **Search**: ``resample_from_infostate(p, sampler)`` deals what seat ``p`` cannot see again
  (``state.determinised``), keeping its information state exactly, so OpenSpiel's ``ISMCTSBot``
  (``open_spiel.python.algorithms.ismcts``) plays through the adapter; ``MCTSBot`` does too.  A
  resample is refused at a chance node of the explicit model (resample at a decision), and the
  information states never hold chance outcomes (they are the view and the seat's own actions).
* **Serialisation**: the game is registered with OpenSpiel when made (``python_ribbit_<name>``,
  its parameters: the definition's file and variants, quoted, and the sizes), so
  ``pyspiel.load_game(str(game))``, ``serialize_game_and_state`` and pickling work in any process
  that can read the definition; a state pickles as its plain data, undecided zones undecided (at a
  chance node of the explicit model: as its history, replayed), never the compiled rules, so a world
  dealt again for search (whose history holds no chance outcome) comes back as it was.
"""

from __future__ import annotations

import json
import os
import random
import weakref
from urllib.parse import quote, unquote

import numpy as np
import pyspiel

from ..errors import DefinitionError, IllegalActionError, Location
from ..runtime.chance import Unresolved, undecided, undecided_parts
from ..state import _type_of
from . import check_sizes, probe_max_actions
from .actions import ActionTable
from .encoding import ViewEncoder
from ..state import State

DEFAULT_SEEDS = 100
SEED, EXPLICIT = "seed", "explicit"  # the two chance models (see the module docstring)
_CHANCE, _TERMINAL = pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL
MAX_DECISIONS = 10_000
RECALL = 8  # the seat's own last actions the information state tensor lists in order (most recent first)


_REGISTERED: set = set()  # the short names registered with OpenSpiel (once each)
_LOADED: dict = {}  # (definition file, variants) -> the Ribbit game loaded for a deserialised game
_GAMES = weakref.WeakValueDictionary()  # game string -> the live game (a serialised state names its game)


def game_type(name: str, game, parameters: dict) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"python_ribbit_{name}", long_name=f"Ribbit: {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players, min_num_players=game.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)


def _parameters(game, players: int, seeds: int, max_actions: int, max_decisions: int, narration: bool,
                chance: str) -> dict:
    """The game's OpenSpiel parameters: everything that makes it again (texts quoted: OpenSpiel's
    game strings have no escapes, and a path or a variant's setting may hold ``=``, ``,`` or ``(``)."""
    return {"definition": quote(os.path.abspath(game.file), safe=""),
            "variants": quote(json.dumps(list(game.variants)), safe=""),
            "players": players, "seeds": seeds, "max_actions": max_actions, "max_decisions": max_decisions,
            "narration": narration, "chance": chance}


def _from_parameters(params=None) -> "RibbitSpielGame":
    """The game a serialised game string names (``pyspiel.load_game``, ``deserialize_game_and_state``)."""
    from ..loader import load_game

    params = dict(params or {})
    key = (unquote(params["definition"]), tuple(json.loads(unquote(params["variants"]))))
    ribbit = _LOADED.get(key)
    if ribbit is None:
        ribbit = _LOADED[key] = load_game(key[0], variants=list(key[1]))
    return RibbitSpielGame(ribbit, params["players"], seeds=params["seeds"], max_actions=params["max_actions"],
                           max_decisions=params["max_decisions"], narration=params["narration"],
                           chance=params["chance"])


def _max_outcomes() -> int:
    """The most outcomes one chance node of the engine's chance mode has (its numbers 0 to that less one)."""
    from ..runtime import chance as engine_chance

    return engine_chance.MAX_OUTCOMES


class _Factory:
    """What OpenSpiel's registry calls to make a game from its parameters: a class, as OpenSpiel's own
    Python games register (a plain function held by the registry aborts Python at exit)."""

    def __new__(cls, params=None):
        return _from_parameters(params)


class RibbitSpielGame(pyspiel.Game):
    """One Ribbit definition at a fixed player count, as an OpenSpiel game.

    It is registered with OpenSpiel under ``python_ribbit_<name>`` when first made, with parameters
    that load it again (the definition's file, its variants, the sizes), so
    ``pyspiel.serialize_game_and_state`` and ``deserialize_game_and_state`` work in this process.
    """

    def __init__(self, game, players: int, seeds: int = DEFAULT_SEEDS, max_actions: int | None = None,
                 max_decisions: int = MAX_DECISIONS, narration: bool = True, chance: str = EXPLICIT):
        game.new_game(players, 0, log=False)  # refuses a player count the definition does not allow
        check_sizes(game, seeds=seeds, max_actions=max_actions, max_decisions=max_decisions)
        if chance not in (SEED, EXPLICIT):
            raise DefinitionError(f"chance must be {EXPLICIT!r} (every random event a chance node: the default) or "
                                  f"{SEED!r} (one chance node choosing the seed of a Ribbit seeded game), not "
                                  f"{_type_of(chance)}", Location(game.file, key="chance"))
        self.chance = chance
        if type(narration) is not bool:
            raise DefinitionError(f"narration must be True or False, not {_type_of(narration)}",
                                  Location(game.file, key="narration"))
        self.narration = narration  # games narrated (the information state strings read it), unless False
        self.ribbit, self.players, self.seeds = game, players, seeds
        self.max_actions = probe_max_actions(game, players) if max_actions is None else max_actions
        self.actions = ActionTable(game, players, self.max_actions)  # the fixed action ids (actions.py)
        self.encoder = ViewEncoder(game, players)  # the view as numbers (encoding.py)
        self.recall = RecallEncoder(self.actions)  # the seat's own actions as numbers (the information state)
        self.max_decisions = max_decisions
        self.deals = [(seed, 1.0 / seeds) for seed in range(seeds)]  # the chance node's outcomes, made once
        name = "".join(c if c.isalnum() else "_" for c in game.name.lower())
        outcomes = seeds if chance == SEED else max(len(game.card_names), _max_outcomes())
        info = pyspiel.GameInfo(num_distinct_actions=self.actions.size, max_chance_outcomes=outcomes,
                                num_players=players, min_utility=0.0, max_utility=1.0,
                                max_game_length=max_decisions)
        parameters = _parameters(game, players, seeds, self.max_actions, max_decisions, narration, chance)
        kind = game_type(name, game, parameters)
        if kind.short_name not in _REGISTERED:
            pyspiel.register_game(kind, _Factory)
            _REGISTERED.add(kind.short_name)
        super().__init__(kind, info, parameters)
        self._tensor_observers = {}  # perfect recall or not -> the observer the states' tensors write into
        _GAMES[str(self)] = self

    def new_initial_state(self):
        return RibbitSpielState(self)

    def tensor_observer(self, perfect_recall: bool) -> "RibbitObserver":
        """The observer a state's ``observation_tensor`` (``perfect_recall=False``) and
        ``information_state_tensor`` (``True``) write into: made once per game and kind."""
        observers = self._tensor_observers
        observer = observers.get(perfect_recall)
        if observer is None:
            observer = observers[perfect_recall] = RibbitObserver(self, perfect_recall)
        return observer

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return RibbitObserver(self, perfect_recall)


def _game_named(name: str) -> "RibbitSpielGame":
    """The live game whose OpenSpiel string is ``name``, or that game made again (``pyspiel.load_game``)."""
    game = _GAMES.get(name)
    return game if game is not None else pyspiel.load_game(name)


class _Shared:
    """The game, as a state holds it: OpenSpiel's clone (a deep copy of each attribute) shares it, and
    its serialisation (a pickle of the attributes) names it by its game string."""

    def __init__(self, value):
        self.value = value

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return _shared, (str(self.value),)


def _shared(name: str) -> _Shared:
    return _Shared(_game_named(name))


class _Owned:
    """A Ribbit state that OpenSpiel's clone copies with ``State.clone()`` (the compiled game is shared), and
    its serialisation pickles as its plain data (every slot but the compiled game and a cache), so a state
    dealt again for search (``resample_from_infostate``) comes back as it was, not replayed from a seed."""

    def __init__(self, state, game: str | None = None):
        self.state, self.game = state, game

    def __deepcopy__(self, memo):
        return _Owned(None if self.state is None else self.state.clone(), self.game)

    def __reduce__(self):
        state = self.state
        if state is None:
            return _Owned, (None, self.game)
        if state.chance is not None and state.chance.boundary is not None:
            # at a chance node the state keeps a copy of itself from before the step (with the compiled game):
            # replayed from its history instead (a resampled world is never at one: resample at a decision)
            return _replayed, (self.game, state.history, state.log is not None, state.ended_by == State.DECISION_CAP)
        data = {slot: getattr(state, slot) for slot in State.__slots__ if slot not in ("game", "_made", "zones")}
        zones = [cards if type(cards) is not Unresolved else undecided_parts(cards)
                 for cards in state.zones]  # an undecided zone read deciding nothing, and made again so
        return _revive, (self.game, data, zones)


def _replayed(name: str, history: list, log: bool, abandoned: bool) -> _Owned:
    """A game of the engine's chance mode made again from its history (chance outcomes as ``[-1, outcome]``)."""
    game = _game_named(name)
    state = game.ribbit.new_game(game.players, 0, log=log, chance=True)
    for player, action in history:
        if player < 0:
            state.apply_chance(action)
        else:
            state.apply(player, action)
    if abandoned:
        state.abandon()
    return _Owned(state, name)


def _revive(name: str, data: dict, zones: list) -> _Owned:
    state = State.__new__(State)
    state.game, state._made = _game_named(name).ribbit, None
    for slot, value in data.items():
        setattr(state, slot, value)
    state.zones = [cards if type(cards) is list else undecided(cards[0], cards[1], cards[2], state.chance, cards[3])
                   for cards in zones]
    return _Owned(state, name)


class _Cache:
    """What a state works out and may work out again: never copied by a clone nor pickled."""

    def __init__(self):
        self.value = None

    def __deepcopy__(self, memo):
        return _Cache()

    def __reduce__(self):
        return _Cache, ()


class RibbitSpielState(pyspiel.State):
    """A Ribbit state behind OpenSpiel's API; ``self.ribbit`` is the Ribbit state once dealt."""

    def __init__(self, game: RibbitSpielGame):
        super().__init__(game)
        self._game = _Shared(game)
        self._decisions = 0  # decisions taken (max_decisions), chance outcomes not counted
        self._own = _OwnActions([[] for _ in range(game.players)])  # each seat's own action ids, in order
        self._made = _Cache()  # the ids of the decision now (see _ids)
        if game.chance == EXPLICIT:  # the game starts at once: setup runs up to its first decision or chance node
            self._state = _Owned(game.ribbit.new_game(game.players, 0, log=game.narration, chance=True), str(game))
        else:
            self._state = _Owned(None)  # before the deal: the seed model's one chance node

    @property
    def spiel(self) -> RibbitSpielGame:
        return self._game.value

    @property
    def ribbit(self):
        return self._state.state

    def current_player(self):
        ribbit = self._state.state  # (OpenSpiel asks this several times a step: kept short)
        if ribbit is None:  # the seed model's deal
            return _CHANCE
        if ribbit.over:
            return _TERMINAL
        p = ribbit.pending
        if p is not None and not p.each:
            return p.players[0]
        if ribbit.is_chance():  # a random event waits for its outcome (the engine's chance mode)
            return _CHANCE
        return ribbit.current_players()[0]

    def chance_outcomes(self):
        ribbit = self._state.state
        return self.spiel.deals if ribbit is None else ribbit.chance_outcomes()

    def _ids(self, player) -> list[int]:
        """The fixed ids of ``player``'s options now, in the engine's order (option k has id ``ids[k]``);
        made once per decision (``legal_actions`` then ``apply_action`` ask twice)."""
        ribbit = self.ribbit
        if ribbit is None or ribbit.over or ribbit.pending is None:
            return []
        key = (len(ribbit.history), player)
        cached = self._made.value
        if cached is not None and cached[0] == key and cached[1] is ribbit:
            return cached[2]
        ids = self.spiel.actions.ids(ribbit, player)
        self._made.value = (key, ribbit, ids)
        return ids

    def _legal_actions(self, player):
        return sorted(self._ids(player))

    def _option(self, player, action) -> int:
        """The engine's option number of fixed id ``action`` for ``player`` now."""
        try:
            return self._ids(player).index(action)
        except ValueError:
            raise pyspiel.SpielError(f"action {action} is not legal for player {player} now; the legal ids are "
                                     f"{self._legal_actions(player)}") from None

    def _apply_action(self, action):
        ribbit, spiel, action = self._state.state, self._game.value, int(action)
        if ribbit is None:  # the seed model's deal: one of its outcomes, as every chance node takes
            if not 0 <= action < spiel.seeds:
                raise pyspiel.SpielError(f"outcome {action} is not one of this chance node's: the deal's seeds are 0 to "
                                         f"{spiel.seeds - 1}")
            self._state = _Owned(spiel.ribbit.new_game(spiel.players, action, log=spiel.narration), str(spiel))
            return
        if ribbit.is_chance():  # a chance node of the engine's chance mode
            try:
                ribbit.apply_chance(action)
            except IllegalActionError as error:
                raise pyspiel.SpielError(str(error)) from None
            return
        seat = ribbit.current_players()[0]
        ribbit.apply_id(seat, self._option(seat, action))
        self._own.ids[seat].append(action)
        self._decisions += 1
        if not ribbit.over and self._decisions >= spiel.max_decisions:
            ribbit.abandon()

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            ribbit = self.ribbit
            if ribbit is None:
                return f"deal with seed {action}"
            if ribbit.is_chance() and int(action) in dict(ribbit.chance_outcomes()):
                # two cards alike are two outcomes: the number keeps their texts apart
                return f"{ribbit.chance_outcome_text(int(action))} (outcome {action})"
            return f"outcome {action}"
        if self.ribbit is not None and not self.ribbit.is_terminal() and int(action) in self._ids(player):
            return self.ribbit.action_to_string(player, self._option(player, int(action)))
        return self.spiel.actions.describe(int(action))  # an id not legal now: what it means in general

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one: its information state string and tensor are
        the same, every card it cannot see dealt again (``state.determinised``, which keeps the history
        and the narration).  At a simultaneous secret decision the others' picks, unknown to it, are drawn
        again uniformly among their options in the new deal; future chance comes from the sampler
        (``probability_sampler()``, a number in [0, 1) as OpenSpiel's samplers give), not the real game's.
        """
        state = self.clone()
        if self.ribbit is None or self.ribbit.is_terminal():
            return state
        if self.ribbit.is_chance():  # no seat's knowledge is settled mid-step
            raise pyspiel.SpielError("resample_from_infostate at a chance node: resample at a player's decision "
                                     "(the engine determinises only where every seat's knowledge is settled)")
        bits = [int(probability_sampler() * 2 ** 53) for _ in range(2)]
        rng = random.Random(bits[0] << 53 | bits[1])
        world = self.ribbit.determinised(int(player_id), rng)  # (OpenSpiel may pass a PlayerId)
        waiting = set(self.ribbit.current_players())
        while world.pending is not None and world.pending.each:
            again = [seat for seat in world.current_players() if seat not in waiting]
            if not again:
                break
            world.apply_id(again[0], world.sample_action_id(again[0], rng))
        state._state = _Owned(world, str(self.spiel))
        return state

    def observation_tensor(self, player=None):
        """The view encoded, as OpenSpiel's own ``observation_tensor`` gives it (a list of floats), written
        by the game's one observer: OpenSpiel's C++ path works out the tensor's shape at every call by
        dealing a new game and encoding it, which made the tensors most of an ``rl_environment`` step."""
        return self._tensor(player, False)

    def information_state_tensor(self, player=None):
        """The view encoded, then the seat's own actions (:class:`RecallEncoder`); see ``observation_tensor``."""
        return self._tensor(player, True)

    def _tensor(self, player, perfect_recall: bool) -> list:
        if player is None:
            player = self.current_player()
        if not 0 <= int(player) < self.spiel.players:
            raise pyspiel.SpielError(f"player must be a seat, 0 to {self.spiel.players - 1}, not {player}")
        observer = self.spiel.tensor_observer(perfect_recall)
        observer.set_from(self, int(player))
        return observer.tensor.tolist()

    def is_terminal(self):
        ribbit = self._state.state
        return ribbit is not None and ribbit.over

    def returns(self):
        if self.ribbit is None:
            return [0.0] * self.spiel.players
        return [float(r) for r in self.ribbit.returns()]

    def __str__(self):
        if self.ribbit is None:
            return "before the deal"
        return json.dumps(self.ribbit.view(None), sort_keys=True)


class _OwnActions:
    """Each seat's own action ids, in order (what the information state tensor encodes): a clone copies the
    lists, a pickle holds them."""

    __slots__ = ("ids",)

    def __init__(self, ids: list):
        self.ids = ids

    def __deepcopy__(self, memo):
        return _OwnActions([seat[:] for seat in self.ids])

    def __reduce__(self):
        return _OwnActions, (self.ids,)


class RecallEncoder:
    """A seat's own actions as a vector of ``size`` numbers (the perfect-recall part of the information state
    tensor), made from their fixed ids (:mod:`interpreter.adapters.actions`):

    * ``counts`` (``parts_size`` numbers): how often the seat chose each *part* of an action in the whole
      game (:meth:`~interpreter.adapters.actions.ActionTable.parts`: an item, a fixed text, a template and
      each of its holes' items, a place in the fallback block);
    * ``window`` (``RECALL`` slots of ``slot_size``): its last ``RECALL`` actions **in order**, the most
      recent first.  A slot is a one-hot of the action's *head* (its item, its text, its template or its
      fallback place: ``parts_size`` positions), then, for a template's action, one one-hot per hole of the
      hole's item (``holes`` blocks of ``len(items)``, hole 1 first; ``holes`` is the most any template
      has).  A slot with no action (fewer than ``RECALL`` so far) is all zeros.

    A slot's one-hots give back the action's id (a head and its holes), yet stay the size of the parts,
    not of ``num_distinct_actions`` (a template of two holes alone may hold tens of thousands of ids).
    """

    def __init__(self, actions):
        self.actions = actions
        self.parts_size = actions.parts_size
        self.holes = max((holes for _, holes, _ in actions.templates), default=0)
        self.slot_size = self.parts_size + self.holes * len(actions.items)
        self.size = self.parts_size + RECALL * self.slot_size
        self._parts, self._slots = {}, {}  # id -> positions, made when first met (at most one entry per id)

    def encode(self, ids: list, out: np.ndarray) -> None:
        """Write the vector of the own actions ``ids`` (in the order taken) into ``out`` (``size`` numbers)."""
        out.fill(0)
        counts, window = out[:self.parts_size], out[self.parts_size:].reshape(RECALL, self.slot_size)
        if ids:
            np.add.at(counts, [at for action in ids for at in self._parts_of(action)], 1)
        for k, action in enumerate(reversed(ids[-RECALL:])):
            window[k, self._slot_of(action)] = 1

    def _parts_of(self, action: int) -> list[int]:
        found = self._parts.get(action)
        if found is None:
            found = self._parts[action] = self.actions.parts(action)
        return found

    def _slot_of(self, action: int) -> list[int]:
        """Positions in a slot: the head's, then each hole's item in its hole's block."""
        found = self._slots.get(action)
        if found is None:
            head, *digits = self._parts_of(action)  # a template's holes come last hole first
            items = len(self.actions.items)
            found = [head] + [self.parts_size + hole * items + digit for hole, digit in enumerate(reversed(digits))]
            self._slots[action] = found
        return found


class RibbitObserver:
    """OpenSpiel's observer interface, from ``view`` (and the seat's own actions, for perfect recall).

    * ``tensor`` (float32): the view encoded (:class:`~interpreter.adapters.encoding.ViewEncoder`,
      ``dict["view"]``); with perfect recall, then the seat's own actions (:class:`RecallEncoder`):
      ``dict["own actions"]`` counts the parts of all of them, ``dict["own actions in order"]`` holds
      the last ``RECALL``, most recent first (``RECALL`` rows of ``slot_size``).  All zeros before the
      deal (the seed model).
    * strings: the view as JSON (sorted keys); with perfect recall, then the texts of the seat's own
      actions (a JSON list) and its narration (``state.narration(seat)``).
    """

    def __init__(self, game: RibbitSpielGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.encoder, self.recall = game.encoder, game.recall
        size = self.encoder.size
        self.tensor = np.zeros(size + (self.recall.size if perfect_recall else 0), np.float32)
        self.dict = {"view": self.tensor[:size]}
        if perfect_recall:
            counts = size + self.recall.parts_size
            self.dict["own actions"] = self.tensor[size:counts]
            self.dict["own actions in order"] = self.tensor[counts:].reshape(RECALL, self.recall.slot_size)

    def set_from(self, state, player):
        tensor = self.tensor
        if state.ribbit is None:
            tensor.fill(0)
            return
        size = self.encoder.size
        tensor[:size] = self.encoder.encode(state.ribbit.view(player))
        if self.perfect_recall:
            self.recall.encode(state._own.ids[player], tensor[size:])

    def string_from(self, state, player):
        if state.ribbit is None:
            return "before the deal"
        text = json.dumps(state.ribbit.view(player), sort_keys=True)
        if self.perfect_recall:
            own = [action for seat, action in state.ribbit.history if seat == player]
            text += "\n" + json.dumps(own) + "\n" + "\n".join(state.ribbit.narration(player))
        return text
