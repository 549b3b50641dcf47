"""Read YAML safely and remember where every value came from.

The loader turns a YAML file into plain Python data *and* a map from each
value's key path to its line and column, so that a schema error, a bad
reference or a DSL error deep inside an effect can point at the exact spot in
the file.  It is also the first line of defence against hostile files: safe
constructors only, no tags that build objects, and limits on size, nesting
and alias expansion checked on the event stream before anything is built.
"""

from __future__ import annotations

import copy
import itertools
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from ..errors import DefinitionError, Location, RibbitError, caret_excerpt, shorten, shown_line

MAX_FILE_BYTES = 2_000_000  # ~2 MB for a definition or variant: generous (the shipped games are ~10 kB)
MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_DIGITS = 18  # a whole number in a definition has at most this many digits (|n| < 10**18)

try:  # libyaml is much faster, and composes the same nodes with the same marks
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python fallback
    _Loader = yaml.SafeLoader

Path_ = tuple  # a key path: ("procedures", "turn(player p)")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
_CORE = "tag:yaml.org,2002:"
# Tags a plain-data document can carry (timestamps: a date-like plain value resolves to one).
_PLAIN_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "merge", "timestamp")}


@dataclass
class Source:
    """A parsed YAML document plus the position of every value (and key) in it."""

    file: str
    text: str
    data: object
    marks: dict[Path_, tuple[int, int, str | None]] = field(default_factory=dict)
    key_marks: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    _line_cache: list | None = field(default=None, repr=False, compare=False)
    _shown_cache: dict = field(default_factory=dict, repr=False, compare=False)  # line number -> shown_line
    # (path, line, column) -> Location: the compiler locates the same node again where it inlines or
    # splices it, and a folded scalar's position is found by a scan of its text (the data never changes)
    _location_cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _raw_cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # the same, no excerpts
    _scalar_cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # see _scalar_chars
    _indent_cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)  # see _block_indent
    # Positions found for this text by the Sources read from it before (see read_yaml_text): keyed by
    # (path, line, column) and the scalar text at path (the one part of the data a position reads)
    _shared_positions: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    # -- locating -----------------------------------------------------------
    def location(self, path: Path_ = (), line: int | None = None, column: int | None = None) -> Location:
        """The location of the value at ``path``; ``line``/``column`` are inside it (1-based).

        The returned location carries its caret excerpt, for errors raised later at run time.
        """
        path = tuple(path)
        key = (path, line, column)
        loc = self._location_cache.get(key)
        if loc is None:
            raw = self._raw_location(key)
            if all(type(part) is str or type(part) is int for part in path):  # True == 1: such keys uncached
                shared = ("excerpt", raw)  # (the excerpt is the text's line at the raw place: shared too)
                loc = self._shared_positions.get(shared)
                if loc is None:
                    loc = self._shared_positions[shared] = Location(raw.file, raw.line, raw.column, raw.key,
                                                                    self.excerpt(raw))
                self._location_cache[key] = loc
            else:
                loc = Location(raw.file, raw.line, raw.column, raw.key, self.excerpt(raw))
        return loc

    def position(self, path: Path_ = (), line: int | None = None, column: int | None = None) -> Location:
        """:meth:`location` without its caret excerpt (cheaper: the compiler places every part of the
        generated code, and only the places a run-time error may name need the excerpt)."""
        key = (tuple(path), line, column)
        return self._location_cache.get(key) or self._raw_location(key)

    def _raw_location(self, key) -> Location:
        loc = self._raw_cache.get(key)
        if loc is None:
            if all(type(part) is str or type(part) is int for part in key[0]):  # True == 1: such keys uncached
                value = self._value_at(key[0]) if key[1] is not None else None
                shared = (key, value if type(value) is str else None)
                loc = self._shared_positions.get(shared)
                if loc is None:
                    loc = self._shared_positions[shared] = self._location(*key)
                self._raw_cache[key] = loc
            else:
                loc = self._location(*key)
        return loc

    def _location(self, path: Path_, line: int | None, column: int | None) -> Location:
        key = format_path(path)
        mark = self._nearest_mark(path)
        if mark is None:
            return Location(self.file, None, None, key)
        mline, mcol, style = mark  # 0-based, as yaml reports them
        if line is None:
            if style in ("|", ">") and tuple(path) in self.key_marks:  # the key says more than a bare '|'
                kline, kcol = self.key_marks[tuple(path)]
                return Location(self.file, kline + 1, kcol + 1, key)
            return Location(self.file, mline + 1, mcol + 1, key)
        if style == "|":  # literal: the text is the file's lines minus their indentation
            first = mline + 1  # block scalars start on the line after the indicator
            indent = self._block_indent(first)
            return Location(self.file, first + line, indent + (column or 1), key)
        text = self._value_at(path)
        if isinstance(text, str):
            found = self._folded_position(text, mline, mcol, style, line, column or 1)
            if found is not None:
                return Location(self.file, found[0] + 1, found[1] + 1, key)
        shift = 1 if style in ('"', "'") else 0
        if line == 1:
            return Location(self.file, mline + 1, mcol + shift + (column or 1), key)
        return Location(self.file, mline + line, column, key)

    def key_location(self, path: Path_) -> Location:
        """The location of the *key* that ends ``path`` (for unknown or misspelt keys)."""
        mark = self.key_marks.get(tuple(path))
        if mark is None:
            return self.location(path)
        loc = Location(self.file, mark[0] + 1, mark[1] + 1, format_path(path))
        return replace(loc, excerpt=self.excerpt(loc))

    def excerpt(self, location: Location) -> str | None:
        """The source line of ``location`` with a caret under its column."""
        if location.line is None:
            return None
        lines = self._lines()
        if not 1 <= location.line <= len(lines):
            return None
        shown = self._shown_cache.get(location.line)
        if shown is None:
            shown = self._shown_cache[location.line] = shown_line(lines[location.line - 1])
        return caret_excerpt(shown, location.column or 1, shown=True)

    def error(self, message: str, path: Path_ = (), line: int | None = None, column: int | None = None,
              cls: type[DefinitionError] = DefinitionError) -> DefinitionError:
        loc = self.location(path, line, column)
        return cls(message, loc, self.excerpt(loc))

    def error_at(self, message: str, location: Location, cls: type[DefinitionError] = DefinitionError):
        return cls(message, location, self.excerpt(location))

    def _lines(self) -> list[str]:
        if self._line_cache is None:
            self._line_cache = split_lines(self.text)
        return self._line_cache

    def _nearest_mark(self, path: Path_):
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path)

    def _value_at(self, path: Path_):
        value = self.data
        for part in path:
            try:
                value = value[part]
            except (KeyError, IndexError, TypeError):
                return None
        return value

    def _block_indent(self, first_line0: int) -> int:
        indent = self._indent_cache.get(first_line0)
        if indent is None:
            indent = self._indent_cache[first_line0] = self._first_indent(first_line0)
        return indent

    def _first_indent(self, first_line0: int) -> int:
        lines = self._lines()
        for raw in itertools.islice(lines, first_line0, None):
            if raw.strip():
                return len(raw) - len(raw.lstrip(" "))
        return 0

    def _folded_position(self, value: str, mline: int, mcol: int, style, line: int, column: int):
        """Map (line, column) in a scalar's *value* to 0-based (line, column) in the file.

        Folded (``>``), plain and quoted scalars may join or rewrap lines, so the
        value's layout differs from the file's; their non-blank characters, though,
        come in the same order.  Count them, and find the same one in the file.
        """
        lines = value.split("\n")
        if not 1 <= line <= len(lines):
            return None
        offset = sum(len(x) + 1 for x in lines[:line - 1]) + min(column - 1, len(lines[line - 1]))
        before = len("".join(value[:offset].split()))  # its non-blank characters (split() drops what isspace())
        on_blank = offset >= len(value) or value[offset].isspace()
        if on_blank and not value[offset:].strip():  # at the end: just after the last character
            target, after = before, True
        else:
            target, after = before + 1, False
        # (an empty value: every character up to the closing quote or the file's end is looked at)
        chars, closed = self._scalar_chars(mline, mcol, style, target if target > 0 else len(self.text) + 1)
        if 0 < target <= len(chars):
            row, col, width = chars[target - 1]
            return (row, col + width) if after else (row, col)
        if closed and after and chars:  # the closing quote came first: just after the last character
            row, col, width = chars[-1]
            return row, col + width
        return None

    def _scalar_chars(self, mline: int, mcol: int, style, target: int):
        """([(row, column, width) of each non-blank character of the scalar written at mline:mcol], closed).

        The file is read from the scalar's start only as far as ``target`` characters (or its
        closing quote, ``closed``); what was read is kept for the next question about the scalar.
        """
        state = self._scalar_cache.get((mline, mcol, style))
        if state is None:
            if style == ">":
                row, col = mline + 1, 0
            else:
                row, col = mline, mcol + (1 if style in ('"', "'") else 0)
            state = self._scalar_cache[(mline, mcol, style)] = [[], row, col, False]
        chars, row, col, closed = state
        text_lines = self._lines()
        while len(chars) < target and not closed and row < len(text_lines):
            col, closed, line_done = _scan_scalar_line(text_lines[row], row, col, style, chars, target)
            if line_done:
                row, col = row + 1, 0
        state[1:] = [row, col, closed]
        return chars, closed


def _scan_scalar_line(raw: str, row: int, col: int, style, chars: list, target: int):
    """Read one line of a scalar from ``col``: each non-blank character's (row, column, width) onto ``chars``,
    until ``target`` are read or the closing quote.  (column to go on from, closed, the line is all read)."""
    while col < len(raw):
        ch = raw[col]
        width = _char_width(raw, col, style)
        if width == 0:
            return col, True, False
        if not ch.isspace() and not (style == '"' and ch == "\\" and col + 1 >= len(raw)):
            chars.append((row, col, width))
            if len(chars) >= target:
                return col + width, False, False
        col += width
    return col, False, True


def _char_width(raw: str, col: int, style) -> int:
    """Columns the scalar's character at ``col`` takes: 2 for an escape (a backslash in double quotes, a
    doubled quote in single quotes), 0 for the closing quote, else 1."""
    ch = raw[col]
    if style == '"' and ch == "\\":
        return 2
    if style == "'" and raw.startswith("''", col):
        return 2
    if style in ('"', "'") and ch == style:
        return 0
    return 1


def split_lines(text: str) -> list[str]:
    """The text's lines as YAML numbers them (it breaks lines at \\n, \\r\\n and \\r only)."""
    return _LINE_BREAK.split(text)


def format_path(path: Path_) -> str:
    """``("flow", 0, "turn")`` -> ``flow[0].turn``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def read_user_file(path: str | Path, limit: int = MAX_FILE_BYTES, what: str = "definitions",
                   cls: type[RibbitError] = DefinitionError, expected: str = "a YAML file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a located ``cls`` error for anything else.

    ``expected`` names what the file should have been, for the messages ("a save (JSON)").

    A path may name a device (``/dev/zero`` never ends), a named pipe (reading it waits
    for a writer forever), a directory or a huge file.  The file is opened without
    blocking and the *opened* descriptor is checked before a byte is read, so the name
    cannot be swapped for something else between the check and the read.  ``expected``
    says what the file should have been ("a game log"), in the message for anything else.
    """
    file = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if isinstance(exc, IsADirectoryError):  # Windows cannot open a folder at all
            raise cls(f"is a directory; expected {expected}", Location(file)) from None
        raise cls(f"cannot read the file: {exc.strerror or exc}", Location(file)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise cls(f"is a directory; expected {expected}", Location(file))
        if not stat.S_ISREG(info.st_mode):
            raise cls(f"is not a regular file (it is {_file_kind(info.st_mode)}); expected {expected}",
                      Location(file))
        if info.st_size > limit:
            raise cls(f"file is {info.st_size} bytes; {what} are limited to {limit} bytes", Location(file))
        chunks, size = [], 0
        while size <= limit:  # the size fstat gave may grow while we read: never take more than the limit
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise cls(f"file is more than {limit} bytes; {what} are limited to {limit} bytes", Location(file))
        return b"".join(chunks)
    except OSError as exc:
        raise cls(f"cannot read the file: {exc.strerror or exc}", Location(file)) from None
    finally:
        os.close(fd)


def _file_kind(mode: int) -> str:
    """What a file that is not a regular file or a folder is, in a message."""
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "some other kind of file"


def read_yaml_file(path: str | Path, expect: tuple[str, ...] = (), kind: str = "definition") -> Source:
    """Read and parse a YAML file, with located errors for anything wrong.

    With ``expect`` (top-level keys, e.g. ``("variant",)``), the file must be a mapping
    with one of them, and no error quotes the file's text unless the file declared one
    of them before the point of the error: a path may name any file (a key, a password
    file), and an error message must not become a way to print it.
    """
    file = str(path)
    raw = read_user_file(path)
    keys = " or ".join(repr(key) for key in expect)
    unquoted = f"(text is quoted only from a file that declares itself a {kind} with a top-level {keys} key)"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        error = _not_utf8(raw, exc, file)
        if expect and not _declares(raw[:exc.start].decode("utf-8"), expect):
            raise DefinitionError(f"not a {kind}: not UTF-8 text here, and no {keys} key before it {unquoted}",
                                  replace(error.location, excerpt=None)) from None
        raise error from None
    try:
        source = read_yaml_text(text, file)
    except DefinitionError as exc:
        if expect and not _declares(text, expect, exc.location):
            loc = exc.location or Location(file)
            raise DefinitionError(f"not a {kind}: the file cannot be read as YAML here, and has no {keys} key "
                                  f"before it {unquoted}", Location(loc.file, loc.line, loc.column)) from None
        raise
    if expect and isinstance(source.data, dict) and not any(key in source.data for key in expect):
        raise DefinitionError(f"not a {kind}: a YAML mapping with no {keys} key {unquoted}", Location(file, 1, 1))
    return source


def _declares(text: str, keys: tuple[str, ...], error: Location | None = None) -> bool:
    """Whether the document is a mapping with one of ``keys`` among the keys read before the ``error``'s
    place and before any YAML error (a tag or a bad number is refused after the whole text is parsed:
    the keys after it declare nothing about the line it is on)."""
    stack: list[list] = []  # open collections: [is a mapping, entries so far]
    unreadable = _NOT_PRINTABLE.search(text)  # YAML refuses the whole text for one: read up to it
    at = (error.line - 1, (error.column or 1) - 1) if error is not None and error.line is not None else None
    try:
        for event in yaml.parse(text[:unreadable.start()] if unreadable else text, Loader=_Loader):
            if at is not None and (event.start_mark.line, event.start_mark.column) >= at:
                return False
            found = _top_key(event, stack, keys)
            if found is not None:
                return found
    except yaml.YAMLError:
        pass
    return False


def _top_key(event, stack: list, keys: tuple) -> bool | None:
    """One parse event followed through the open collections ``stack``: True when it is one of ``keys`` as a key
    of the document's mapping, False when reading on is pointless (the document ended, or it nests too deep),
    else None."""
    if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)):
        if len(stack) == 1 and stack[0][0]:
            if stack[0][1] % 2 == 0 and isinstance(event, yaml.ScalarEvent) and event.value in keys:
                return True
            stack[0][1] += 1
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append([isinstance(event, yaml.MappingStartEvent), 0])
            if len(stack) > MAX_DEPTH + 1:  # refused anyway; reading on costs time (PyYAML slows with depth)
                return False
    elif isinstance(event, yaml.CollectionEndEvent):
        stack.pop()
        if not stack:
            return False
    return None


def _not_utf8(raw: bytes, exc: UnicodeDecodeError, file: str) -> DefinitionError:
    line = raw.count(b"\n", 0, exc.start) + 1
    start_of_line = raw.rfind(b"\n", 0, exc.start) + 1
    shown = raw[start_of_line:].split(b"\n", 1)[0]
    column = len(raw[start_of_line:exc.start].decode("utf-8", "replace")) + 1
    loc = Location(file, line, column)
    return DefinitionError(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded; save the file as UTF-8",
                           loc, caret_excerpt(shown.decode("utf-8", "replace"), column))


# (file, text) -> (data, marks, key marks) of texts read before in this process, kept apart from every
# Source handed out (each gets its own copy of the data): reading the same file again parses nothing
_READ: dict = {}
MAX_READ = 32


def read_yaml_text(text: str, file: str = "<string>") -> Source:
    """Parse YAML text into a :class:`Source` (plain data + marks).

    The Sources read from one text share the positions found in it (a position depends on the text,
    its marks and the scalar at its path, which is part of the key): a game loaded again locates its
    rules' parts without working any of them out again.
    """
    kept = _READ.get((file, text))
    if kept is not None:
        data, marks, key_marks, positions = kept
        source = Source(file, text, copy.deepcopy(data), dict(marks), dict(key_marks))
        source._shared_positions = positions
        return source
    source = _read_yaml_text(text, file)
    if len(_READ) >= MAX_READ:
        _READ.clear()
    _READ[(file, text)] = (copy.deepcopy(source.data), dict(source.marks), dict(source.key_marks),
                           source._shared_positions)
    return source


def _read_yaml_text(text: str, file: str) -> Source:
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise DefinitionError(f"text is longer than {MAX_FILE_BYTES} bytes", Location(file))
    lines = split_lines(text)

    def excerpt(line0: int, col0: int):
        return caret_excerpt(lines[line0], col0 + 1) if 0 <= line0 < len(lines) else None
    try:
        _check_events(text, file, excerpt)
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if "maximum nesting depth" in str(exc.problem or ""):  # newer libyaml stops deep nesting itself
            loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
            raise DefinitionError(f"nesting deeper than {MAX_DEPTH} levels", loc,
                                  excerpt(mark.line, mark.column) if mark else None) from None
        message, mark = _runaway_quote(text, exc) or _explain_yaml_error(exc, text)
        loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        raise DefinitionError(f"YAML syntax error: {message}", loc,
                              excerpt(mark.line, mark.column) if mark else None) from None
    except yaml.reader.ReaderError as exc:
        line0 = text.count("\n", 0, exc.position)
        col0 = exc.position - (text.rfind("\n", 0, exc.position) + 1)
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise DefinitionError(f"the control character {char!r} is not allowed in YAML; remove it",
                              Location(file, line0 + 1, col0 + 1), excerpt(line0, col0)) from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"YAML error: {str(exc).splitlines()[0]}", Location(file)) from None
    source = Source(file, text, None)
    if node is None:
        source.data = None
        return source
    budget = [MAX_NODES]
    source.data = _construct(node, (), source, 0, budget)
    return source


def _check_events(text: str, file: str, excerpt) -> None:
    """Refuse deep nesting and alias bombs on the event stream, before any node is built.

    Composing a 100 000-deep list would overflow the C stack, and nine aliases of
    nine aliases of ... expand to billions of values; both are caught here in one
    linear pass, counting every value as if aliases were written out.
    """
    sizes: dict[str, int] = {}  # anchor -> number of values it stands for
    stack: list[list] = []  # open collections: [anchor, values so far]
    total = 0

    def fail(message, event):
        mark = event.start_mark
        raise DefinitionError(message, Location(file, mark.line + 1, mark.column + 1),
                              excerpt(mark.line, mark.column))
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, count = stack.pop()
            if anchor is not None:
                sizes[anchor] = count
            if stack:
                stack[-1][1] += count
            continue
        count = _values_of(event, stack, sizes, fail)
        if count is None:
            continue
        total += count
        if total > MAX_NODES:
            fail(f"the document expands to more than {MAX_NODES} values (aliases repeating aliases?); "
                 "write the values out instead of nesting aliases", event)
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append([event.anchor, 1])
            if len(stack) > MAX_DEPTH + 1:  # the document's own mapping is level 0
                fail(f"nesting deeper than {MAX_DEPTH} levels", event)
        else:
            if isinstance(event, yaml.ScalarEvent) and event.anchor is not None:
                sizes[event.anchor] = 1
            if stack:
                stack[-1][1] += count


def _values_of(event, stack: list, sizes: dict, fail):
    """How many values an event stands for (an alias: as many as its anchor's value); None for an event that
    is no value.  An alias of no anchor before it, or inside the value it names, fails."""
    if isinstance(event, yaml.AliasEvent):
        if any(anchor == event.anchor for anchor, _ in stack):
            fail(f"the alias *{event.anchor} is used inside the value it names; that value would never end",
                 event)
        if event.anchor not in sizes:
            fail(f"the alias *{event.anchor} refers to no anchor &{event.anchor} defined before it", event)
        return sizes[event.anchor]
    if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
        return 1
    return None


def _runaway_quote(text: str, exc: yaml.MarkedYAMLError):
    """A quote left open swallows the lines after it, and YAML fails where the next quote closes it.

    When the error sits on the line where a multi-line quoted text ends, the missing
    quote is the likely cause: say so, and point at where that text began.
    """
    mark = exc.problem_mark
    if mark is None:
        return None
    last = None
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if token.start_mark.line > mark.line:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ('"', "'"):
                last = token
    except yaml.YAMLError:
        pass
    if last is None or last.start_mark.line == last.end_mark.line or last.end_mark.line != mark.line:
        return None
    start = last.start_mark
    return (f"the quoted text that starts here runs on to line {last.end_mark.line + 1}; is its closing "
            f"{last.style} missing?"), start


def _explain_yaml_error(exc: yaml.MarkedYAMLError, text: str):
    """A plain-words reason for a YAML syntax error, and the mark it should point at."""
    problem = exc.problem or exc.context or "invalid YAML"
    context = exc.context or ""
    mark, cmark = exc.problem_mark or exc.context_mark, exc.context_mark
    at = f"line {cmark.line + 1}, column {cmark.column + 1}" if cmark else ""
    char = _char_at(text, mark)
    if char == "\t" and ("cannot start any token" in problem or "tab" in problem):
        return "a tab character; YAML indentation must use spaces, never tabs", mark
    if ("while scanning an alias" in context or "while scanning an anchor" in context) and cmark is not None:
        return (f"a value that starts with {_char_at(text, cmark)!r} is a YAML alias or anchor; "
                "put text that starts with it in quotes"), cmark
    if char in ("@", "`") and "cannot start any token" in problem:
        return f"a value cannot start with {char!r} in YAML; put the text in quotes", mark
    if "block sequence entries are not allowed" in problem:
        return ("a '- ' here would start a list item, which cannot go here; check the indentation, "
                "or put text that starts with '-' in quotes"), mark
    if "could not find expected ':'" in problem and cmark is not None:
        return "this line is not 'key: value'; is its ':' missing?", cmark
    if "escape" in problem or "hexdecimal" in problem or "hexadecimal" in problem:
        return _bad_escape(text, mark)
    if "quoted scalar" in context and cmark is not None:
        return f"this quoted text is never closed: add the matching {_char_at(text, cmark)} at its end", cmark
    if "block mapping" in context and "expected key" in problem:
        return (f"this line is not indented like the keys of the mapping that starts at {at}; "
                "check the indentation (or quote a value that contains ': ')"), mark
    if "mapping values are not allowed" in problem:
        return ("a ':' that YAML cannot read here: the line may be indented too far, or a value that contains "
                "': ' needs quotes"), mark
    if "flow mapping" in context or "flow sequence" in context:
        closer = "}" if "mapping" in context else "]"
        where = mark if mark is not None and _line_at(text, mark).strip() else cmark  # a blank line says nothing
        return f"did not find expected ',' or '{closer}' to close the '{'{' if closer == '}' else '['}' at {at}", where
    if "single document" in context:
        return "a definition is one YAML document, but a second one starts here ('---')", mark
    if "undefined alias" in problem:
        return "this alias refers to no anchor defined before it", mark
    return (f"{problem} ({context} at {at})" if context and cmark else problem), mark


def _bad_escape(text: str, mark):
    """A backslash in double quotes that starts no escape YAML knows (``"C:\\Users"``, ``"\\q"``, ``"\\ud800"``):
    what was written and what would be read, pointing at the backslash."""
    line = _line_at(text, mark)
    start = line.rfind("\\", 0, mark.column + 1) if mark is not None else -1
    if start < 0:
        start = mark.column if mark is not None else 0
    at = yaml.error.Mark(mark.name, mark.index - (mark.column - start), mark.line, start, None, None) \
        if mark is not None else None
    size = {"x": 4, "u": 6, "U": 10}.get(line[start + 1:start + 2], 2)
    written = line[start:start + size].split('"')[0]
    return (f"'{written}' is not an escape that YAML reads in double quotes (escapes are such as \\\\, \\\", \\n, \\t, "
            "\\xHH, \\uHHHH or \\UHHHHHHHH, naming a Unicode character other than a surrogate); write a backslash as \\\\, "
            "or put the text in single quotes, where a backslash is itself"), at


def _line_at(text: str, mark) -> str:
    lines = split_lines(text)
    return lines[mark.line] if mark is not None and 0 <= mark.line < len(lines) else ""


def _char_at(text: str, mark) -> str:
    line = _line_at(text, mark)
    return line[mark.column] if mark is not None and 0 <= mark.column < len(line) else ""


def _construct(node, path, source: Source, depth: int, budget: list[int]):
    """Turn a composed YAML node into plain data, recording marks and enforcing limits."""
    budget[0] -= 1
    if budget[0] < 0:
        raise source.error(f"the document expands to more than {MAX_NODES} values "
                           "(too many aliases or too large); simplify it", path)
    if depth > MAX_DEPTH:
        raise source.error(f"nesting deeper than {MAX_DEPTH} levels", path)
    style = getattr(node, "style", None)
    source.marks[path] = (node.start_mark.line, node.start_mark.column, style)
    if node.tag not in _PLAIN_TAGS:
        tag = "!!" + node.tag[len(_CORE):] if node.tag.startswith(_CORE) else node.tag
        raise source.error(f"the YAML tag {tag!r} is not allowed: a definition is plain data (text, numbers, "
                           "true/false, lists and mappings), and tags that build objects are refused", path)
    if isinstance(node, yaml.ScalarNode):
        return _construct_scalar(node, path, source)
    if isinstance(node, yaml.SequenceNode):
        return [_construct(child, path + (i,), source, depth + 1, budget) for i, child in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        return _construct_mapping(node, path, source, depth, budget)
    raise source.error("unsupported YAML node", path)  # pragma: no cover


def _construct_scalar(node, path, source: Source):
    """A scalar's value; a number too long or not finite, or a value YAML cannot build, is a located error."""
    problem = _number_problem(node)
    if problem is not None:
        raise source.error(problem, path)
    try:
        return _scalar(node)
    except yaml.YAMLError as exc:
        raise source.error(f"bad scalar value: {getattr(exc, 'problem', None) or exc}", path) from None


def _construct_mapping(node, path, source: Source, depth: int, budget: list[int]) -> dict:
    """A mapping of plain-text keys, each once, no merge keys; the marks of its keys are recorded."""
    result = {}
    table = all(k.tag == _CORE + "int" for k, _ in node.value)  # keyed by numbers, e.g. {2: 4, 3: 3}
    for key_node, value_node in node.value:
        mark = key_node.start_mark
        if not isinstance(key_node, yaml.ScalarNode):
            loc = Location(source.file, mark.line + 1, mark.column + 1, format_path(path))
            raise source.error_at("mapping keys must be plain text, not a list or a mapping", loc)
        if key_node.tag == "tag:yaml.org,2002:merge":
            raise source.error("YAML merge keys (<<) are not supported; write the keys out", path)
        problem = _number_problem(key_node) if table else None
        if problem is not None:
            raise source.error_at(problem, Location(source.file, mark.line + 1, mark.column + 1,
                                                    format_path(path)))
        key = _key(key_node, table)
        if key in result:
            loc = Location(source.file, mark.line + 1, mark.column + 1, format_path(path + (key,)))
            raise source.error_at(f"duplicate key {key!r}", loc)
        source.key_marks[path + (key,)] = (mark.line, mark.column)
        result[key] = _construct(value_node, path + (key,), source, depth + 1, budget)
    return result


def _key(node, table: bool):
    """A mapping key: its text as written, except in a table whose keys are all whole numbers.

    So ``on:`` or ``yes:`` stay the words they are instead of becoming true, and a
    stray ``3:`` among named keys is the name '3', not a number the builder trips on.
    """
    if table and node.tag == _CORE + "int":
        try:
            return _scalar(node)
        except yaml.YAMLError:
            return node.value
    return node.value


def _number_problem(node) -> str | None:
    """Why a number scalar cannot be read (too many digits, infinite, not a number); None if it can.

    Checked on the text, before Python builds the value: a 100 000-digit integer would
    cost quadratic time (or trip Python's own digit limit) and mean nothing in a game.
    """
    if node.tag == _CORE + "float":
        if node.value.lstrip("+-").lower() in (".inf", ".nan") or len(node.value) > 4 * MAX_DIGITS:
            return f"the number {shorten(node.value)} is not a finite whole number"
        if _float_is_infinite(node):
            return f"the number {shorten(node.value)} is too large (at most {MAX_DIGITS} digits)"
        return None
    if node.tag != _CORE + "int":
        return None
    digits = node.value.lstrip("+-").replace("_", "")
    if len(digits) <= MAX_DIGITS:
        return None
    if len(digits) <= 4 * MAX_DIGITS:  # written with leading zeros, in hex or base 60: read it to know
        try:
            if abs(_scalar(node)) < 10 ** MAX_DIGITS:
                return None
        except (ValueError, yaml.YAMLError):
            pass
    return f"the number {shorten(node.value)} is too large: whole numbers in a definition have at most {MAX_DIGITS} digits"


def _float_is_infinite(node) -> bool:
    try:
        value = _scalar(node)
    except (ValueError, yaml.YAMLError):
        return True
    return value in (float("inf"), float("-inf")) or value != value


_scalar_loader = yaml.SafeLoader("")


def _scalar(node):
    """Construct a scalar the way yaml.safe_load would (ints, floats, bools, null, str)."""
    try:
        return _scalar_loader.construct_object(node, deep=True)
    finally:
        _scalar_loader.constructed_objects.clear()
