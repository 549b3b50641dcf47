"""The terminal table as a player reads it (docs/design TABLE.md): the end of the game in the definition's own
terms and as the one person at the screen sees it, a garden sorted by colour shown in its groups, option
faces that say something, and a card's name not followed by badges that repeat it."""

from __future__ import annotations

import builtins
import io
import json
import random
from pathlib import Path

from interpreter import load_game
from interpreter.cli import main
from interpreter.render import SafeConsole, card_label, render_decision, render_result, render_view
from test_table_presentation import played_out  # a random game played to its end

ROOT = Path(__file__).resolve().parents[2]
DEFS = ROOT / "definitions"


def console(width=140):
    return SafeConsole(width=width, file=io.StringIO(), force_terminal=False)


def result_text(game, state, seat=None) -> str:
    out = console()
    render_result(out, game, state, seat)
    return out.file.getvalue()


def test_a_single_score_term_heads_the_final_score_column_with_its_label():
    """TABLE.md: the end shows each player's score by the definition's own terms; with one term (Frog Tower's
    towers, Kaeru's meals) that term is the score, so its label heads the column, not a bare "score"."""
    for name in ("frog_tower", "kaeru"):
        game = load_game(DEFS / f"{name}.yaml")
        (term, label), = game.presentation["score"]
        state = played_out(game.new_game(2, 3))
        header = next(line for line in result_text(game, state).splitlines() if "seat" in line)
        assert header.split() == ["seat", *label.split()], (name, header)


def test_several_score_terms_keep_their_columns_and_the_total_under_score():
    game = load_game(DEFS / "top_frog.yaml")
    state = played_out(game.new_game(2, 3))
    header = next(line for line in result_text(game, state).splitlines() if "seat" in line)
    assert [w for w in header.split()] == ["seat", "Frogs", "Hats", "Lily", "Pad", "Gnats", "score"]


def test_a_game_without_named_score_terms_heads_the_total_score():
    """No term (narration.yaml), or the one default term of a plain score: the column reads "score"."""
    for name in ("narration", "simultaneous"):
        game = load_game(ROOT / "tests" / "definitions" / f"{name}.yaml")
        assert game.presentation["score"] in ([], [["score", "score"]])
        text = result_text(game, played_out(game.new_game(2, 1)))
        header = next(line for line in text.splitlines() if "seat" in line)
        assert header.split() == ["seat", "score"], name


def test_the_final_screen_of_the_one_person_playing_is_their_own_view(capsys, monkeypatch, tmp_path):
    """The last screen is the person's own seat: their row says "(you)" on the table and in the result, and
    what only they may see stays shown (a spectator's view would hide their hand)."""
    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    code = main(["play", str(DEFS / "top_frog.yaml"), "--players", "2", "--human", "1", "--seed", "5",
                 "--variant", "round_limit", "--log", str(tmp_path / "log.jsonl")])
    out = capsys.readouterr().out
    assert code == 0
    end = out[out.rindex("game over"):]
    assert "player 1 (you)" in end[:end.index("final result")]  # on the table
    result = end[end.index("final result"):]
    assert "player 1 (you)" in result and "player 2 (you)" not in result


def test_an_option_face_that_only_repeats_its_name_is_not_printed_under_it():
    """Kaeru's frogs have no property the face shows: "move player 1 small frog (1 pip)" is not followed by
    the frog's name again; a face with something to say (a Lily Pad's condition) still is."""
    game = load_game(DEFS / "kaeru.yaml")
    state = game.new_game(2, 3)
    seat = state.current_players()[0]
    described = state.decision_for(seat)["options"]
    assert all(o["cards"] for o in described)
    out = console()
    render_decision(out, state.view(seat)["decision"], seat, game, described)
    text = out.file.getvalue()
    for option in described:
        assert text.count(option["cards"][0]) == 1, text  # in the option's own line only
    tower = load_game(DEFS / "frog_tower.yaml")  # 'blue frog  blue': the band's value is already in the name
    out = console()
    render_decision(out, {"prompt": "take", "waiting_for": [0], "your_options": ["take blue frog", "take rainbow frog"]},
                    0, tower, [{"label": "take blue frog", "cards": ["blue frog"]},
                               {"label": "take rainbow frog", "cards": ["rainbow frog (purple flower)"]}])
    text = out.file.getvalue()
    assert text.count("blue frog") == 1 and text.count("rainbow frog (purple flower)") == 1  # (its badge is new)
    top = load_game(DEFS / "top_frog.yaml")
    state = top.new_game(2, 3)
    described = state.decision_for(0)["options"]
    out = console()
    render_decision(out, state.view(0)["decision"], 0, top, described)
    assert all(out.file.getvalue().count(o["cards"][0]) == 2 for o in described)  # option line and face title


def test_a_grouped_zone_shows_its_groups_apart_under_their_band_values():
    """A garden sorted by colour reads as groups: each under its colour, the groups set apart."""
    game = load_game(DEFS / "frog_tower.yaml")
    state = game.new_game(2, 1)
    view = json.loads(json.dumps(state.view(0)))
    view["zones"]["garden(1)"] = {"cards": ["green frog", "leaf", "blue frog", "starting leaf", "blue frog"]}
    out = console(200)
    render_view(out, game, view, 0)
    row = next(line for line in out.file.getvalue().splitlines() if "green frog" in line)
    assert "green: green frog │ leaf: leaf, starting leaf │ blue: blue frog x2" in row


def test_a_badge_the_card_name_already_says_is_not_repeated_in_a_list_of_cards():
    """'red frog (yellow flower)' is not followed by '(flowers yellow)', nor 'yellow frog (One more!)' by
    '(one more)'; a badge the name does not say stays (Top Frog's weights and values)."""
    game = load_game(DEFS / "frog_tower.yaml")
    assert card_label(game, "red frog (yellow flower)") == "red frog (yellow flower)"
    assert card_label(game, "yellow frog (One more!)") == "yellow frog (One more!)"
    top = load_game(DEFS / "top_frog.yaml")
    assert card_label(top, "Mech") == "Mech (weights 3/6, value 3)"
    assert card_label(top, "Lily Pad #5") == "Lily Pad #5 (value 4, need 3)"  # '5' is in the name, '4' is not


def top_frog_midgame(moves=60):
    game = load_game(DEFS / "top_frog.yaml")
    state = game.new_game(2, 2)
    rng = random.Random(1)
    for _ in range(moves):
        seat = state.current_players()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return game, state


def test_a_pile_reads_bottom_to_top_with_the_text_of_its_top_and_of_its_base():
    """A ``show: stack`` zone of several cards is read as it stands, bottom to top, and shows its base's
    text (a Lily Pad's condition under the Frogs) as well as its top card's."""
    game, state = top_frog_midgame()
    view = state.view(0)
    pile = next(label for label, entry in view["zones"].items()
                if label.startswith("stack") and len(entry.get("cards", ())) > 1)
    cards = view["zones"][pile]["cards"]
    out = console(400)
    render_view(out, game, view, 0)
    text = out.file.getvalue()
    row = next(line for line in text.splitlines() if cards[0] in line and cards[-1] in line)
    assert row.index(cards[0]) < row.index(" ▸ ") < row.index(cards[-1]) and "(bottom ▸ top)" in row
    texts, names = game.properties["text"][0], game.card_names
    assert f"↳ base: {texts[names.index(cards[0])]}" in text
    assert f"↳ top: {texts[names.index(cards[-1])]}" in text


def test_a_few_cards_on_the_table_show_their_ability_and_text():
    """The hat display and the River read as faces (each card's ability and text), not bare names; a zone of
    many different cards keeps to names (``info`` reads them)."""
    game, state = top_frog_midgame()
    view = state.view(0)
    out = console(400)
    render_view(out, game, view, 0)
    text = out.file.getvalue()
    texts, names = game.properties["text"][0], game.card_names
    for hat in view["zones"]["hat_display"]["cards"]:
        assert any(hat in line and texts[names.index(hat)] in line for line in text.splitlines()), hat
    abilities = view["zones"]["abilities"]["cards"]
    assert len(set(abilities)) > 4
    assert not any(texts[names.index(card)] in text for card in abilities if texts[names.index(card)])


def test_a_secret_decision_says_who_has_chosen_never_what():
    """Two people at one screen (simultaneous.yaml): the second sees that the first has chosen, and that the
    pick is secret, but not the card."""
    game = load_game(ROOT / "tests" / "definitions" / "simultaneous.yaml")
    state = game.new_game(2, 4)
    picked = state.legal_actions(0)[0]
    state.apply(0, picked)
    out = console()
    render_decision(out, state.view(1)["decision"], 1, game, state.decision_for(1)["options"])
    head = out.file.getvalue().splitlines()[0]
    assert "waiting for player 2 (you)" in head and "chosen: player 1" in head and "secret" in head
    assert picked.split()[-1] not in out.file.getvalue()
    out = console()
    render_decision(out, state.view(0)["decision"], 0, game)
    assert "chosen: player 1 (you)" in out.file.getvalue()


def test_a_row_marks_the_card_the_rules_take_next():
    """The River's ``next: top`` hint: its top card (the last listed) is marked next at the terminal, the
    cards one by one as they lie; a zone without the hint marks nothing."""
    game = load_game(DEFS / "top_frog.yaml")
    assert game.presentation["zones"]["river"]["next"] == "top"
    assert "next" not in game.presentation["zones"]["hand"]
    state = game.new_game(2, 2)
    river = state.view(0)["zones"]["river"]["cards"]
    out = console(400)
    render_view(out, game, state.view(0), 0)
    lines = out.file.getvalue().splitlines()
    marked = [line for line in lines if "◂ next" in line]
    assert len(marked) == 1 and river[-1] in marked[0] and not any(name in marked[0] for name in river[:-1])
    out = console(400)
    from interpreter.render import render_rules
    render_rules(out, game)
    assert "the top card marked next" in out.file.getvalue()


def test_a_person_at_a_terminal_sees_which_bot_is_thinking(monkeypatch, tmp_path):
    """A bot's move does not leave the screen silent: at a terminal, "player 2 is thinking…" shows while it
    decides (and goes away); output to a pipe or a file gets no such line."""
    import interpreter.cli as cli

    screen = io.StringIO()
    monkeypatch.setattr(cli, "make_console", lambda stderr=False: SafeConsole(file=screen, force_terminal=True,
                                                                               width=100))
    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    argv = ["play", str(DEFS / "kaeru.yaml"), "--players", "2", "--human", "1", "--seed", "3", "--log", "-"]
    assert main(argv) == 0
    assert "player 2 is thinking…" in screen.getvalue()
    piped = io.StringIO()
    monkeypatch.setattr(cli, "make_console", lambda stderr=False: SafeConsole(file=piped, force_terminal=False))
    assert main(argv) == 0
    assert "thinking" not in piped.getvalue()
