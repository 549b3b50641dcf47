"""The lobby of ``ribbit serve FOLDER``: tables started from the browser by listing ids only, checked by the
loader and the bot parser, listed without their tokens, saved in a folder and all resumed by a new server."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="starlette's test client needs httpx (in the dev extra)")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import make_app  # noqa: E402
from interpreter.web.lobby import Catalog, Choice, Lobby, LobbyError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SELECTION = ROOT / "tests" / "definitions" / "selection.yaml"

HEAD_START = """\
variant: Head start
game: Secret Selection
description: Everyone starts with some points.
parameters:
  start: {default: 1, one_of: [0, 1, 2], description: "Points each player starts with"}
add:
  setup:
    - step: head_start
      do: |
        for p in players:
          p.points += start
"""


@pytest.fixture
def games(tmp_path) -> Path:
    """A served folder: one test game with one variant that has a setting, and a file that is no game."""
    folder = tmp_path / "games"
    (folder / "variants" / "selection").mkdir(parents=True)
    shutil.copy(SELECTION, folder / "selection.yaml")
    (folder / "variants" / "selection" / "head_start.yaml").write_text(HEAD_START)
    (folder / "notes.yaml").write_text("just: notes\n")
    return folder


def lobby_app(games, tables, **limits):
    lobby = Lobby(Catalog.scan(games), tables, bot_delay=0, **limits)
    lobby.open_folder()
    return lobby, make_app(lobby.resume_all(), lobby)


def create(client, **request):
    body = {"game": "selection", "players": 2, "bots": {}, "variants": [], **request}
    return client.post("/api/tables", content=json.dumps(body),  # ASCII JSON: "\ud800" is sent as written
                       headers={"content-type": "application/json"})


def watch_state(client, table_id):
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "watch": table_id})
        for _ in range(20):
            message = ws.receive_json()
            if message["type"] == "state":
                return message
    raise AssertionError("no state")


def test_the_catalog_offers_the_games_of_the_folder_by_their_file_names(games):
    catalog = Catalog.scan(games)
    assert list(catalog.offers) == ["selection"]  # notes.yaml is no game: not offered
    described = catalog.describe()[0]
    assert (described["name"], described["min_players"], described["max_players"]) == ("Secret Selection", 2, 3)
    variant = described["variants"][0]
    assert variant["id"] == "head_start" and variant["name"] == "Head start"
    assert variant["parameters"] == [{"name": "start", "default": 1, "one_of": [0, 1, 2], "kind": "int",
                                      "description": "Points each player starts with"}]


def test_a_table_is_created_with_a_variant_setting_and_bots_and_listed_without_tokens(games, tmp_path):
    lobby, app = lobby_app(games, tmp_path / "tables")
    with TestClient(app) as client:
        page = client.get("/lobby")
        assert page.status_code == 200 and "lobby.js" in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        reply = create(client, players=3, bots={"3": "random:seed=4"}, variants=[["head_start", {"start": "2"}]])
        assert reply.status_code == 200, reply.text
        created = reply.json()
        tokens = [seat["token"] for seat in created["seats"] if "token" in seat]
        assert len(tokens) == 2 and created["seats"][2] == {"seat": 3, "bot": "random"}
        state = watch_state(client, created["table"])
        assert [p["points"] for p in state["view"]["player_variables"]] == [2, 2, 2]  # the setting was applied
        listing = client.get("/api/lobby").json()
        assert len(listing["tables"]) == 1
        row = listing["tables"][0]
        assert (row["game"], row["players"], row["finished"], row["variants"]) == \
               ("Secret Selection", 3, False, ["head_start:start=2"])
        assert [s.get("bot") for s in row["seats"]] == [None, None, "random"]
        assert not any(token in json.dumps(listing) for token in tokens)
        with client.websocket_connect("/ws") as ws:  # a seat link of the new table works
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert ws.receive_json()["type"] == "welcome"
            assert client.get("/api/lobby").json()["tables"][0]["seats"][0]["taken"] is True
    files = sorted(p.name for p in (tmp_path / "tables").iterdir())
    table_id = created["table"]
    assert files == sorted([f"{table_id}.save.json", f"{table_id}.save.json.seats.json", f"{table_id}.table.json"])
    assert stat.S_IMODE(os.stat(tmp_path / "tables").st_mode) == 0o700


@pytest.mark.parametrize("request_, message", [
    ({"game": "../selection"}, "there is no game"),
    ({"game": str(SELECTION)}, "there is no game"),
    ({"variants": [["../../selection", {}]]}, "has no variant"),
    ({"variants": [["head_start", {"start": "7"}]]}, "not an allowed value of parameter 'start'"),
    ({"variants": [["head_start", {"speed": "1"}]]}, "has no parameter 'speed'"),
    ({"variants": [["head_start", {"start": "1,x=2"}]]}, "without ','"),
    ({"variants": [["head_start", {"start": "\ud800"}]]}, "'\\ud800' is not an allowed value of parameter 'start'"),
    ({"game": "\udcff", "bots": {"2": "random:seed=\ud800"}}, "there is no game '\\udcff'"),
    ({"bots": {"2": "random:seed=\ud800"}}, "\\ud800, which is not a character"),
    ({"variants": [["head_start", {}], ["head_start", {}]]}, "chosen twice"),
    ({"players": 4}, "is for 2-3 players, not 4"),
    ({"players": "2"}, "players must be a whole number"),
    ({"bots": {"2": "genius"}}, "there is no bot 'genius'"),
    ({"bots": {"3": "random"}}, "no seat 3"),
    ({"bots": {"2": "ismcts:iterations=999999999999"}}, "iterations must be"),
    ({"bots": ["random"]}, "bots are given as"),
])
def test_a_bad_table_request_gets_a_message_and_creates_nothing(games, tmp_path, request_, message):
    lobby, app = lobby_app(games, tmp_path / "tables")
    with TestClient(app) as client:
        reply = create(client, **request_)
        assert reply.status_code == 400
        assert message in reply.json()["message"]
        assert client.get("/api/lobby").json()["tables"] == []
    assert list((tmp_path / "tables").iterdir()) == []


def test_requests_that_are_not_json_from_this_page_are_refused(games, tmp_path):
    lobby, app = lobby_app(games, tmp_path / "tables")
    with TestClient(app) as client:
        assert client.post("/api/tables", content="game=selection",
                           headers={"content-type": "text/plain"}).status_code == 415
        assert client.post("/api/tables", json={"game": "selection", "players": 2},
                           headers={"origin": "http://evil.example"}).status_code == 403
        assert client.post("/api/tables", content="[" * 100_000,
                           headers={"content-type": "application/json"}).status_code == 413
        assert client.post("/api/tables", content="{nope",
                           headers={"content-type": "application/json"}).status_code == 400
        assert client.post("/api/tables", json=["selection"]).status_code == 400
        assert client.get("/api/lobby").json()["tables"] == []


def test_no_more_tables_than_the_limit_nor_faster_than_the_rate(games, tmp_path):
    lobby, app = lobby_app(games, tmp_path / "tables", max_tables=2)
    with TestClient(app) as client:
        assert create(client).status_code == 200 and create(client).status_code == 200
        refused = create(client)
        assert refused.status_code == 400 and "already hosts 2 tables, its limit" in refused.json()["message"]
    lobby, app = lobby_app(games, tmp_path / "other", per_minute=2)
    with TestClient(app) as client:
        assert create(client).status_code == 200 and create(client).status_code == 200
        refused = create(client)
        assert refused.status_code == 400 and "too many tables were started" in refused.json()["message"]


def test_a_one_game_server_has_no_lobby(tmp_path):
    from interpreter import load_game
    from interpreter.web.table import Table

    table = Table(load_game(SELECTION), 2, {}, tmp_path / "g.json")
    with TestClient(make_app([table])) as client:
        assert client.get("/lobby").status_code == 404
        assert client.post("/api/tables", json={"game": "selection", "players": 2}).status_code in (404, 405)


def play_one(client, token):
    """Seat ``token`` plays its first option; the number of actions in the game after it."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "hello", "token": token})
        for _ in range(20):
            message = ws.receive_json()
            if message["type"] == "state" and message["decision"]:
                ws.send_json({"type": "act", "action": message["decision"]["options"][0]["label"],
                              "state_id": message.get("state_id")})  # the id of the state it was chosen in
                break
        for _ in range(20):
            message = ws.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "state" and len(message["view"]["decision"]["decided"]) == 1:
                return
        raise AssertionError("the action was not taken")


def test_every_table_resumes_with_the_same_links_after_a_restart(games, tmp_path):
    lobby, app = lobby_app(games, tmp_path / "tables")
    with TestClient(app) as client:
        first = create(client, variants=[["head_start", {"start": "0"}]]).json()
        second = create(client, players=3, bots={"2": "greedy"}).json()
        play_one(client, first["seats"][0]["token"])
        before = {t: watch_state(client, t)["view"] for t in (first["table"], second["table"])}
    again, app = lobby_app(games, tmp_path / "tables")
    assert again.problems == []
    with TestClient(app) as client:
        listed = client.get("/api/lobby").json()["tables"]
        assert [row["id"] for row in listed] == [first["table"], second["table"]]
        assert listed[1]["seats"][1] == {"seat": 2, "bot": "greedy"}
        for table_id, view in before.items():
            assert watch_state(client, table_id)["view"] == view
        with client.websocket_connect("/ws") as ws:  # the old links act for the same seats
            ws.send_json({"type": "hello", "token": second["seats"][2]["token"]})
            welcome = ws.receive_json()
            assert (welcome["type"], welcome["seat"], welcome["table"]) == ("welcome", 2, second["table"])


def test_a_table_that_cannot_be_resumed_is_named_and_the_others_still_are(games, tmp_path):
    lobby, app = lobby_app(games, tmp_path / "tables")
    with TestClient(app) as client:
        kept = create(client).json()["table"]
        broken = create(client).json()["table"]
        gone = create(client, variants=[["head_start", {}]]).json()["table"]
    folder = tmp_path / "tables"
    (folder / f"{broken}.save.json.seats.json").unlink()
    (games / "variants" / "selection" / "head_start.yaml").unlink()  # the lobby no longer serves that variant
    (folder / "stray.table.json").write_text("{}")
    again, app = lobby_app(games, folder)
    assert list(again.tables) == [kept]
    problems = "\n".join(again.problems)
    assert f"{broken}.save.json.seats.json" in problems and "seats file of this save is missing" in problems
    assert f"{gone}.table.json" in problems and "no longer serves" in problems
    assert "stray.table.json" in problems
    assert (folder / f"{gone}.table.json").exists()  # reported, never deleted


def test_a_folder_with_no_game_is_refused_with_a_message(tmp_path):
    (tmp_path / "notes.yaml").write_text("just: notes\n")
    with pytest.raises(LobbyError, match="no game definition to serve"):
        Catalog.scan(tmp_path)


def test_serve_starts_a_lobby_for_a_folder_and_refuses_one_game_options(games, capsys):
    from interpreter.cli import main

    assert main(["serve", str(games), "--players", "2"]) == 2
    assert "--players: a lobby's tables are chosen in the browser" in capsys.readouterr().err
    assert main(["serve", str(games), "--tables", str(games / "selection.yaml")]) == 2
    assert "an input of this run" in capsys.readouterr().err


def test_one_game_file_is_a_lobby_of_that_game_and_its_variants(games):
    catalog = Catalog.scan(games / "selection.yaml")
    assert list(catalog.offers) == ["selection"] and list(catalog.offers["selection"].variants) == ["head_start"]
    with pytest.raises(LobbyError, match="this is not one"):
        Catalog.scan(games / "variants" / "selection" / "head_start.yaml")


def test_tables_of_one_choice_share_its_game_and_the_number_of_choices_loaded_is_capped(games, tmp_path):
    """Each different choice of variants and settings is a game compiled and kept in memory: a cap bounds them."""
    lobby, app = lobby_app(games, tmp_path / "tables", max_setups=1)
    with TestClient(app) as client:
        first = create(client, variants=[["head_start", {"start": "0"}]]).json()["table"]
        same = create(client, variants=[["head_start", {"start": "0"}]]).json()["table"]
        refused = create(client, variants=[["head_start", {"start": "2"}]])
        assert refused.status_code == 400 and "already use 1 different choices" in refused.json()["message"]
        assert create(client).status_code == 200  # the game as it is loads nothing new
    assert lobby.tables[first].game is lobby.tables[same].game


def test_a_tampered_table_record_is_refused_naming_its_file_and_key(games, tmp_path):
    folder = tmp_path / "tables"
    lobby, app = lobby_app(games, folder)
    with TestClient(app) as client:
        real = create(client).json()["table"]
    copy = "Copy0fTable_"  # a table's three files under another id: its seats file still names the first
    for suffix in (".save.json", ".save.json.seats.json", ".table.json"):
        shutil.copy(folder / f"{real}{suffix}", folder / f"{copy}{suffix}")
    shared = "zzzzzzShared"  # the same again, its seats file naming it (resumed after the first: files sort by name)
    for suffix in (".save.json", ".table.json"):
        shutil.copy(folder / f"{real}{suffix}", folder / f"{shared}{suffix}")
    seats = json.loads((folder / f"{real}.save.json.seats.json").read_text())
    (folder / f"{shared}.save.json.seats.json").write_text(json.dumps({**seats, "table": shared}))
    (folder / "Elsewhere000.table.json").write_text(json.dumps(
        {"format": "ribbit-lobby-table/1", "game": "../selection", "variants": []}))
    (folder / "NotATable000.table.json").write_text("[1, 2")
    again, _ = lobby_app(games, folder)
    assert list(again.tables) == [real]
    problems = "\n".join(again.problems)
    assert f"{copy}.save.json.seats.json: table: the seats file is for table '{real}'" in problems
    assert f"{shared}.save.json.seats.json: tokens: a seat's token is also a seat's of another table" in problems
    assert "Elsewhere000.table.json: game: there is no game '../selection' here" in problems
    assert "NotATable000.table.json:1:6: the table record is not valid JSON" in problems


def test_a_variant_setting_of_a_game_parameter_is_offered_and_sets_it_at_the_table(tmp_path):
    folder = tmp_path / "games"
    (folder / "variants" / "set_parameters").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "definitions" / "set_parameters.yaml", folder)
    shutil.copy(ROOT / "tests" / "definitions" / "variants" / "set_parameters" / "hand.yaml",
                folder / "variants" / "set_parameters")
    catalog = Catalog.scan(folder)
    assert catalog.describe()[0]["variants"][0]["parameters"] == [
        {"name": "hand_size", "default": 3, "one_of": [1, 2, 3, 5], "kind": "int",
         "description": "Cards dealt to each player."}]
    lobby = Lobby(catalog, tmp_path / "tables", bot_delay=0)
    chosen = Choice.read(catalog, "set_parameters", [["hand", {"hand_size": 5}]])
    assert chosen.refs() == ["hand:hand_size=5"] and lobby.load(chosen).params["hand_size"] == 5
    assert lobby.load(Choice.read(catalog, "set_parameters", [["hand", {}]])).params["hand_size"] == 3


def test_a_variant_whose_setting_cannot_set_the_games_parameter_is_left_out_of_the_catalog_and_named(games):
    (games / "variants" / "selection" / "by_name.yaml").write_text(
        "variant: By name\ngame: Secret Selection\nparameters:\n  actions_each: {default: two}\n")
    catalog = Catalog.scan(games)
    assert list(catalog.offers["selection"].variants) == ["head_start"]
    [problem] = [p for p in catalog.problems if "by_name.yaml" in p]
    assert problem.startswith(f"left out: {games / 'variants' / 'selection' / 'by_name.yaml'}:4:27: "
                              "parameters.actions_each.default: the default 'two' is a text, but the setting sets the "
                              "game parameter 'actions_each' (")
