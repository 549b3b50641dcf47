"""ribbit serve without a browser: the server's rules (tokens, secrecy, hostile messages, saves) through
real WebSocket messages to the app in-process, and the engine's decision description for UIs."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from interpreter import load_game

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("httpx", reason="starlette's test client needs httpx (in the dev extra)")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import MAX_MESSAGE, make_app  # noqa: E402
from interpreter.web.table import Table, parse_seat_specs, seats_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FROG_TOWER = ROOT / "definitions" / "frog_tower.yaml"
EIGHTS = ROOT / "definitions" / "crazy_eights.yaml"
SELECTION = ROOT / "tests" / "definitions" / "selection.yaml"


def receive_until(ws, kind, limit=50):
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def hello(ws, **who):
    ws.send_json({"type": "hello", **who})
    welcome = receive_until(ws, "welcome")
    return welcome, receive_until(ws, "state")


def latest_state(ws, want):
    """State messages until one satisfies ``want``."""
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == "state" and want(message):
            return message
    raise AssertionError("no such state")


# ---------------------------------------------------------------- the decision, described by the engine
def test_decision_for_names_the_cards_of_each_option_where_the_seat_sees_them():
    game = load_game(EIGHTS)
    state = game.new_game(3, seed=1)
    seat = state.current_players()[0]
    described = state.decision_for(seat)
    assert described["pick"] == "one"
    hand = state.view(seat)["zones"][f"hand({seat + 1})"]["cards"]
    plays = [o for o in described["options"] if o["cards"]]
    assert plays and all(o["cards"][0] in hand and o["zones"] == [f"hand({seat + 1})"] for o in plays)
    assert [o["label"] for o in described["options"]] == state.legal_actions(seat)
    other = (seat + 1) % 3
    assert state.decision_for(other)["options"] == []  # another seat learns whose decision it is, not the options
    assert state.decision_for(None)["options"] == []


def test_decision_for_a_menu_has_no_cards_and_a_secret_pick_is_several():
    menu = load_game(FROG_TOWER).new_game(3, seed=4)
    described = menu.decision_for(0)
    assert described["pick"] == "menu" and all(o["cards"] == [] for o in described["options"])
    secret = load_game(SELECTION).new_game(2, seed=1)
    described = secret.decision_for(0)
    assert described["secret"] and described["simultaneous"] and described["pick"] == "several"
    option = next(o for o in described["options"] if " + " in o["label"])
    assert len(option["cards"]) == 2 and option["zones"] == ["hand(1)", "hand(1)"]
    before = secret.decision_for(1)
    secret.apply(0, option["label"])
    # the other seat learns only that seat 1 has chosen
    assert secret.decision_for(1) == {**before, "decided": [0], "waiting_for": [1]}


def test_decision_for_gives_no_cards_the_seat_cannot_see():
    game = load_game(EIGHTS)
    state = game.new_game(3, seed=1)
    seat = state.current_players()[0]
    option = next(o for o in state.decision_for(seat)["options"] if o["cards"])
    card = game.card_names.index(option["cards"][0])
    assert state._cards_of_option(seat, option["label"], card)[0] == option["cards"]
    assert state._cards_of_option((seat + 1) % 3, option["label"], card) == ([], [])


# ---------------------------------------------------------------- the server
@pytest.fixture
def selection_table(tmp_path):
    table = Table(load_game(SELECTION), 3, {2: ("random", {})}, tmp_path / "game.json", seed=5)
    table.write_save()
    table.write_seats()
    return table


def test_a_seat_token_acts_only_for_its_own_seat_and_an_illegal_action_changes_nothing(tmp_path):
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    with TestClient(make_app([table])) as client:
        first = table.state.current_players()[0]
        other = 1 - first
        with client.websocket_connect("/ws") as ws:
            welcome, state = hello(ws, token=table.tokens[other])
            assert welcome["seat"] == other and state["view"]["you"] == other
            before = json.dumps(table.state.to_json())
            ws.send_json({"type": "act", "action": table.state.legal_actions(first)[0], "state_id": state["state_id"]})
            error = receive_until(ws, "error")
            assert error["message"] == (f"it is not your decision now (you are seat {other + 1}); waiting for seat "
                                        f"{first + 1}") and json.dumps(table.state.to_json()) == before
            ws.send_json({"type": "act", "action": "take everything", "state_id": state["state_id"]})
            assert receive_until(ws, "error")
            assert json.dumps(table.state.to_json()) == before


def test_an_unknown_token_is_refused_and_spectators_cannot_act(tmp_path):
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as ws:
            token = table.tokens[0]
            forged = token[:-1] + ("y" if token.endswith("x") else "x")  # one character off, never the token itself
            ws.send_json({"type": "hello", "token": forged})
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["fatal"] and "not valid" in refused["message"]
        with client.websocket_connect("/ws") as ws:
            welcome, state = hello(ws, watch=table.id)
            assert welcome["seat"] is None and state["decision"]["options"] == []
            assert all("cards" not in zone for label, zone in state["view"]["zones"].items() if label.startswith("hand"))
            ws.send_json({"type": "act", "action": table.state.legal_actions()[0], "state_id": state["state_id"]})
            assert "spectators cannot act" in receive_until(ws, "error")["message"]


@pytest.mark.parametrize("token", ["\ud800", "A" * 31 + "\udfff"])
def test_a_hello_whose_token_is_not_text_is_told_the_link_is_not_valid(tmp_path, token):
    """A lone surrogate (JSON's "\\ud800") cannot be compared as UTF-8: refused like any wrong token, with a message."""
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["fatal"] and "not valid" in refused["message"]


def test_a_frame_echoing_text_that_is_not_unicode_is_still_sent_as_json_escapes():
    """Whatever a message quotes of what a page sent, its frame can be encoded (a lone surrogate cannot as UTF-8)."""
    from interpreter.web.app import frame_text

    assert frame_text({"message": "caf\u00e9 \U0001f438"}) == '{"message": "caf\u00e9 \U0001f438"}'  # kept as is
    sent = frame_text({"message": "x\ud800 caf\u00e9"})
    assert sent.encode("utf-8") and json.loads(sent) == {"message": "x\ud800 caf\u00e9"}


HOSTILE = ["not json", "[1, 2]", "null", '"text"', "{" * 5000 + "}" * 5000, "[" * 20000,
           json.dumps({"type": "act", "action": ["play"]}), json.dumps({"type": "act", "action": {"x": 1}}),
           json.dumps({"type": "act", "action": "x" * 12000}), json.dumps({"type": "bogus"}), json.dumps({}),
           json.dumps({"type": "hello", "token": "again"}), json.dumps({"type": "act", "action": "\u202e\x00<script>"})]


def test_hostile_messages_get_an_error_and_the_game_goes_on(tmp_path):
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    seat = table.state.current_players()[0]
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as ws:
            _, state = hello(ws, token=table.tokens[seat])
            before = json.dumps(table.state.to_json())
            for text in HOSTILE:
                ws.send_text(text)
                assert receive_until(ws, "error")["message"]
            ws.send_text("y" * (MAX_MESSAGE + 1))
            assert "at most" in receive_until(ws, "error")["message"]
            ws.send_bytes(b"\xff\x00binary")
            assert json.dumps(table.state.to_json()) == before
            action = table.state.legal_actions(seat)[0]
            ws.send_json({"type": "act", "action": action, "state_id": state["state_id"]})
            moved = latest_state(ws, lambda m: m["view"]["variables"]["turn"] > 1 or m["decision"]["waiting_for"] != [seat])
            assert table.state.history[0] == [seat, action] and moved


def test_a_flood_of_messages_is_refused_beyond_the_rate_limit(tmp_path):
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as ws:
            hello(ws, token=table.tokens[0])
            for _ in range(45):
                ws.send_json({"type": "ping"})
            replies = [ws.receive_json() for _ in range(45)]
            slow = [r for r in replies if r["type"] == "error"]
            assert slow and all("slow down" in r["message"] for r in slow)
            assert sum(r["type"] == "pong" for r in replies) >= 29


def test_secret_picks_never_reach_another_seat_and_the_bot_fills_its_seat(selection_table):
    table = selection_table
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            _, first = hello(one, token=table.tokens[0])
            _, second = hello(two, token=table.tokens[1])
            pick = next(o for o in first["decision"]["options"] if " + " in o["label"])
            current = first if 2 in first["decision"]["decided"] else \
                latest_state(one, lambda m: 2 in m["decision"]["decided"])  # the bot has picked
            one.send_json({"type": "act", "action": pick["label"], "state_id": current["state_id"]})
            seen = latest_state(two, lambda m: 0 in m["decision"]["decided"])
            frames = json.dumps(second) + json.dumps(seen)
            assert 2 in seen["decision"]["decided"]  # the bot picked at once
            assert pick["label"] not in frames and seen["decision"]["waiting_for"] == [1]
            mine = json.dumps(latest_state(one, lambda m: 0 in m["decision"]["decided"]))
            assert "Your" not in mine and pick["label"] not in mine.replace(pick["label"], "", 0)


def test_the_game_is_saved_after_every_action_and_resumes_with_the_same_links(selection_table, tmp_path):
    table = selection_table
    save = table.save
    side = seats_path(save)
    assert stat.S_IMODE(os.stat(side).st_mode) == 0o600
    table.apply(0, table.state.legal_actions(0)[0])
    table.apply(1, table.state.legal_actions(1)[0])
    for seat, bot in table.bot_moves():
        table.apply(seat, table.bot_choice(seat, bot))
    saved = json.loads(save.read_text())
    assert saved["history"] == table.state.history and len(saved["history"]) == 3
    assert stat.S_IMODE(os.stat(save).st_mode) == 0o600  # it holds the seed: every hidden card's place
    again = Table.resume(load_game(SELECTION), save)
    assert again.tokens == table.tokens and again.id == table.id and again.bot_specs == table.bot_specs
    assert again.state.to_json() == table.state.to_json()
    assert not list(tmp_path.glob(".*.part"))


def test_a_damaged_save_or_seats_file_is_refused_with_a_message(selection_table):
    from interpreter.errors import SaveFileError

    save = selection_table.save
    side = seats_path(save)
    side.write_text(json.dumps({"format": "ribbit-web-seats/1", "tokens": {"9": "x"}, "bots": {}, "table": "t",
                                "game_number": 1}))
    with pytest.raises(SaveFileError, match="seats file"):
        Table.resume(load_game(SELECTION), save)
    save.write_text("{not json")
    with pytest.raises(SaveFileError, match="not valid JSON"):
        Table.resume(load_game(SELECTION), save)


def test_the_log_of_a_finished_game_hides_other_seats_secret_picks(selection_table):
    table = selection_table
    state = table.state
    while not state.is_terminal():
        for seat in state.current_players():
            table.apply(seat, state.legal_actions(seat)[-1])
    lines = [json.loads(line) for line in table.log_lines(0).splitlines()]
    assert lines[0]["event"] == "start" and lines[-1]["event"] == "end"
    actions = [line for line in lines if line["event"] == "action"]
    assert all((a["action"] is None) == (a["player"] != 1) for a in actions)
    narration = [line["text"] for line in lines if line["event"] == "log"]
    assert narration == state.narration(0)
    assert "seed" not in lines[0]


def test_play_again_starts_a_new_game_with_the_same_seats(selection_table):
    table = selection_table
    state = table.state
    while not state.is_terminal():
        for seat in state.current_players():
            table.apply(seat, state.legal_actions(seat)[0])
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as ws:
            _, over = hello(ws, token=table.tokens[1])
            assert over["view"]["over"]
            ws.send_json({"type": "log"})
            assert receive_until(ws, "log")["text"].count("\n") > 3
            ws.send_json({"type": "again"})
            waiting = latest_state(ws, lambda m: m.get("again") == [1])  # player 1 must agree too
            assert waiting["game_number"] == 1 and waiting["view"]["over"]
            finished = table.state.to_json()
            with client.websocket_connect("/ws") as other:
                hello(other, token=table.tokens[0])
                other.send_json({"type": "again"})
                latest_state(other, lambda m: m["game_number"] == 2)
            fresh = latest_state(ws, lambda m: m["game_number"] == 2)
            assert fresh["reset"] and not fresh["view"]["over"] and table.tokens[1] in table.by_token
    kept_save, kept_log = table.finished_paths(1)  # the finished game is kept beside the new one's save
    assert json.loads(kept_save.read_text()) == json.loads(json.dumps(finished))
    records = [json.loads(line) for line in kept_log.read_text().splitlines()]
    assert records[0]["narration"] == "spectator" and records[-1]["event"] == "end"


def test_the_page_is_static_with_a_strict_content_security_policy(selection_table):
    with TestClient(make_app([selection_table])) as client:
        page = client.get("/")
        assert page.status_code == 200 and "script-src 'self'" in page.headers["content-security-policy"]
        assert selection_table.tokens[0] not in page.text and "Secret Selection" not in page.text
        script = client.get("/static/app.js").text
        assert "innerHTML" not in script and "insertAdjacentHTML" not in script and "eval(" not in script
        assert client.get("/static/../table.py").status_code == 404


def test_a_websocket_from_another_site_is_refused(selection_table):
    from starlette.websockets import WebSocketDisconnect

    with TestClient(make_app([selection_table])) as client:
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
                ws.receive_json()


def test_seat_specs_name_a_bot_per_seat():
    assert parse_seat_specs(["2=random"], 3) == {1: ("random", {})}
    for bad in ("2", "4=random", "x=random", "2=", "2=random:depth"):
        with pytest.raises(ValueError, match="--seat"):
            parse_seat_specs([bad], 3)


@pytest.mark.parametrize("found", ["192.168.1.20", None])
def test_serve_on_every_interface_prints_links_with_this_computer_s_network_address(found, capsys, tmp_path,
                                                                                      monkeypatch):
    """--host 0.0.0.0 listens everywhere: the links name the computer's address on its network (127.0.0.1
    would send a friend's browser to their own computer), or, when there is none, the output says so."""
    import interpreter.web.app as web_app
    from interpreter.cli import main

    monkeypatch.setattr(web_app, "run", lambda tables, sock: sock.close())
    monkeypatch.setattr(web_app, "network_address", lambda host: found)
    assert main(["serve", str(EIGHTS), "--players", "2", "--host", "0.0.0.0", "--port", "0",
                 "--save", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    links = re.findall(r"(player 1|spectators)\s+(http://\S+)", out)
    assert len(links) == 2
    if found:
        assert all(link.startswith("http://192.168.1.20:") for _, link in links)
        assert "the links use 192.168.1.20, its address on its network" in out
    else:
        assert all(link.startswith("http://127.0.0.1:") for _, link in links)
        assert "no network address to put in the links" in out


def test_the_network_address_of_a_wildcard_host_is_never_a_loopback_or_wildcard():
    from interpreter.web.app import base_url, network_address

    assert network_address("10.0.0.5") == "10.0.0.5"
    assert network_address("0.0.0.0") not in ("0.0.0.0", "127.0.0.1")  # an address, or None when offline
    assert base_url("0.0.0.0", 80, "192.168.1.20") == "http://192.168.1.20:80"
    assert base_url("0.0.0.0", 80) == "http://127.0.0.1:80" and base_url("::", 80) == "http://[::1]:80"


def test_serve_refuses_bad_arguments_with_a_message(capsys):
    from interpreter.cli import main

    assert main(["serve", str(EIGHTS)]) == 2
    assert "--players N is needed" in capsys.readouterr().err
    assert main(["serve", str(EIGHTS), "--players", "3", "--seat", "5=random"]) == 2
    assert "no seat 5" in capsys.readouterr().err
    assert main(["serve", str(EIGHTS), "--players", "3", "--seat", "2=genius"]) == 2
    assert "there is no bot 'genius'" in capsys.readouterr().err


TOP_FROG = ROOT / "definitions" / "top_frog.yaml"


def test_a_board_per_player_count_is_drawn_as_the_table_s_own_board(tmp_path):
    """Top Frog's Pond is 3x3 at 2 players and 4x4 at 3-4: the page draws the board the game is played on,
    with the four step-only edges (the Whirlpools) as markers on the spaces they start from."""
    game = load_game(TOP_FROG)
    for players, size, markers in ((2, 3, {"r1c2", "r3c2", "r2c1", "r2c3"}), (4, 4, {"r1c3", "r4c3", "r3c1", "r3c4"})):
        table = Table(game, players, {p: ("random", {}) for p in range(1, players)}, tmp_path / f"{players}.json", seed=1)
        board = table.layout["board"]
        assert (board["shape"], board["rows"], board["columns"]) == ("grid", size, size)
        assert set(board["markers"]) == markers and board["others"] == []
        assert set(table.snapshot(0, 0)[0]["view"]["zones"]) >= {f"cell(r{size}c{size})"}


FORBIDDEN = ("frog", "pond", "leaf", "leaves", "tower", "hat", "gnat", "meeple", "whirlpool", "lily", "crayfish",
             "bust", "flower", "rainbow", "prey", "garden", "river", "fashion", "squander", "unicorn", "dandelion",
             "mermaid", "telescope", "kaeru")


def test_the_web_package_knows_no_game():
    folder = ROOT / "interpreter" / "web"
    for path in list(folder.glob("*.py")) + list((folder / "static").glob("*")):
        text = path.read_text().lower()
        for word in FORBIDDEN:
            assert not re.search(rf"\b{word}s?\b", text), f"{path.name} says {word!r}"


# ---------------------------------------------------------------- concurrency: stale actions, bots, undo
def test_an_action_chosen_in_a_state_that_is_no_longer_current_is_refused_and_changes_nothing(tmp_path):
    table = Table(load_game(EIGHTS), 2, {}, tmp_path / "game.json", seed=3)
    seat = table.state.current_players()[0]
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            _, first = hello(one, token=table.tokens[seat])  # the same seat open twice
            _, second = hello(two, token=table.tokens[seat])
            assert first["state_id"] == second["state_id"]
            draw, play = "draw a card", next(o["label"] for o in first["decision"]["options"] if o["cards"])
            one.send_json({"type": "act", "action": play, "state_id": first["state_id"], "request": 1})
            applied = latest_state(one, lambda m: m["answered"] == 1)
            assert applied["state_id"] != first["state_id"] and table.state.history == [[seat, play]]
            after = json.dumps(table.state.to_json())
            two.send_json({"type": "act", "action": draw, "state_id": second["state_id"], "request": 7})
            received = [two.receive_json()]
            while received[-1]["type"] != "error":
                received.append(two.receive_json())
            refused = received[-1]
            assert refused["request"] == 7 and "changed after this page showed it" in refused["message"]
            assert json.dumps(table.state.to_json()) == after  # the stale action did nothing
            assert any(m["type"] == "state" and m["state_id"] == table.state_id for m in received)  # the game now
            two.send_json({"type": "act", "action": draw})  # an action must say which state it was chosen in
            assert "state_id" in receive_until(two, "error")["message"]
            assert json.dumps(table.state.to_json()) == after


def test_two_people_picking_at_once_both_count_though_the_first_pick_changed_the_state_id(tmp_path):
    table = Table(load_game(SELECTION), 3, {}, tmp_path / "game.json", seed=5)
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            _, first = hello(one, token=table.tokens[0])
            _, second = hello(two, token=table.tokens[1])
            assert first["state_id"] == second["state_id"] and len(table.state.current_players()) == 3
            one.send_json({"type": "act", "action": first["decision"]["options"][0]["label"],
                           "state_id": first["state_id"], "request": 1})
            registered = latest_state(one, lambda m: m["answered"] == 1)
            assert registered["state_id"] != second["state_id"]  # the pick is a change of the game...
            two.send_json({"type": "act", "action": second["decision"]["options"][0]["label"],
                           "state_id": second["state_id"], "request": 2})  # ...but not of what seat 2 knows
            reply = two.receive_json()
            while not (reply["type"] == "error" or reply["type"] == "state" and reply["answered"] == 2):
                reply = two.receive_json()
            assert reply["type"] == "state", reply.get("message")
            assert reply["decision"]["decided"] == [0, 1]
            saved = json.dumps(table.state.to_json())
            two.send_json({"type": "act", "action": second["decision"]["options"][-1]["label"],
                           "state_id": second["state_id"], "request": 3})  # its own pick changed its options
            assert "changed after this page showed it" in receive_until(two, "error")["message"]
            assert json.dumps(table.state.to_json()) == saved


def test_a_person_s_secret_pick_registers_at_once_while_a_bot_is_still_thinking(tmp_path):
    table = Table(load_game(SELECTION), 3, {2: ("ismcts", {"time": 2.5})}, tmp_path / "game.json", seed=5)
    bot = table.bots[2]
    calls = []
    think = bot.act
    bot.act = lambda state, seat: (calls.append(seat), think(state, seat))[1]
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one:
            _, first = hello(one, token=table.tokens[0])
            thinking = first if first["thinking"] == [2] else latest_state(one, lambda m: m["thinking"] == [2])
            assert 2 not in thinking["decision"]["decided"]
            pick = thinking["decision"]["options"][0]["label"]
            import time
            sent = time.monotonic()
            one.send_json({"type": "act", "action": pick, "state_id": thinking["state_id"], "request": 1})
            acknowledged = latest_state(one, lambda m: m["answered"] == 1)
            took = time.monotonic() - sent
            assert took < 1.0, f"a person's pick took {took:.2f} s to register while a bot thought"
            assert acknowledged["decision"]["decided"] == [0] and acknowledged["thinking"] == [2]
            done = latest_state(one, lambda m: 2 in m["decision"]["decided"])
            assert done["thinking"] == [] and done["decision"]["decided"] == [0, 2]
            assert calls == [2]  # the pick made meanwhile did not change what the bot knew: no second thought


def test_undo_takes_back_a_secret_pick_through_the_server_and_is_refused_when_not_fair(tmp_path):
    table = Table(load_game(SELECTION), 3, {}, tmp_path / "game.json", seed=5)
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            _, first = hello(one, token=table.tokens[0])
            _, other = hello(two, token=table.tokens[1])
            assert first["can_undo"] is False
            before = json.dumps(table.state.to_json())
            pick = first["decision"]["options"][-1]["label"]
            one.send_json({"type": "act", "action": pick, "state_id": first["state_id"], "request": 1})
            picked = latest_state(one, lambda m: m["answered"] == 1)
            assert picked["can_undo"] is True
            assert latest_state(two, lambda m: m["state_id"] == picked["state_id"])["can_undo"] is False
            one.send_json({"type": "undo", "state_id": first["state_id"], "request": 2})  # chosen in an old state
            assert "changed after this page showed it" in receive_until(one, "error")["message"]
            one.send_json({"type": "undo", "state_id": picked["state_id"], "request": 3})
            assert pick in receive_until(one, "notice")["text"]
            back = latest_state(one, lambda m: m["answered"] == 3)
            assert json.dumps(table.state.to_json()) == before and json.loads(table.save.read_text())["history"] == []
            assert back["decision"]["decided"] == [] and not back["can_undo"]
            assert pick in [o["label"] for o in back["decision"]["options"]]
            seen = latest_state(two, lambda m: m["state_id"] == back["state_id"])
            assert "notice" not in json.dumps(seen) and pick not in json.dumps(seen)
            one.send_json({"type": "act", "action": pick, "state_id": back["state_id"], "request": 4})
            again = latest_state(one, lambda m: m["answered"] == 4)
            two.send_json({"type": "act", "action": other["decision"]["options"][0]["label"],
                           "state_id": again["state_id"], "request": 1})
            moved = latest_state(one, lambda m: 1 in m["decision"]["decided"])
            assert moved["can_undo"] is False
            one.send_json({"type": "undo", "state_id": moved["state_id"], "request": 5})
            refused = receive_until(one, "error")
            assert refused["request"] == 5 and "no one else has acted since" in refused["message"]
            assert table.state.history[-1][0] == 1


def test_a_bot_that_fails_while_thinking_stops_its_game_with_a_message_and_the_server_goes_on(tmp_path, capsys):
    table = Table(load_game(SELECTION), 3, {2: ("random", {})}, tmp_path / "game.json", seed=5)

    def broken(state, seat):
        raise ValueError("a bug")
    table.bots[2].act = broken
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one:
            _, first = hello(one, token=table.tokens[0])
            stopped = first if "problem" in first else latest_state(one, lambda m: "problem" in m)
            assert "the bot of seat 3 failed" in stopped["problem"] and stopped["thinking"] == []
            one.send_json({"type": "ping"})
            assert receive_until(one, "pong")
    assert "unexpected ValueError in the bot of seat 3" in capsys.readouterr().err


FAILING_LOOKUP = """\
game: Failing Lookup
players: {min: 2, max: 2}
properties:
  kind: ""
components:
  - {name: stone, kind: secret_kind, count: 1, zone: deck}
parameters:
  points: {plain: 1}
zones:
  deck: {visibility: hidden}
game_variables:
  x: 0
procedures:
  turn(player p): |
    ask p to choose one of ["look", "wait"] as go "go"
    game.x = points[top(deck).kind]
flow:
  - turn: turn
    until: game.turn >= 2
"""


def failing_lookup_table(tmp_path, bots):
    """A game whose first action fails in a rule whose message would name a card nobody sees ('secret_kind')."""
    path = tmp_path / "failing_lookup.yaml"
    path.write_text(FAILING_LOOKUP, encoding="utf-8")
    return Table(load_game(path), 2, bots, tmp_path / "game.json", seed=1)


def test_a_rule_failing_after_a_person_s_action_tells_them_where_not_what_it_read_of_hidden_cards(tmp_path, capsys):
    table = failing_lookup_table(tmp_path, {1: ("random", {})})
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as one:
            _, state = hello(one, token=table.tokens[0])
            one.send_json({"type": "act", "action": "go look", "state_id": state["state_id"], "request": 3})
            error = receive_until(one, "error")
    assert error["request"] == 3 and "secret_kind" not in error["message"]
    assert error["message"].startswith(f"a rule of the game failed at {tmp_path / 'failing_lookup.yaml'}:16:")
    assert "after seat 1's action" in error["message"] and table.state.history == []  # nothing changed
    assert "has no entry 'secret_kind'" in capsys.readouterr().err  # the referee (the server's output) is told


def test_a_bot_s_action_failing_in_a_rule_stops_the_table_without_telling_the_seats_what_it_read(tmp_path, capsys):
    table = failing_lookup_table(tmp_path, {0: ("random", {})})
    with TestClient(make_app([table])) as client:
        with client.websocket_connect("/ws") as two:
            _, first = hello(two, token=table.tokens[1])
            stopped = first if "problem" in first else latest_state(two, lambda m: "problem" in m)
    assert stopped["problem"].startswith("the game stopped: a rule of the game failed at ")
    assert "secret_kind" not in json.dumps(stopped) and "after seat 1's action" in stopped["problem"]
    assert "has no entry 'secret_kind'" in capsys.readouterr().err
