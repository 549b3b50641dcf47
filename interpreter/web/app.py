"""The web server: a Starlette app serving one page and a WebSocket per browser, run by uvicorn.

The page is static (``static/``): it holds no game data.  After loading it opens ``/ws`` and sends
``{"type": "hello", "token": T}`` (a seat's link carries ``#seat=T`` in its fragment, which browsers do
not send in requests) or ``{"type": "hello", "watch": TABLE}``.  From then on the server pushes
``{"type": "state", ...}`` after every change (what that seat may know, see ``Table.snapshot``) and the
browser sends ``{"type": "act", "action": TEXT, "state_id": N, "request": R}``, ``{"type": "undo",
"state_id": N, "request": R}`` (take back its last decision), ``{"type": "again"}`` (once a game is over: a new
game when every person at the table has sent it; the finished game is kept beside the save) or
``{"type": "log"}`` (the finished game's JSON lines).  Anything else, anything malformed, too large or
too frequent gets ``{"type": "error", "message": ...}``; nothing a client sends can stop the server.

Concurrency: every state frame carries the table's ``state_id``, which changes with every change of the
game, and an action or undo must carry the id of the state it was chosen in: it is refused as stale
unless that is the current state or nothing its seat knows or may choose has changed since (so the same
seat open in two tabs cannot play twice on one state, while two people picking at once both count).  ``request`` is the page's own
number for the message: the state frames carry ``answered`` (the last request this connection had
handled) and an error carries ``request``, so a page knows when its own action has been answered.
Bots think outside the game lock, on a copy, in a worker thread: people act meanwhile, and a bot's
decision is applied only if what its seat knows and may choose is still what it was computed on.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import time
from importlib import resources
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import IllegalActionError, RibbitError, RuleError, inert, not_text_problem
from .table import MAX_CONNECTIONS

MAX_MESSAGE = 16 * 1024  # characters in one message from a browser (an action's text is far shorter)
MAX_FRAME = 64 * 1024  # bytes in one WebSocket frame; uvicorn closes the connection on a larger one
RATE = 10.0  # messages per second a connection may send on average...
BURST = 30  # ...with bursts of this many
STRIKES = 50  # messages refused for their rate before the connection is closed
HELLO_TIMEOUT = 30.0  # seconds a new connection has to say who it is
SAY_THINKING_AFTER = 0.2  # seconds a bot thinks before the pages are sent a frame saying so (quick bots: no frame)
STALE = ("the game changed after this page showed it (another action came first): nothing was done; "
         "look at the game as it is now and choose again")

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def static_dir():
    return resources.files("interpreter.web") / "static"


class Connection:
    """One browser: its seat, its narration cursor, its outbox (state updates coalesce: only the latest is sent)."""

    def __init__(self, ws: WebSocket, table, seat):
        self.ws, self.table, self.seat = ws, table, seat
        self.cursor = 0
        self.game_number = None
        self.answered = None  # the last request number of this connection that has been handled
        self.queue: asyncio.Queue = asyncio.Queue()
        self.state_queued = False
        self.tokens, self.stamp, self.strikes = float(BURST), time.monotonic(), 0

    def push_state(self):
        if not self.state_queued:
            self.state_queued = True
            self.queue.put_nowait(None)

    def send(self, message: dict):
        if self.queue.qsize() < 100:
            self.queue.put_nowait(message)

    async def sender(self):
        while True:
            message = await self.queue.get()
            if message is None:
                self.state_queued = False
                table = self.table
                if self.game_number != table.game_number:
                    self.cursor, self.game_number = 0, table.game_number
                    first = True
                else:
                    first = False
                message, self.cursor = table.snapshot(self.seat, self.cursor)
                message["reset"] = first
                message["answered"] = self.answered
            await self.ws.send_text(frame_text(message))

    def allowed(self) -> bool:
        """A token bucket: RATE messages a second on average, BURST at once."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


class Server:
    """The tables this server hosts and the people connected to them."""

    def __init__(self, tables):
        self.tables = {t.id: t for t in tables}
        self.advancing: set = set()
        self.tasks: set = set()  # the bots' turns running in the background (kept so they are not collected)

    def find(self, hello: dict):
        """(table, seat) for a hello message; seat None for a spectator; raises IllegalActionError if unknown."""
        token, watch = hello.get("token"), hello.get("watch")
        if token is not None:
            for table in self.tables.values():
                seat = table.seat_of(token)
                if seat is not None:
                    return table, seat
            raise IllegalActionError("this seat link is not valid for any game on this server (ask for a new link)")
        if type(watch) is str and watch in self.tables:
            return self.tables[watch], None
        raise IllegalActionError("say hello with a seat's token or the table to watch")

    def changed(self, table):
        for conn in list(table.connections):
            conn.push_state()

    def wake(self, table):
        """Let the bots of ``table`` take their turns in the background (the caller does not wait for them)."""
        task = asyncio.create_task(self.advance(table))
        self.tasks.add(task)
        task.add_done_callback(self.bots_done)

    def bots_done(self, task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:  # a bug: say so, and the table goes on
            exc = task.exception()
            print(inert(f"ribbit serve: unexpected {type(exc).__name__} while the bots played: {exc}"), file=sys.stderr)

    async def advance(self, table):
        """Let the bots decide while it is their turn (one at a time, ``bot_delay`` seconds apart).

        A bot thinks in a worker thread on a copy of the game, without the lock: people's actions
        (a secret pick at the same decision, say) are applied meanwhile.  Its decision is then applied
        under the lock if nothing its seat knows or may choose has changed; otherwise it thinks again.
        """
        if table.id in self.advancing:
            return
        self.advancing.add(table.id)
        try:
            while True:
                async with table.lock:
                    question = self.bot_question(table)
                if question is None:
                    return
                seat, bot, asked_at, world, knows = question
                action, failure = await self.bot_decision(table, seat, bot, world)
                async with table.lock:
                    if table.state_id != asked_at and table.bot_knows(seat) != knows:
                        continue  # the position changed for this seat while it thought: think again
                    self.apply_bot_decision(table, seat, action, failure)
                if table.bot_delay:
                    await asyncio.sleep(table.bot_delay)
                else:
                    await asyncio.sleep(0)
        finally:
            self.advancing.discard(table.id)

    def bot_question(self, table):
        """(seat, bot, state id, the copy it thinks on, what it knows) of the bot to decide next, marked as
        thinking; None when no bot is to move (the pages are told the thinking is over).  Under the lock."""
        moves = table.bot_moves()
        if not moves or table.problem:
            if table.thinking:
                table.thinking.clear()
                self.changed(table)
            return None
        seat, bot = moves[0]
        asked_at, world, knows = table.bot_question(seat)
        table.thinking = {seat}  # in every frame sent from now on
        return seat, bot, asked_at, world, knows

    async def bot_decision(self, table, seat: int, bot, world):
        """(action, None) as the bot decided in a worker thread, or (None, why the game stopped)."""
        try:
            thought = asyncio.ensure_future(asyncio.to_thread(bot.act, world, seat))
            done, _ = await asyncio.wait({thought}, timeout=SAY_THINKING_AFTER)
            if not done:  # a bot that takes its time: every page is told at once
                self.changed(table)
            return await thought, None
        except RibbitError as exc:
            return None, f"the game stopped: {told(exc, seat)}"
        except Exception as exc:  # noqa: BLE001 - a bug in a bot stops this game, not the server
            print(inert(f"ribbit serve: unexpected {type(exc).__name__} in the bot of seat {seat + 1}: {exc}"),
                  file=sys.stderr)
            return None, f"the game stopped: the bot of seat {seat + 1} failed"

    def apply_bot_decision(self, table, seat: int, action, failure) -> None:
        """The bot's decision applied (or the table stopped with why), and every page told.  Under the lock."""
        table.thinking.discard(seat)
        if failure is not None:
            table.problem = failure
        else:
            try:
                table.apply(seat, action)
            except RibbitError as exc:
                table.problem = f"the game stopped: {told(exc, seat)}"
            except OSError as exc:
                table.problem = f"the game cannot be saved: {exc.strerror or exc}"
        self.changed(table)

    def check_current(self, conn: Connection, message: dict) -> None:
        """Refuse (IllegalActionError) a message not chosen in the table's current state; the page is sent that state."""
        state_id = message.get("state_id")
        if type(state_id) is not int:
            raise IllegalActionError("an action carries the id of the state it was chosen in: "
                                     "{\"type\": \"act\", \"action\": TEXT, \"state_id\": N} (N from the last state)")
        if not conn.table.chosen_in_current(conn.seat, state_id):
            conn.push_state()
            raise IllegalActionError(STALE)

    async def handle(self, conn: Connection, message: dict):
        """Answer one message of a page, by its type."""
        kind = message.get("type")
        answer = self.ANSWERS.get(kind) if type(kind) is str else None
        if answer is None:
            raise IllegalActionError("unknown message; expected a type of act, undo, again, log or ping")
        request = message.get("request")
        await answer(self, conn, message, request if type(request) is int else None)

    def refuse_unless_current(self, conn: Connection, message: dict) -> None:
        """A stopped game takes no decision, nor one chosen in an earlier state.  Under the lock."""
        if conn.table.problem:
            raise IllegalActionError(conn.table.problem)
        self.check_current(conn, message)

    async def act(self, conn: Connection, message: dict, request) -> None:
        """``act``: the seat's decision applied, then the bots wake."""
        action = message.get("action")
        if conn.seat is None:
            raise IllegalActionError("spectators cannot act; open a seat's link to play")
        if type(action) is not str:
            raise IllegalActionError("an action is its text: {\"type\": \"act\", \"action\": TEXT}")
        table = conn.table
        async with table.lock:
            self.refuse_unless_current(conn, message)
            try:
                table.apply(conn.seat, action)
            except OSError as exc:
                table.problem = f"the game cannot be saved: {exc.strerror or exc}"
            conn.answered = request
            self.changed(table)
        self.wake(table)

    async def undo(self, conn: Connection, message: dict, request) -> None:
        """``undo``: the seat's last decision taken back (if fair); the narration is sent again from there."""
        if conn.seat is None:
            raise IllegalActionError("spectators have no decision to take back")
        table = conn.table
        async with table.lock:
            self.refuse_unless_current(conn, message)
            try:
                action = table.undo(conn.seat)
            except OSError as exc:
                table.problem = f"the game cannot be saved: {exc.strerror or exc}"
                action = None
            length = len(table.state.log or ())
            for other in table.connections:  # narration is sent again from where the game now is
                other.cursor = min(other.cursor, length)
                if other.seat == conn.seat and action is not None:
                    other.send({"type": "notice", "text": f"You took back your last decision ({action})."})
            conn.answered = request
            self.changed(table)
        self.wake(table)

    async def again(self, conn: Connection, message: dict, request) -> None:
        """``again``: the seat's vote for a new game, started once every person at the table has asked."""
        if conn.seat is None:
            raise IllegalActionError("spectators cannot start a new game")
        table = conn.table
        async with table.lock:
            if not table.state.is_terminal() and not table.problem:
                raise IllegalActionError("this game is not over yet")
            if table.vote_again(conn.seat):  # a new game once every person at the table has asked
                table.play_again()
            self.changed(table)
        self.wake(table)

    async def send_log(self, conn: Connection, message: dict, request) -> None:
        """``log``: the game's log as this seat may read it, to download."""
        table = conn.table
        text = table.log_lines(conn.seat)
        conn.send({"type": "log", "text": text, "filename": table.log_filename(conn.seat)})

    async def pong(self, conn: Connection, message: dict, request) -> None:
        conn.send({"type": "pong"})

    ANSWERS = {"act": act, "undo": undo, "again": again, "log": send_log, "ping": pong}

    async def websocket(self, ws: WebSocket):
        if not same_origin(ws):
            await ws.close(code=1008)
            return
        await ws.accept()
        conn = None
        sender = None
        try:
            greeted = await self.greet(ws)
            if greeted is None:
                return
            table, seat = greeted
            conn = Connection(ws, table, seat)
            table.connections.add(conn)
            sender = asyncio.create_task(conn.sender())
            conn.send({"type": "welcome", "seat": seat, "layout": table.layout, "players": table.players,
                       "table": table.id})
            conn.push_state()
            self.wake(table)  # a resumed game may wait for a bot
            await self.converse(ws, conn, sender)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as exc:  # noqa: BLE001 - a bug must cost this connection, not the server
            print(inert(f"ribbit serve: connection closed after an unexpected {type(exc).__name__}: {exc}"), file=sys.stderr)
        finally:
            if conn is not None:
                conn.table.connections.discard(conn)
            if sender is not None:
                sender.cancel()
            try:
                await ws.close()
            except Exception:  # noqa: BLE001 - already closed
                pass

    async def greet(self, ws: WebSocket):
        """(table, seat) the page's hello names, in time; else the page is told why and closed (None)."""
        try:
            hello = parse(await asyncio.wait_for(next_text(ws), HELLO_TIMEOUT))
            if hello.get("type") != "hello":
                raise IllegalActionError("the first message must be {\"type\": \"hello\", ...}")
            table, seat = self.find(hello)
            if len(table.connections) >= MAX_CONNECTIONS:
                raise IllegalActionError("too many browsers are connected to this game")
        except (IllegalActionError, asyncio.TimeoutError) as exc:
            await ws.send_text(json.dumps({"type": "error", "message": str(exc) or "no hello in time",
                                           "fatal": True}))
            await ws.close(code=1008)
            return None
        return table, seat

    async def converse(self, ws: WebSocket, conn: Connection, sender) -> None:
        """Answer the page's messages until it goes, its sender stops, or it sends too many too fast."""
        while True:
            text = await next_text(ws)
            if sender.done():
                break
            if not conn.allowed():
                if conn.strikes >= STRIKES:
                    break
                conn.send({"type": "error", "message": "too many messages; slow down"})
                continue
            await self.answer(conn, text)

    async def answer(self, conn: Connection, text) -> None:
        """One message answered; a mistake in it is told to the page, a bug costs this message only."""
        request = None
        try:
            message = parse(text)
            request = message.get("request") if type(message.get("request")) is int else None
            await self.handle(conn, message)
        except RibbitError as exc:
            conn.send({"type": "error", "message": told(exc, conn.seat), "request": request})
        except Exception as exc:  # noqa: BLE001 - a bug must cost this message, not the server
            print(inert(f"ribbit serve: unexpected {type(exc).__name__} handling a message: {exc}"), file=sys.stderr)
            conn.send({"type": "error", "message": "the server could not handle that message",
                       "request": request})


def told(exc: RibbitError, seat) -> str:
    """What a page is told of an error.  A rule's failure (RuleError) may quote what the rule read, from cards some
    seat cannot see ("the table 'points' has no entry 'X'"), so pages are told where it failed and after whose
    action, and the server's output (the referee's) the whole message.  Any other error is about the message
    the page sent, and is told whole."""
    if not isinstance(exc, RuleError):
        return str(exc)
    print(inert(f"ribbit serve: a rule failed: {exc}"), file=sys.stderr)
    where = f" at {exc.location}" if exc.location else ""
    after = f" after seat {seat + 1}'s action" if isinstance(seat, int) else ""
    return (f"a rule of the game failed{where}{after}; what it read may be cards some seats cannot see, so the "
            "whole message is in the server's output")


def frame_text(message) -> str:
    """A message as JSON text that can always be sent: non-ASCII kept, unless some text in it is not Unicode text
    (a lone surrogate, from a message's echo of what a page sent): then every character is written as an escape."""
    text = json.dumps(message, ensure_ascii=False)
    return json.dumps(message) if not_text_problem(text) else text


async def next_text(ws: WebSocket):
    """The next message's text (None for a binary one); WebSocketDisconnect when the browser has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message.get("text")


def parse(text) -> dict:
    """A client's message as a dict, or IllegalActionError saying what is wrong with it."""
    if type(text) is not str or len(text) > MAX_MESSAGE:
        raise IllegalActionError(f"a message is a JSON object of at most {MAX_MESSAGE} characters")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise IllegalActionError("a message must be a JSON object, e.g. {\"type\": \"act\", \"action\": \"...\"}") \
            from None
    if type(message) is not dict:
        raise IllegalActionError("a message must be a JSON object, e.g. {\"type\": \"act\", \"action\": \"...\"}")
    return message


def same_origin(ws) -> bool:
    """Refuse WebSockets opened (and lobby requests sent) by pages of other sites (a browser always sends Origin;
    other clients may omit it)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def make_app(tables, lobby=None) -> Starlette:
    """The app serving ``tables``; with a :class:`~.lobby.Lobby`, also its page (``/lobby``) and requests."""
    server = Server(tables)
    static = static_dir()

    async def index(request):
        return FileResponse(static / "index.html", headers=SECURITY_HEADERS)

    async def not_found(request, exc):
        return PlainTextResponse("not found", status_code=404, headers=SECURITY_HEADERS)

    async def with_headers(request, call_next):
        response: Response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            response.headers.setdefault(key, value)
        return response

    from starlette.middleware import Middleware
    from starlette.middleware.base import BaseHTTPMiddleware

    async def no_icon(request):
        return Response(status_code=204, headers=SECURITY_HEADERS)

    extra = []
    if lobby is not None:
        from .lobby import routes as lobby_routes
        extra = lobby_routes(lobby, server, static, SECURITY_HEADERS, same_origin)
    app = Starlette(routes=[Route("/", index), Route("/favicon.ico", no_icon), WebSocketRoute("/ws", server.websocket),
                            *extra, Mount("/static", StaticFiles(directory=str(static)), name="static")],
                    exception_handlers={404: not_found},
                    middleware=[Middleware(BaseHTTPMiddleware, dispatch=with_headers)])
    app.state.server = server
    return app


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port); OSError if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


WILDCARDS = ("0.0.0.0", "", "::")


def network_address(host: str) -> str | None:
    """For a wildcard ``host`` (every interface), this computer's address on its network: the address of the
    interface a packet to the internet would leave by (a UDP ``connect`` sends nothing).  None if there is no
    such interface; for any other host, the host itself."""
    if host not in WILDCARDS:
        return host
    family, probe = (socket.AF_INET6, "2001:db8::1") if host == "::" else (socket.AF_INET, "192.0.2.1")
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe_socket:
            probe_socket.connect((probe, 9))
            address = probe_socket.getsockname()[0]
    except OSError:
        return None
    return None if address in ("0.0.0.0", "::") or address.startswith("127.") or address == "::1" else address


def base_url(host: str, port: int, address: str | None = None) -> str:
    """The start of the links: ``address`` if given, else ``host`` (a wildcard host: this computer, 127.0.0.1 / ::1)."""
    shown = address or ("::1" if host == "::" else "127.0.0.1" if host in WILDCARDS else host)
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def run(tables, sock: socket.socket, lobby=None) -> None:
    """Serve ``tables`` (and ``lobby``, if given) on ``sock`` until interrupted."""
    import uvicorn

    config = uvicorn.Config(make_app(tables, lobby), log_level="warning", access_log=False, ws_max_size=MAX_FRAME,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, lifespan="off", timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[sock])
