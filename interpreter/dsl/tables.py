"""The effect grammar's LALR tables, kept as JSON in the user's own cache folder.

Building the tables takes ~0.1 s, reading them back ~15 ms, so they are cached.
lark's own cache (``cache=True``) is a pickle in the shared temp directory: anyone
who can write there can plant a file that runs code when Ribbit loads a game.
This cache is plain JSON (decoding it runs no code), named and checked by a hash
of the grammar text, the lark version and the options, and kept in a per-user
folder (``$XDG_CACHE_HOME/ribbit`` or ``~/.cache/ribbit``, made 0700).  A cache
file is used only if it is a regular file owned by this user that no one else
may write; anything else is ignored and the tables are built afresh.  Nothing
is ever written to the temp directory, and an unwritable cache folder only
costs the build time.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

try:  # the options lark takes again when it loads saved tables (its own cache omits them too)
    from lark.lark import _LOAD_ALLOWED_OPTIONS
except ImportError:  # pragma: no cover - an older or newer lark
    _LOAD_ALLOWED_OPTIONS = {"postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags",
                             "regex", "propagate_positions", "tree_class", "_plugins"}

MAX_CACHE_BYTES = 4 * 1024 * 1024  # the tables are ~130 kB


def _own_code() -> str:
    """A hash of this module's text: the file layout below is written and read by it, so any change to it
    names other cache files (an edit that changes nothing only costs one rebuild), with nothing to bump."""
    try:
        text = Path(__file__).read_bytes()
    except OSError:  # no source beside the compiled module: its code objects say the same
        import marshal

        text = b"".join(marshal.dumps(f.__code__) for f in (read_tables, write_tables, _encode, _untag))
    return hashlib.sha256(text).hexdigest()


def cache_folder() -> Path | None:
    """Where this user's cache lives (``$XDG_CACHE_HOME/ribbit`` or ``~/.cache/ribbit``); None if there is no home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        home = os.path.expanduser("~")
        if not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "ribbit"


def table_key(grammar: str, postlex, options: dict) -> str:
    """The hash a cache file must carry to be used: grammar, lark version, options and post-lexer."""
    described = json.dumps({"format": _FORMAT, "grammar": grammar, "lark": lark.__version__, "options": options,
                            "postlex": f"{type(postlex).__module__}.{type(postlex).__qualname__}"},
                           sort_keys=True)
    return hashlib.sha256(described.encode("utf-8")).hexdigest()


def cache_file(key: str, folder: Path | None = None) -> Path | None:
    folder = folder if folder is not None else cache_folder()
    return folder / f"dsl-tables-{key[:32]}.json" if folder is not None else None


def load_parser(grammar: str, postlex, **options) -> Lark:
    """An LALR parser for ``grammar``: from this user's JSON cache when it holds the right tables, else built."""
    key = table_key(grammar, postlex, options)
    path = cache_file(key)
    tables = read_tables(path, key) if path is not None else None
    if tables is not None:
        try:
            return Lark._load_from_dict(*tables, postlex=postlex,
                                        propagate_positions=options.get("propagate_positions", False))
        except Exception:  # noqa: BLE001 - a damaged or foreign table is only a missed cache: build instead
            pass
    parser = Lark(grammar, parser="lalr", postlex=postlex, **options)
    if path is not None:
        write_tables(path, key, parser)
    return parser


# ---------------------------------------------------------------- the file
def _private_folder(folder: Path, create: bool) -> bool:
    """The folder is a real directory of this user's that no one else may write (created 0700 if asked)."""
    if create:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return False
    try:
        info = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and _owned_and_private(info)


def _owned_and_private(info: os.stat_result) -> bool:
    if not hasattr(os, "getuid"):  # no POSIX owners (Windows): the per-user folder is the protection
        return True
    return info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read_tables(path: Path, key: str):
    """``(data, memo)`` from a cache file that is safe to read and carries ``key``; None otherwise."""
    if not _private_folder(path.parent, create=False):
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())  # the file actually opened, not whatever the name points at now
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_CACHE_BYTES or not _owned_and_private(info):
            return None
        raw = file.read(MAX_CACHE_BYTES + 1)
    try:
        document = json.loads(raw, object_hook=_untag)
        if not isinstance(document, dict) or document.get("key") != key:
            return None
        return document["data"], document["memo"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return None


def write_tables(path: Path, key: str, parser: Lark) -> None:
    """Save the parser's tables atomically (write a private temp file in the cache folder, then rename it)."""
    if not _private_folder(path.parent, create=True):
        return
    try:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
        text = json.dumps({"key": key, "lark": lark.__version__, "data": _encode(data), "memo": _encode(memo)},
                          separators=(",", ":"))
    except (AttributeError, KeyError, TypeError):  # a lark whose tables are not plain data: no cache
        return
    try:
        fd, temp = tempfile.mkstemp(prefix=".dsl-tables-", suffix=".part", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temp, path)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass


_FORMAT = _own_code()  # what names and checks the file layout of a cache file


# JSON has no tuples and only text keys; lark's tables have both.  Tag them, and nothing else.
def _encode(value):
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not {"__d", "__t"} & value.keys():
            return {k: _encode(v) for k, v in value.items()}
        return {"__d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"__t": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in the grammar cache")


def _untag(mapping: dict):
    """json.loads object hook: turn the tagged mappings back into tuples and number-keyed dicts."""
    if len(mapping) == 1:
        if "__t" in mapping:
            return tuple(mapping["__t"])
        if "__d" in mapping:
            return {k: v for k, v in mapping["__d"]}
    return mapping
