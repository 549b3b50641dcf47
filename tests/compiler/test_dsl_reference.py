"""docs/dsl.md is run, so the reference cannot rot: every fenced block of it is checked by a test.

The ```` ```ribbit ```` blocks of "Asking players" are turns of a small game (``tests/compiler/test_dsl_examples.py``).
Every other block names its check in its info string, after the language (Markdown renderers only read the
first word): ```` ```yaml check=quantities ````. ``CHECKS`` below maps each name to a function given the
block's text; they load the block in a small game that declares the names it uses and, where the text
around the block claims a behaviour, play it from a hand-built position and assert the outcome.

``test_every_fenced_block_of_the_docs_is_checked`` fails on a block no test runs, in any file of ``docs/``.
"""

from __future__ import annotations

import re
import textwrap

import pytest
import yaml

from interpreter import RibbitError, load_game
from interpreter.agents import RandomAgent

from conftest import REPO_ROOT
from doc_commands import DOCUMENTS, SHELL

DOCS = REPO_ROOT / "docs"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
FENCE_LINE = re.compile(r"^[ \t]*(```|~~~)", re.M)


def fenced_blocks(path):
    """(language, info, text, line) of every fenced block of a Markdown file, in order."""
    text = path.read_text(encoding="utf-8")
    return [(m.group(1), m.group(2).strip(), m.group(3), text.count("\n", 0, m.start()) + 1)
            for m in FENCE.finditer(text)]


def dsl_blocks(check: str):
    found = [text for lang, info, text, _ in fenced_blocks(DOCS / "dsl.md") if f"check={check}" in info.split()]
    assert found, f"no block of docs/dsl.md has check={check}"
    return found


# ------------------------------------------------------------------------------------------------ games

BASE = """\
game: Reference
players: {min: 3, max: 3}
properties:
  value: 0
components:
  - {name: coin, value: 1, count: 4, zone: deck}
zones:
  box: {visibility: hidden}
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {visibility: public}
player_variables:
  points: 0
procedures:
  take_turn(player p): pass
flow:
  - turn: take_turn
    until: game.turn >= 1
scoring:
  score: p.points
"""


class Yaml12(yaml.SafeLoader):
    """safe_load, but only true/false are booleans (``on:`` stays a key), as the engine reads definitions."""


Yaml12.yaml_implicit_resolvers = {first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
                                  for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Yaml12.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))


def load_yaml(text):
    return yaml.load(text, Loader=Yaml12)  # noqa: S506 - a safe loader


def merged(base, extra):
    """``extra`` laid over ``base``: mappings merged key by key, lists appended, anything else replaced."""
    if isinstance(base, dict) and isinstance(extra, dict):
        out = dict(base)
        for key, value in extra.items():
            out[key] = merged(base[key], value) if key in base and key != "flow" else value
        return out
    if isinstance(base, list) and isinstance(extra, list):
        out = list(base)
        for item in extra:
            same = [n for n, old in enumerate(out) if isinstance(item, dict) and isinstance(old, dict)
                    and "name" in item and old.get("name") == item["name"]]
            if same:
                out[same[0]] = merged(out[same[0]], item)
            else:
                out.append(item)
        return out
    return extra


def game_with(tmp_path, *parts: str, name="reference"):
    """Load BASE with each YAML text of ``parts`` laid over it in turn."""
    data = load_yaml(BASE)
    for part in parts:
        data = merged(data, load_yaml(textwrap.dedent(part)))
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, width=1000), encoding="utf-8")
    return load_game(path)


def turn(body: str) -> str:
    """A YAML part whose take_turn runs ``body``."""
    return yaml.safe_dump({"procedures": {"take_turn(player p)": body}}, width=1000)


def play_out(state):
    bots = [RandomAgent(seed=i) for i in range(state.n)]
    for _ in range(2000):
        if state.is_terminal():
            return state
        seat = state.current_players()[0]
        state.apply(seat, bots[seat].choose(None, state.legal_actions(seat)))
    pytest.fail("the game did not end")


def value_of(game, card_name, prop):
    table, _ = game.properties[prop]
    return table[game.card_names.index(card_name)]


# ------------------------------------------------------------------------------------------------ shapes

def forms(block: str):
    """The forms a block of statement shapes shows: one per line, or several on a line apart by 3+ spaces.

    Comments are dropped; ``...`` (any block) becomes ``pass`` on a line of its own.
    """
    for line in block.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if not line or line.startswith("#"):
            continue
        for form in re.split(r" {3,}", line):
            parts = re.split(r"\s*\.\.\.\s*", form)
            if len(parts) > 1:
                form = "".join(f"{part}\n  pass\n" for part in parts if part)
            yield form


def check_shapes(tmp_path, block: str, context: str, prelude: str, substitutions: dict[str, str],
                 parameters="player p, card c, card card, space sp"):
    """Each form of ``block``, placeholders substituted, is a statement (or else an expression) that compiles in
    a procedure of the ``context`` game after ``prelude``."""
    failures = []
    for number, form in enumerate(forms(block)):
        code = form
        for placeholder, name in substitutions.items():
            code = re.sub(rf"\b{placeholder}\b", name, code)
        if re.fullmatch(r"(break|continue)\s*", code):  # only inside a loop (outside one is a load error)
            code = f"loop:\n  {code.strip()}"
        returns = " -> int" if re.match(r"return \S", code) else ""
        head = f"shape_{number}({parameters}){returns}"
        declared = set(re.findall(r"^let (\w+)", code, re.M))  # the form's own declarations replace the prelude's
        before = "".join(line + "\n" for line in prelude.splitlines() if line.split(" ")[1] not in declared)
        attempts = [before + code]
        if "\n" not in code:
            attempts.append(before + f"let shown = {code}")
        errors = []
        for attempt in attempts:
            try:
                game_with(tmp_path, context, yaml.safe_dump({"procedures": {head: attempt}}, width=1000))
                break
            except RibbitError as error:
                errors.append(str(error))
        else:
            failures.append(f"{form!r}: " + "\n  or, as an expression: ".join(errors))
    assert not failures, "\n".join(failures)


STATEMENT_CONTEXT = """\
board:
  ring: {spaces: [north, east, south, west], forward: clockwise, backward: counterclockwise}
counters:
  marks: {on: [card, space, player]}
events:
  flipped: {card: card, player: player}
player_variables:
  legendary: false
game_variables:
  last_turn: false
procedures:
  flip(player p) -> card: |
    return top(deck)
"""

STATEMENT_PRELUDE = "let cond = true\nlet expression = 1\nlet list = [1, 2]\nlet n = 2\nlet x = 0\nlet value = 1\n"


def statements(tmp_path, block):
    check_shapes(tmp_path, block, STATEMENT_CONTEXT, STATEMENT_PRELUDE,
                 {"CARDS": "[card]", "PLAYERS": "players", "CARD": "card", "ZONE": "pile"})


def counter_statements(tmp_path, block):
    context = "board: {grid: {rows: 2, columns: 2}}\ncounters:\n  drops: {on: [card, space, player]}\n"
    check_shapes(tmp_path, block, context, "", {})


def expressions(tmp_path, block):
    """The first ``each`` examples: each line an expression, in a game with gardens, a tower and a holding."""
    context = """\
    properties: {type: leaf}
    components:
      - {name: green frog, type: frog, count: 2, zone: hand, per_player: true}
      - {name: lily, type: leaf, count: 3, zone: box}
    zones:
      garden: {per: player, visibility: public}
      tower: {visibility: public}
      holding: {visibility: public}
    functions:
      same_type(card a, card b): a.type == b.type
    """
    check_shapes(tmp_path, block, context, "", {}, parameters="player p, card card")


# ------------------------------------------------------------------------------------------------ the error

ERROR_GAME = """\
# My game: plant every seed you hold.
game: My game
players: {min: 2, max: 4}

components:
  - {name: seed, count: 8, zone: holding}

zones:
  holding: {visibility: public}
  garden: {per: player, visibility: public}

procedures:
  take_turn(player p): |
    move hodling to garden(p)

flow:
  - turn: take_turn
    until: game.turn >= 4

scoring:
  score: size(garden(p))
"""


def error(tmp_path, block, monkeypatch):
    """The error at the top of the doc is the one a real definition gets, word for word and caret for caret."""
    (tmp_path / "definitions").mkdir()
    (tmp_path / "definitions" / "mygame.yaml").write_text(ERROR_GAME, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RibbitError) as caught:
        load_game("definitions/mygame.yaml")
    assert str(caught.value) == block.rstrip("\n")
    fixed = ERROR_GAME.replace("hodling", "holding")
    (tmp_path / "definitions" / "mygame.yaml").write_text(fixed, encoding="utf-8")
    play_out(load_game("definitions/mygame.yaml").new_game(2, seed=0))


# ------------------------------------------------------------------------------------------------ sections

def ordering(tmp_path, block):
    """Fewest points first, then the most cards in hand; a coin only between players equal on both."""
    game = game_with(tmp_path, "components: [{name: pebble, count: 6, zone: box}]",
                     turn(block + 'log "order: {order}"\n'))
    for seed in range(3):
        state = game.new_game(3, seed=seed, scenario={
            "player_variables": {"1": {"points": 2}, "2": {"points": 1}, "3": {"points": 1}},
            "zones": {"hand(2)": ["pebble"], "hand(3)": ["pebble", "pebble", "pebble"]}})
        assert "order: player 3, player 2, player 1" in state.log
    tied = [game.new_game(3, seed=seed, scenario={}).log[-1] for seed in range(12)]
    assert len(set(tied)) > 1, "equal players are ordered by a seeded coin"


def weights(tmp_path, block):
    game = game_with(tmp_path, block,
                     "components: [{name: brick, count: 2, zone: box}, {name: spring, count: 2, zone: box}]")
    assert value_of(game, "brick", "weights") == [4]
    assert value_of(game, "spring", "weights") == [3, 6]


def product(tmp_path, block):
    """Three different weights, one value per card chosen together: a brick and two springs (4, 3, 6) pass; two
    bricks and a spring do not (4, 4 and 3 or 6)."""
    weights_yaml = dsl_blocks("weights")[0]
    game = game_with(tmp_path, weights_yaml,
                     "components: [{name: brick, count: 2, zone: box}, {name: spring, count: 2, zone: box}]",
                     "zones: {pile: {per: player, visibility: public}}",
                     turn(f'log "passes: {{{block.strip()}}}"\n'))
    passes = game.new_game(3, 0, scenario={"zones": {"pile(1)": ["brick", "spring", "spring"]}})
    assert passes.log[-1] == "passes: yes"
    fails = game.new_game(3, 0, scenario={"zones": {"pile(1)": ["brick", "brick", "spring"]}})
    assert fails.log[-1] == "passes: no"


def narration(tmp_path, block):
    """Each log line of the block reads as its comment says, for p, the other players and a spectator."""
    game = game_with(tmp_path, """\
    properties: {colour: none}
    components:
      - {name: firefly, colour: yellow, zone: deck}
      - {name: moth, colour: grey, zone: hand, per_player: true}
    """, turn(re.sub(r"\s+#.*", "", block)))
    state = game.new_game(3, seed=0, scenario={"on_top": {"deck": ["firefly"]}})
    expected = {0: [], 1: [], 2: [], None: []}
    for line in block.splitlines():
        comment = line.partition("#")[2]
        if not line.startswith("log"):
            continue
        said = dict(re.findall(r'(p|others and spectators|others|everyone): "([^"]*)"', comment))
        if "everyone" in said:
            for reader in expected:
                expected[reader].append(said["everyone"])
        elif "p only" in comment:  # the line is p's alone: what it reads is the omniscient line
            expected[0].append(state.log[len(expected[0])])
        else:
            expected[0].append(said["p"])
            others = said.get("others and spectators", said.get("others"))
            for reader in (1, 2, None):
                expected[reader].append(others)
    assert "You drew firefly." in state.log
    for reader, lines in expected.items():
        assert state.narration(reader) == lines, reader


def events(tmp_path, block):
    """A Unicorn of weight 5 placed: the trigger (weight > 3) gives 1 point, then its own ability 2."""
    game = game_with(tmp_path, "properties: {weight: 0}", block,
                     "components: [{name: Unicorn, weight: 5, zone: box}, {name: Mouse, weight: 1, zone: box}]",
                     turn("emit placed(card=top(box), player=p)\n"))
    state = game.new_game(3, 0, scenario={"zones": {"box": ["Unicorn"]}})
    assert state.scores()[0] == 3
    state = game.new_game(3, 0, scenario={"zones": {"box": ["Mouse"]}})
    assert state.scores()[0] == 0


def listeners(tmp_path, block):
    """The Echo on top of the playing player's zone gives a point and says so; under another card, or in another
    player's zone, it keeps quiet."""
    game = game_with(tmp_path, "events: {played: {card: card, player: player}}\n"
                               "zones: {garden: {per: player, visibility: public}}",
                     "components: [{name: pebble, count: 4, zone: box}]", block,
                     "components: [{name: Echo, zone: box}]",
                     turn("emit played(card=top(hand(p)), player=p)\n"))
    showing = game.new_game(3, 0, scenario={"zones": {"garden(1)": ["Echo"], "hand(1)": ["pebble"]}})
    assert showing.scores()[0] == 1 and "Echo echoes pebble" in showing.log
    covered = game.new_game(3, 0, scenario={"zones": {"garden(1)": ["Echo", "pebble"], "hand(1)": ["pebble"]}})
    assert covered.scores()[0] == 0
    elsewhere = game.new_game(3, 0, scenario={"zones": {"garden(2)": ["Echo"], "hand(1)": ["pebble"]}})
    assert elsewhere.scores() == [0, 0, 0]


def quantities(tmp_path, block):
    """hold_limit(p) is 1 plus 1 for each Planet on top of one of p's zones; two showing apply twice."""
    game = game_with(tmp_path, "components: [{name: pebble, count: 4, zone: box}]",
                     "zones: {garden: {per: player, visibility: public}}",
                     block.replace("- name: Planet", "- name: Planet\n    count: 3\n    zone: box"),
                     turn('log "limit: {hold_limit(p)}"\n'))

    def limit(zones):
        return game.new_game(3, 0, scenario={"zones": zones}).log[-1]
    assert limit({}) == "limit: 1"
    assert limit({"hand(1)": ["Planet"]}) == "limit: 2"
    assert limit({"hand(1)": ["Planet"], "garden(1)": ["pebble", "Planet"]}) == "limit: 3"
    assert limit({"hand(1)": ["Planet", "pebble"], "garden(1)": ["Planet", "Planet"]}) == "limit: 2"
    assert limit({"hand(2)": ["Planet"]}) == "limit: 1"


def counters(tmp_path, block):
    game_with(tmp_path, "board: {grid: {rows: 2, columns: 2}}", block)


def wet(tmp_path, block):
    """On the card of a space, or on the space while it is blank."""
    game = game_with(tmp_path, "board: {grid: {rows: 1, columns: 2}}",
                     "counters: {drops: {on: [card, space, player]}}",
                     "zones: {cell: {per: space, visibility: public}}",
                     "components: [{name: pebble, zone: box}]", block,
                     turn('wet("r1c1", 2)\nwet("r1c2", 3)\n'))
    state = game.new_game(3, 0, scenario={"zones": {"cell(r1c2)": ["pebble"]}})
    assert state.view(None)["counters"]["drops"]["spaces"] == {"r1c1": 2, "r1c2": 0}
    assert state.view(None)["zones"]["cell(r1c2)"]["counters"] == {"drops": [3]}


def board(tmp_path, block):
    """The ring, and each grid the comments offer instead of it, load with a stacked zone per space."""
    lines = block.splitlines()
    ring = lines[1]
    games = [block]
    for line in lines:
        shown = re.match(r"\s*# or (grid: .*?)\s+->", line)
        if shown:
            games.append(block.replace(ring, "  " + shown.group(1)))
    edges = re.search(r"# plus (edges: .*?) for", block).group(1)
    games.append(games[1].replace("  " + games[1].splitlines()[1].strip(), games[1].splitlines()[1] + "\n  " + edges))
    assert len(games) == 4
    loaded = [game_with(tmp_path, text, name=f"board{n}") for n, text in enumerate(games)]
    assert [len(game.board.graph) for game in loaded] == [5, 16, 16, 16]
    # A grid's row 1 is its north row and column 1 its west column (the text under the block).
    claims = {'step("r2c1", "north")': "r1c1", 'step("r2c1", "east")': "r2c2", 'step("r2c2", "northeast")': "r1c3",
              'diagonals("r1c1")': "r2c2", 'adjacent("r1c1")': "r1c2, r2c1", 'distance("r1c1", "r2c2")': "2",
              'step("l1", "clockwise")': "l2"}
    for number, (expression, shown) in enumerate(claims.items()):
        which = 0 if "l1" in expression else 2
        game = game_with(tmp_path, games[which], turn(f'let shown = {expression}\nlog "{{shown}}"\n'),
                         name=f"claim{number}")
        assert game.new_game(3, 0).log[-1] == shown, expression


def board_per_count(tmp_path, block):
    """Each count plays on its own board (3 and 4 share one); the step-only edge is a step, not a neighbour."""
    game = game_with(tmp_path, block, turn('let shown = step("r1c2", "north")\nlet n = size(spaces)\n'
                                           'let near = adjacent("r1c2")\nlet far = distance("r1c2", "r3c2")\n'
                                           'log "{shown}, {n} {near} {far}"\n'))
    assert game.for_players(3) is game.for_players(4) is not game
    assert game.for_players(2).board.grid == (3, 3) and game.for_players(4).board.grid == (4, 4)
    assert game.new_game(2, 0).log[-1] == "r3c2, 9 r1c1, r1c3, r2c2 2"
    assert game.new_game(4, 0).log[-1] == "none, 16 r1c1, r1c3, r2c2 2"


def seen_by(tmp_path, block):
    """A player with a card in front of them sees the deck's top card; the others, and spectators, do not."""
    game = game_with(tmp_path, block, "components: [{name: glass, zone: box}]",
                     turn('move first(box) to lenses(p)\nlog "{p} sees {top(deck)}"\n'))
    state = game.new_game(3, 0, scenario={"on_top": {"deck": ["coin"]}})
    assert state.view(0)["zones"]["deck"] == {"count": 4, "shown": [{"card": "coin", "from_top": 0}]}
    assert [state.view(v)["zones"]["deck"] for v in (1, None)] == [{"count": 4}] * 2
    assert state.narration(0)[-1] == "player 1 sees coin" and state.narration(1)[-1] == "player 1 sees a card"


def family(tmp_path, block):
    game = game_with(tmp_path, "properties: {suit: x, rank: x}", block)
    assert sum(1 for name in game.card_names if " of " in name) == 52
    assert value_of(game, "2 of clubs", "value") == 2
    assert value_of(game, "queen of hearts", "value") == 10
    assert value_of(game, "ace of spades", "value") == 11
    assert value_of(game, "ace of spades", "suit") == "spades"


def pieces(tmp_path, block):
    """pawn_of(p) finds p's pawn; it stands on a space apart from the card there, and moves without it."""
    game = game_with(tmp_path, "board: {grid: {rows: 1, columns: 2}}",
                     "components: [{name: stone, zone: box}]", block,
                     turn('let start = space_of(pawn_of(p))\nlog "at {start}"\nmove pawn_of(p) to stand("r1c2")\n'
                          'log "now at {space_of(pawn_of(p))}; {size(cell(start))} card left at {start}"\n'))
    state = game.new_game(3, 0, scenario={"zones": {"stand(r1c1)": ["red pawn"], "cell(r1c1)": ["stone"]}})
    assert state.log[-2:] == ["at r1c1", "now at r1c2; 1 card left at r1c1"]


def flow(tmp_path, block):
    game = game_with(tmp_path, block, """\
    game_variables: {last_turn: false}
    procedures:
      take_turn(player p): |
        p.points += 1
        if game.turn >= 5:
          game.last_turn = true
      select(): pass
      reveal(): pass
      resolve(): pass
      cleanup(): pass
    """)
    state = play_out(game.new_game(3, 0))
    assert state.scores() == [2, 2, 1] and state.ended_by == "flow"
    assert state.gv["round"] == 11  # ten rounds, then the single round of 'repeat: false'


def table(tmp_path, block):
    """The table section of the reference loads with every name it uses, and is applied to views only."""
    game = game_with(tmp_path, block, """\
    properties: {colour: "", ability: "", text: ""}
    components:
      - {name: red coin, colour: red, ability: When Played, text: "Score 1.", count: 2, zone: deck}
    scoring:
      score: {cards: size(hand(p)), bonus: p.points}
    """)
    shown = game.presentation
    assert list(shown["zones"])[:4] == ["pile", "hand", "deck", "box"] and shown["zones"]["box"]["at"] == "box"
    assert shown["zones"]["hand"] == {"at": "player", "label": "hand", "show": "stack"}
    assert shown["cards"]["band"] == "colour" and shown["cards"]["text"] == "text"
    assert shown["variables"] == {"game": {}, "player": {"points": "points scored"}}
    assert shown["score"] == [["cards", "cards"], ["bonus", "bonus"]]
    state = game.new_game(3, 0)
    assert state.view(0)["zones"]["deck"] == {"count": 6}  # drawn on the table, still only a count
    assert state.score_breakdown()[0] == {"cards": 0, "bonus": 0}


def per_player(tmp_path, block):
    """Each of the three players starts with two rocks and a paper in their own hand, dealt by nobody."""
    game = game_with(tmp_path, block)
    state = game.new_game(3, 0)
    for seat in (1, 2, 3):
        assert sorted(state.view(seat - 1)["zones"][f"hand({seat})"]["cards"]) == ["paper", "rock", "rock"]
    assert game.card_names.count("rock") == 6


def quoting(tmp_path, block):
    """The quoted expressions load and play (a coin of value 1 scores 1); the first unquoted is refused at its
    ': ', with the advice to quote it; a number as a phase's 'until' ends it after one round, as said."""
    game = game_with(tmp_path, block)
    state = play_out(game.new_game(3, 0))
    assert state.scores() == [1, 0, 0]
    bare = BASE + "functions:\n  best(): last(sort_by(each c in pile: c.value))\n"
    (tmp_path / "bare.yaml").write_text(bare, encoding="utf-8")
    with pytest.raises(RibbitError) as info:
        load_game(tmp_path / "bare.yaml")
    assert "a value that contains ': ' needs quotes" in str(info.value)
    data = load_yaml(BASE)
    data["procedures"]["tick()"] = "pass"
    data["flow"] = [{"phase": "ticks", "round": ["tick"], "until": "game.round"}]
    (tmp_path / "rounds.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    rounds = load_game(tmp_path / "rounds.yaml").new_game(3, 0)
    assert rounds.is_terminal() and rounds.view(0)["variables"]["round"] == 1


def graph_board(tmp_path, block):
    """A board of spaces and one-way edges: step follows an edge its way only, adjacent and distance both ways."""
    claims = {'step("fork", "branch")': "shortcut", 'step("b", "branch")': "none", 'step("a", "back")': "none",
              'adjacent("fork")': "a, b, shortcut", 'distance("home", "start")': "4", 'step("home", "back")': "start"}
    for number, (expression, shown) in enumerate(claims.items()):
        game = game_with(tmp_path, block, turn(f'let shown = {expression}\nlog "{{shown}}"\n'), name=f"graph{number}")
        assert game.new_game(3, 0).log[-1] == shown, expression
    with pytest.raises(RibbitError, match="unknown direction 'sideways'; the board has back, branch, next"):
        game_with(tmp_path, block, turn('let shown = step("a", "sideways")\n'), name="graph_unknown")


def graph_board_walk(tmp_path, block):
    """The spaces n steps ahead of a pawn, any branch taken, on the board of the block before."""
    board = dsl_blocks("graph-board")[0]
    functions = "functions:\n  exits(space sp): '[each t in [step(sp, \"next\"), step(sp, \"branch\")] where t != none]'\n"
    for n, ahead in ((2, "fork"), (3, "b, shortcut"), (4, "home")):
        body = f"let pawn = first(pile)\nmove pawn to stand(\"start\")\nlet n = {n}\n" + block + 'log "{frontier}"\n'
        game = game_with(tmp_path, board, functions, "components: [{name: pawn, zone: pile}]", turn(body),
                         name=f"walk{n}")
        assert game.new_game(3, 0).log[-1] == ahead


CHECKS = {
    "error": error, "expressions": expressions, "ordering": ordering, "weights": weights, "product": product,
    "statements": statements, "narration": narration, "events": events, "listeners": listeners,
    "quantities": quantities, "counters": counters, "counter-statements": counter_statements, "wet": wet,
    "board": board, "board-per-count": board_per_count, "family": family, "seen-by": seen_by, "pieces": pieces, "flow": flow,
    "table": table, "quoting": quoting, "per-player": per_player, "graph-board": graph_board,
    "graph-board-walk": graph_board_walk,
}


def checked_blocks():
    found = []
    for lang, info, text, line in fenced_blocks(DOCS / "dsl.md"):
        names = [word.partition("=")[2] for word in info.split() if word.startswith("check=")]
        if names:
            found.append(pytest.param(names[0], text, id=f"dsl.md:{line}:{names[0]}"))
    return found


@pytest.mark.parametrize("check, text", checked_blocks())
def test_a_block_of_the_dsl_reference_does_what_it_says(tmp_path, monkeypatch, check, text):
    function = CHECKS[check]
    if function is error:
        function(tmp_path, text, monkeypatch)
    else:
        function(tmp_path, text)


def uncovered(path):
    """The fenced blocks of a doc that no test runs, as (line, language and info)."""
    text = path.read_text(encoding="utf-8")
    blocks = fenced_blocks(path)
    assert len(FENCE_LINE.findall(text)) == 2 * len(blocks), f"{path.name}: a fence the tests do not read " \
                                                               "(indented, ~~~, or unclosed)"
    if path.name == "dsl.md":
        return [(line, f"{lang} {info}") for lang, info, _, line in blocks
                if not (lang == "ribbit" and info == "")  # tests/compiler/test_dsl_examples.py
                and not any(word.startswith("check=") and word[6:] in CHECKS for word in info.split())]
    run_as_commands = f"docs/{path.name}" in DOCUMENTS  # its shell blocks: tests/cli/test_readme_commands.py
    return [(line, f"{lang} {info}") for lang, info, _, line in blocks if not (run_as_commands and lang in SHELL)]


def test_every_fenced_block_of_the_docs_is_checked():
    for path in sorted(DOCS.glob("*.md")):
        if path.name == "authoring.md":
            continue  # tests/games/test_authoring_guide.py runs its blocks and fails on a kind it does not run
        if path.name == "ai.md":
            continue  # tests/agents/test_ai_tutorial.py runs its blocks and fails on a kind it does not run
        if path.name == "chance.md":
            continue  # tests/engine/test_chance_mode.py runs its one block and fails if there are more
        assert uncovered(path) == [], path.name


def test_every_check_is_used_by_a_block():
    used = {param.values[0] for param in checked_blocks()}
    assert used == set(CHECKS)


def test_the_coverage_check_sees_an_uncovered_block(tmp_path):
    doc = tmp_path / "other.md"
    doc.write_text("# Other\n\n```yaml\na: 1\n```\n", encoding="utf-8")
    assert uncovered(doc) == [(3, "yaml ")]
    doc.write_text("# Other\n\n  ```yaml\n  a: 1\n  ```\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        uncovered(doc)
