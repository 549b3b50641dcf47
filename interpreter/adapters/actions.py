"""Fixed action identities: a game-wide table that gives every option a number meaning the same thing in
every decision of its kind (an OpenSpiel ``num_distinct_actions``, a PettingZoo ``Discrete``).

The engine numbers a decision's options by their place in its list (option ``k`` is the ``k``-th of
``legal_actions``), so ``0`` means "whatever comes first now".  A learner needs ``37`` to mean
"the card named X" whatever else is in the hand.  The table is made once per definition and
player count, from the components and the rules' texts, never from games played, and an id is a
function of the option's *text* alone, so it cannot change meaning between decisions.  Its blocks:

1. **Items** ``[0, len(items))``: the texts a single chosen thing can read as, in this order:
   every distinct card name (sorted), the seats (``player 1`` ... ``player N``), the board's
   spaces, the strings of the rules' list literals (``["red", "blue"]``), the numbers
   ``0`` to ``NUMBERS - 1`` and ``yes``/``no`` (a text that two of these share is listed once).
   A decision choosing *one* thing (``ask p to choose one of X as x "take"``, also ``ask each``)
   gives option "take X" the id of item "X": the verb is the decision's, the id the
   item's (as a card's index in OpenSpiel's card games, whether it is played or passed).
2. **Texts**: every fixed option text of the rules' menus (``"pass":``), once each.
3. **Templates**: a menu entry whose text is made when asked (``"put {c} on pile {i}" for i
   in ...``, or ``"play" for c in hand(p)``, which reads ``play {c}``) is a pattern of fixed
   pieces and holes.  Entries that read alike (the same pieces) share one block of
   ``len(items) ** holes`` ids: the option's id is the block's start plus its holes' item ids
   as digits in base ``len(items)`` (first hole most significant).  The first pattern, in the
   rules' order, whose holes each read as an item is the one used (each hole as short as the
   rest allows); the pieces and the holes give back the text, so two texts never share an id.  A pattern whose block would exceed
   ``MAX_BLOCK`` ids (three holes or more) gets none: its options fall back.
4. **Fallback** ``[fallback, fallback + max_actions)``: decisions that pick a combination (several
   cards, one card plus others, a pair from a list) and any option whose text no block reads.
   Such an option's id is ``fallback + k`` for the ``k``-th option of its decision (in the
   engine's order: smaller selections first, then more of an earlier group): the only ids whose
   meaning depends on the decision.  ``max_actions`` is sized from random games unless given.

A decision in which two options would get the same id (a verb-less choice whose items read like
verb and item) is numbered wholly by the fallback, so the ids of one decision are always distinct.
"""

from __future__ import annotations

import dataclasses

from ..actions import option_count
from ..dsl import ast as A

NUMBERS = 32  # the numbers an item can read as: 0 to 31 (positions, small counts); larger ones fall back
MAX_BLOCK = 1 << 20  # the most ids one template may take


def _vocabulary(game) -> tuple[list, list, list]:
    """What the rules can name in an option: string list literals, fixed menu texts, templated menu texts."""
    bodies = [proc.body for proc in game.procs] + [f.body for f in game.functions.values()]
    strings, texts, patterns = [], [], []
    for node in _nodes(bodies):
        if isinstance(node, A.ListLit):
            strings += [item.value for item in node.items if isinstance(item, A.Const) and type(item.value) is str]
        elif isinstance(node, A.AskMenu):
            for option in node.options:
                pattern = _pattern(option)
                if pattern is None:
                    texts.append(option.label)
                else:
                    patterns.append(pattern)
    return strings, texts, patterns


def _nodes(node):
    """Every AST node under ``node`` (a node, a tuple of them, or anything else: nothing)."""
    if isinstance(node, A.Node):
        yield node
        for f in dataclasses.fields(node):
            yield from _nodes(getattr(node, f.name))
    elif isinstance(node, (tuple, list)):
        for item in node:
            yield from _nodes(item)


def _pattern(option: A.MenuOption) -> tuple | None:
    """A menu entry's text as (fixed pieces, number of holes); None for a fixed text."""
    text = option.label
    if "{" not in text:
        if option.items is None:
            return None
        return ((text + " ", ""), 1) if text else (("", ""), 1)  # "play" for c in ...: reads "play {c}"
    pieces, i = [], 0
    while True:
        j = text.find("{", i)
        k = text.find("}", j) if j >= 0 else -1
        if j < 0 or k < 0:
            pieces.append(text[i:])
            break
        pieces.append(text[i:j])
        i = k + 1
    return tuple(pieces), len(pieces) - 1


class ActionTable:
    """The fixed action ids of one definition at one player count (see the module docstring)."""

    def __init__(self, game, players: int, max_actions: int):
        game = game.for_players(players)
        self.game, self.players, self.max_actions = game, players, max_actions
        strings, texts, patterns = _vocabulary(game)
        spaces = list(game.board.spaces) if game.board else []
        items = sorted(set(game.card_names)) + [game.describe_value(p, "player") for p in range(players)] \
            + spaces + strings + [str(k) for k in range(NUMBERS)] + ["yes", "no"]
        self.items = list(dict.fromkeys(items))
        self.item_index = {text: i for i, text in enumerate(self.items)}
        self.texts = list(dict.fromkeys(texts))
        at = len(self.items)
        self.text_index = {text: at + i for i, text in enumerate(self.texts)}
        at += len(self.texts)
        self.templates = []  # (pieces, holes, first id)
        for pieces, holes in dict.fromkeys(patterns):
            block = len(self.items) ** holes
            if block > MAX_BLOCK:
                continue
            self.templates.append((pieces, holes, at))
            at += block
        self.fallback = at
        self.size = at + max_actions
        self._one, self._menu = {}, {}  # caches: prompt -> {text: id or None}; text -> id or None

    # ---------------------------------------------------------------- a summary of actions taken
    @property
    def parts_size(self) -> int:
        """The length of :meth:`parts_of`'s vector: items, texts, templates, fallback places."""
        return len(self.items) + len(self.texts) + len(self.templates) + self.max_actions

    def parts(self, action: int) -> list[int]:
        """Positions, in a vector of ``parts_size``, that id ``action`` counts at: its item; its text;
        its template and each of its holes' items; its place in the fallback block."""
        items, texts = len(self.items), len(self.texts)
        if action < items:
            return [action]
        if action < items + texts:
            return [action]
        for t, (pieces, holes, first) in enumerate(self.templates):
            if action < first + items ** holes:
                found, rest = [items + texts + t], action - first
                for _ in range(holes):
                    rest, digit = divmod(rest, items)
                    found.append(digit)
                return found
        return [items + texts + len(self.templates) + action - self.fallback]

    # ---------------------------------------------------------------- ids of texts
    def one_item_id(self, prompt: str, label: str) -> int | None:
        """The id of option ``label`` of a decision choosing one thing (``prompt``: its verb or name)."""
        known = self._one.get(prompt)
        if known is None:
            known = self._one[prompt] = {}
        found = known.get(label, -1)
        if found == -1:
            index = self.item_index
            if label.startswith(prompt + " ") and label[len(prompt) + 1:] in index:
                found = index[label[len(prompt) + 1:]]
            else:
                found = index.get(label)
            known[label] = found
        return found

    def menu_id(self, label: str) -> int | None:
        """The id of menu option ``label``: its fixed text's, or its template's block and holes'."""
        found = self._menu.get(label, -1)
        if found == -1:
            found = self.text_index.get(label)
            if found is None:
                for pieces, holes, first in self.templates:
                    digits = self._holes(label, pieces)
                    if digits is not None:
                        found = first
                        for n, digit in enumerate(reversed(digits)):
                            found += digit * len(self.items) ** n
                        break
            self._menu[label] = found
        return found

    def _holes(self, text: str, pieces: tuple) -> list[int] | None:
        """The item ids of ``text``'s holes if it reads as ``pieces`` with an item in each hole (the
        leftmost reading: each hole ends at the first place the rest can be read), else None."""
        head, tail = pieces[0], pieces[-1]
        if not text.startswith(head) or not text.endswith(tail) or len(text) < len(head) + len(tail):
            return None
        return self._read(text[len(head):len(text) - len(tail)], pieces[1:-1])

    def _read(self, text: str, separators: tuple) -> list[int] | None:
        index = self.item_index
        if not separators:
            found = index.get(text)
            return None if found is None else [found]
        separator, at = separators[0], text.find(separators[0])
        while at >= 0:
            found = index.get(text[:at])
            if found is not None:
                rest = self._read(text[at + len(separator):], separators[1:])
                if rest is not None:
                    return [found] + rest
            at = text.find(separator, at + 1)
        return None

    # ---------------------------------------------------------------- ids of a decision
    @staticmethod
    def key(p, seat: int) -> tuple | None:
        """What the ids of ``seat``'s options at decision ``p`` are a function of (see :meth:`_listed_ids`): equal
        keys, equal ids and texts.  None if it has no listed options (not asked, decided, or an option space)."""
        try:
            i = p.players.index(seat)
        except ValueError:
            return None
        labels = p.labels[i]
        if labels is None or p.chosen[i] is not None or (p.lazy and p.lazy[i]):
            return None
        values = p.values[i]
        return p.dest is None, type(values[0]) if values else None, p.prompt, tuple(labels)

    def ids(self, state, seat: int) -> list[int]:
        """The fixed ids of ``seat``'s options now, in the order of ``legal_actions(seat)`` (distinct)."""
        p = state.pending
        if p is None:
            return []
        try:
            i = p.players.index(seat)
        except ValueError:
            return []
        if p.chosen[i] is not None:
            return []
        space = p.lazy and p.lazy[i]
        if space:  # a combination kept as an option space
            return self._fallback(option_count(p, i))
        return self._listed_ids(p, i)

    def _listed_ids(self, p, i) -> list[int]:
        """The ids of a listed decision's options: by item or menu text, else by place in the fallback block."""
        labels, values = p.labels[i], p.values[i]
        first = values[0] if values else None
        if p.dest is None or type(first) is tuple:  # a menu (its values: code positions, or (entry, item))
            ids = list(map(self._menu.get, labels))  # (the texts seen before, at once; then the others)
            if None in ids:
                ids = [self.menu_id(label) if found is None else found for label, found in zip(labels, ids)]
        elif type(first) is list:  # a combination, listed
            return self._fallback(len(labels))
        else:
            prompt = p.prompt
            ids = list(map(self._one.get(prompt, {}).get, labels))
            if None in ids:
                ids = [self.one_item_id(prompt, label) if found is None else found for label, found in zip(labels, ids)]
        if None in ids:
            fallback = self.fallback
            ids = [fallback + k if found is None else found for k, found in enumerate(ids)]
        if len(set(ids)) != len(ids):
            return self._fallback(len(labels))
        return ids

    def _fallback(self, count: int) -> list[int]:
        if count > self.max_actions:
            from . import TooManyActionsError
            raise TooManyActionsError(
                f"a decision offers {count} combinations, more than this environment's fallback block holds "
                f"(max_actions={self.max_actions}); create it with a larger max_actions")
        return list(range(self.fallback, self.fallback + count))

    def describe(self, action: int) -> str:
        """What id ``action`` means, whatever the decision (for people reading a policy's output)."""
        if not 0 <= action < self.size:
            return f"no action (ids are 0 to {self.size - 1})"
        if action < len(self.items):
            return f"item {self.items[action]!r}"
        if action < len(self.items) + len(self.texts):
            return f"text {self.texts[action - len(self.items)]!r}"
        for pieces, holes, first in self.templates:
            if action < first + len(self.items) ** holes:
                digits, rest = [], action - first
                for _ in range(holes):
                    rest, digit = divmod(rest, len(self.items))
                    digits.append(self.items[digit])
                digits.reverse()
                return "text " + repr("".join(piece + (digits[n] if n < holes else "") for n, piece in enumerate(pieces)))
        return f"option {action - self.fallback} of a combination decision (in the engine's order)"
