"""The definition's ``table:`` section: checked at load, applied to views only, never deciding secrecy.

A hint that puts a hidden zone on the table still yields only its count (in what a browser seat is sent
and in the terminal), and a hint that puts a visible zone under the table folds it away without taking
anything from the seat (its cards stay in the view, in the browser's folded section and behind
``info ZONE``).  The end of a game gives each player's score by the definition's own terms, and ``info``
at the terminal describes only cards the seat can see, answering the same for a hidden card as for one
that does not exist.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
import yaml

from interpreter import DefinitionError, load_game
from interpreter.cli import explain
from interpreter.render import SafeConsole, render_result, render_view
from interpreter.web.layout import layout_of
from interpreter.web.table import Table

ROOT = Path(__file__).resolve().parents[2]
DEFS = ROOT / "definitions"
GAMES = ["frog_tower", "kaeru", "top_frog", "crazy_eights"]


def console():
    return SafeConsole(width=140, file=io.StringIO(), force_terminal=False)


def variant(tmp_path, game: str, table: dict) -> str:
    path = tmp_path / "look.yaml"
    path.write_text(yaml.safe_dump({"variant": "Another look", "game": game, "replace": {"table": table}}))
    return str(path)


def played_out(state, seed=1):
    rng = random.Random(seed)
    while not state.over:
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


# ---------------------------------------------------------------- checked at load
@pytest.mark.parametrize("name", GAMES)
def test_every_shipped_game_has_a_table_section_naming_only_what_it_has(name):
    game = load_game(DEFS / f"{name}.yaml")
    assert "table" in game.source.data
    shown = game.presentation
    assert set(shown["zones"]) == set(game.zones)  # every zone placed, defaults filled
    assert all(z["at"] in ("board", "shared", "player", "box") for z in shown["zones"].values())
    assert [term for term, _ in shown["score"]] == [term for term, _ in game.score_terms]


MISTAKES = [
    ({"zones": {"discrad": {"at": "shared"}}}, "table.zones.discrad: the table names zone 'discrad', which the game "
                                               "does not have; did you mean 'discard'?"),
    ({"zones": {"hand": {"at": "board"}}}, "table.zones.hand.at: zone 'hand' is a zone per player: it can be drawn at "
                                           "'player' or under the table (box), not at 'board'"),
    ({"cards": {"band": "suite"}}, "table.cards.band: the card face's band names property 'suite', which the cards do "
                                   "not have; did you mean 'suit'?"),
    ({"cards": {"badges": ["rank", "suit", "rank", "suit"]}}, "table.cards.badges: "),
    ({"variables": {"nmed": "x"}}, "table.variables.nmed: the table shows variable 'nmed', which is neither a game nor "
                                   "a player variable; did you mean 'named'?"),
    ({"score": {"card_left": "x"}}, "table.score.card_left: the breakdown names score term 'card_left', which the "
                                    "scoring does not have (the score terms are 'cards_left'); did you mean 'cards_left'?"),
    ({"cards": {"colours": {"hearts": "red"}}}, "table.cards.colours.hearts: "),
    ({"zones": {"stock": {"next": "middle"}}}, "table.zones.stock.next: "),
]


@pytest.mark.parametrize("table, message", MISTAKES, ids=[m[1].split(":")[0] for m in MISTAKES])
def test_a_mistake_in_the_table_is_a_located_error_at_its_key(tmp_path, table, message):
    text = (DEFS / "crazy_eights.yaml").read_text()
    text = text[:text.index("\n# How the table looks")] + "\n" + yaml.safe_dump({"table": table})
    path = tmp_path / "eights.yaml"
    path.write_text(text)
    with pytest.raises(DefinitionError) as caught:
        load_game(path)
    first = str(caught.value).splitlines()[0]
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: ", first), first
    assert first.split(": ", 1)[1].startswith(message), first


def test_a_variant_replaces_the_table_and_its_mistakes_point_into_the_variant(tmp_path):
    game = load_game(DEFS / "crazy_eights.yaml", [variant(tmp_path, "Crazy Eights", {
        "zones": {"stock": {"at": "box"}, "discard": {"label": "the pile"}}})])
    assert game.presentation["zones"]["stock"]["at"] == "box"
    assert game.presentation["zones"]["discard"] == {"at": "shared", "label": "the pile", "show": "row"}
    assert game.presentation["cards"]["band"] is None  # the whole section replaced
    with pytest.raises(DefinitionError) as caught:
        load_game(DEFS / "crazy_eights.yaml", [variant(tmp_path, "Crazy Eights", {"zones": {"stok": None}})])
    assert str(caught.value).startswith(f"{tmp_path / 'look.yaml'}:5:13: replace.table.zones.stok: the table names "
                                        "zone 'stok'")


def test_without_a_table_section_a_zone_nobody_sees_goes_under_the_table(tmp_path):
    text = (DEFS / "crazy_eights.yaml").read_text()
    path = tmp_path / "plain.yaml"
    path.write_text(text[:text.index("\n# How the table looks")])
    game = load_game(path)
    places = {name: z["at"] for name, z in game.presentation["zones"].items()}
    assert places == {"stock": "box", "discard": "shared", "hand": "player"}
    assert game.presentation["variables"] is None  # every variable, under its name
    out = console()
    render_view(out, game, game.new_game(2, 1).view(0), 0)
    assert re.search(r"Under the table: stock: 3\d cards", out.file.getvalue())


# ---------------------------------------------------------------- hints never decide secrecy
def kaeru_showing_the_unused_goals(tmp_path):
    """Kaeru with a table that puts the two unused goal cards (a hidden zone) on the table."""
    return load_game(DEFS / "kaeru.yaml", [variant(tmp_path, "Kaeru", {
        "zones": {"out_of_game": {"at": "shared", "label": "unused goals"}, "stack": {"at": "board"}}})])


def test_a_hint_that_shows_a_hidden_zone_yields_only_its_count_to_every_seat_and_the_terminal(tmp_path):
    game = kaeru_showing_the_unused_goals(tmp_path)
    assert game.presentation["zones"]["out_of_game"]["at"] == "shared"
    table = Table(game, 2, seed=4)
    state = table.state
    unused = [game.card_names[c] for c in state.zones[game.zones["out_of_game"].base]]
    assert len(unused) == 2
    layout = json.dumps(layout_of(game, 2))
    played = 0
    while not state.over and played < 30:
        for seat in (0, 1, None):
            message, _ = table.snapshot(seat, 0)
            sent = json.dumps(message)
            assert message["view"]["zones"]["out_of_game"] == {"count": 2}
            assert not any(json.dumps(name) in sent or json.dumps(name) in layout for name in unused)
            out = console()
            render_view(out, game, state.view(seat), seat, (), (state.decision_for(seat) or {}).get("options"))
            text = out.file.getvalue()
            assert "unused goals" in text and not any(name in text for name in unused)
        mover = state.current_players()[0]
        table.apply(mover, state.legal_actions(mover)[0])
        played += 1


def test_a_hint_that_folds_a_visible_zone_away_takes_nothing_from_the_seat(tmp_path):
    """Top Frog's game box is public and its table puts it under the table: the view still holds every
    card of it, the browser's layout says where (folded), and the terminal names it and lists it on info."""
    game = load_game(DEFS / "top_frog.yaml")
    assert game.presentation["zones"]["box"]["at"] == "box"
    text = (DEFS / "top_frog.yaml").read_text()
    bare = tmp_path / "bare.yaml"
    bare.write_text(text[:text.index("\n# How the table looks")])
    plain = load_game(bare)
    state, same = game.new_game(2, 6), plain.new_game(2, 6)
    assert state.view(0) == same.view(0) and state.view(None) == same.view(None)  # the hints change no view
    box = state.view(0)["zones"]["box"]["cards"]
    assert box
    out = console()
    render_view(out, game, state.view(0), 0)
    assert f"game box: {len(box)} cards" in out.file.getvalue()
    out = console()
    described = state.decision_for(0)
    assert explain(out, game, state, 0, state.view(0), described, "info game box")
    assert all(name in out.file.getvalue() for name in set(box))


# ---------------------------------------------------------------- the terminal's info and ?
def test_info_describes_a_visible_card_and_answers_alike_for_a_hidden_one_and_a_made_up_one():
    game = load_game(DEFS / "crazy_eights.yaml")
    state = game.new_game(2, 3)
    view, described = state.view(0), state.decision_for(0)
    mine = view["zones"]["hand(1)"]["cards"][0]
    theirs = game.card_names[state.zones[game.zone_index("hand(2)")][0]]
    assert theirs not in json.dumps(view)
    out = console()
    assert explain(out, game, state, 0, view, described, f"info {mine}")
    assert mine in out.file.getvalue() and "rank: " in out.file.getvalue()  # every property, on info
    again = console()
    assert explain(again, game, state, 0, view, described, f"? {mine}")
    assert again.file.getvalue() == out.file.getvalue()

    def answer(name):
        out = console()
        assert explain(out, game, state, 0, view, described, f"info {name}")
        return out.file.getvalue().replace(name, "NAME")
    assert answer(theirs) == answer("queen of stars")
    assert "is in sight" in answer(theirs)


def test_question_mark_explains_the_decision_by_the_rule_that_asks_it():
    game = load_game(DEFS / "crazy_eights.yaml")
    state = game.new_game(2, 3)
    out = console()
    assert explain(out, game, state, 0, state.view(0), state.decision_for(0), "?")
    text = out.file.getvalue()
    assert "procedure take_turn(player p)" in text and '"draw a card" if may_draw(p)' in text
    assert not explain(out, game, state, 0, state.view(0), state.decision_for(0), "banana")


def test_an_option_that_picks_a_card_shows_its_face_at_the_terminal():
    game = load_game(DEFS / "top_frog.yaml")
    state = game.new_game(2, 3)
    described = state.decision_for(0)
    pads = [o["cards"][0] for o in described["options"]]
    assert len(pads) == 2
    out = console()
    render_view(out, game, state.view(0), 0, (), described["options"])
    text = out.file.getvalue()
    texts = game.properties["text"][0]
    for pad in pads:
        assert texts[game.card_names.index(pad)] in text  # the pad's condition, under its option


# ---------------------------------------------------------------- the ending
@pytest.mark.parametrize("name, players", [("top_frog", 3), ("frog_tower", 2), ("kaeru", 2), ("crazy_eights", 3)])
def test_the_breakdown_adds_up_to_each_score_by_the_definition_s_terms(name, players):
    game = load_game(DEFS / f"{name}.yaml")
    state = played_out(game.new_game(players, 2))
    breakdown = state.score_breakdown()
    assert [sum(row.values()) for row in breakdown] == state.scores()
    assert all(list(row) == [term for term, _ in game.score_terms] for row in breakdown)
    out = console()
    render_result(out, game, state)
    text = out.file.getvalue()
    if len(game.score_terms) > 1:
        assert all(label in text for _, label in game.presentation["score"])


def test_the_end_record_of_both_logs_holds_the_breakdown(tmp_path):
    from interpreter.cli import main

    log = tmp_path / "game.jsonl"
    assert main(["play", str(DEFS / "top_frog.yaml"), "--players", "2", "--seed", "5", "--log", str(log)]) == 0
    end = json.loads(log.read_text().splitlines()[-1])
    assert end["event"] == "end" and set(end["breakdown"][0]) == {"frogs", "hats", "lily_pad", "gnats"}
    assert [sum(row.values()) for row in end["breakdown"]] == end["scores"]
    game = load_game(DEFS / "top_frog.yaml")
    table = Table(game, 2, seed=5)
    played_out(table.state)
    web_end = json.loads(table.log_lines(0).splitlines()[-1])
    assert web_end["breakdown"] == table.state.score_breakdown()
    message, _ = table.snapshot(1, 0)
    assert message["breakdown"] == table.state.score_breakdown()


def test_labels_are_author_text_printed_inert_at_the_terminal(tmp_path):
    """A label may hold anything a stranger writes: it reaches the terminal as visible text, never as a
    terminal control sequence or rich markup."""
    game = load_game(DEFS / "crazy_eights.yaml", [variant(tmp_path, "Crazy Eights", {
        "zones": {"discard": {"label": "\x1b[2J[bold]pile"}}, "variables": {"named": "\u202enamed"}})])
    out = console()
    render_view(out, game, game.new_game(2, 1).view(0), 0)
    text = out.file.getvalue()
    assert "\x1b" not in text and "\u202e" not in text
    assert "[bold]pile" in text  # markup printed as itself


def test_a_grouped_zone_is_drawn_in_groups_by_band_and_keeps_every_card(tmp_path):
    game = load_game(DEFS / "frog_tower.yaml")
    assert game.presentation["zones"]["garden"]["show"] == "grouped"
    garden = ["green frog", "leaf", "blue frog", "green frog (One more!)", "starting leaf", "blue frog"]
    state = game.new_game(2, 1)
    view = json.loads(json.dumps(state.view(0)))
    view["zones"]["garden(1)"] = {"cards": garden}
    out = SafeConsole(width=220, file=io.StringIO(), force_terminal=False)  # the groups on one line
    render_view(out, game, view, 0)
    row = next(line for line in out.file.getvalue().splitlines() if "green frog" in line)
    order = [row.index(name) for name in ("green frog,", "green frog (One more!)", "leaf,", "starting leaf",
                                          "blue frog x2")]
    assert order == sorted(order)  # greens, then leaves (the default type), then blues; every card still there
