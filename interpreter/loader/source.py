"""Read YAML safely and remember where every value came from.

The loader turns a YAML file into plain Python data *and* a map from each
value's key path to its line and column, so that a schema error, a bad
reference or a DSL error deep inside an effect can point at the exact spot in
the file.  It is also the first line of defence against hostile files: safe
constructors only, and limits on size, nesting and alias expansion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import DefinitionError, Location, caret_excerpt

MAX_FILE_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000

try:  # libyaml is much faster, and composes the same nodes with the same marks
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-Python fallback
    _Loader = yaml.SafeLoader

Path_ = tuple  # a key path: ("procedures", "turn(p: player)")


@dataclass
class Source:
    """A parsed YAML document plus the position of every value in it."""

    file: str
    text: str
    data: object
    marks: dict[Path_, tuple[int, int, str | None]] = field(default_factory=dict)

    # -- locating -----------------------------------------------------------
    def location(self, path: Path_ = (), line: int | None = None, column: int | None = None) -> Location:
        """The location of the value at ``path``; ``line``/``column`` are inside it (1-based)."""
        key = format_path(path)
        mark = self._nearest_mark(path)
        if mark is None:
            return Location(self.file, None, None, key)
        mline, mcol, style = mark  # 0-based, as yaml reports them
        if line is None:
            return Location(self.file, mline + 1, mcol + 1, key)
        if style in ("|", ">"):
            first = mline + 1  # block scalars start on the line after the indicator
            indent = self._block_indent(first)
            return Location(self.file, first + line, indent + (column or 1), key)
        shift = 1 if style in ('"', "'") else 0
        if line == 1:
            return Location(self.file, mline + 1, mcol + shift + (column or 1), key)
        return Location(self.file, mline + line, column, key)

    def excerpt(self, location: Location) -> str | None:
        """The source line of ``location`` with a caret under its column."""
        if location.line is None:
            return None
        lines = self.text.splitlines()
        if not 1 <= location.line <= len(lines):
            return None
        return caret_excerpt(lines[location.line - 1], location.column or 1)

    def error(self, message: str, path: Path_ = (), line: int | None = None, column: int | None = None,
              cls: type[DefinitionError] = DefinitionError) -> DefinitionError:
        loc = self.location(path, line, column)
        return cls(message, loc, self.excerpt(loc))

    def _nearest_mark(self, path: Path_):
        path = tuple(path)
        while path not in self.marks and path:
            path = path[:-1]
        return self.marks.get(path)

    def _block_indent(self, first_line0: int) -> int:
        lines = self.text.splitlines()
        for raw in lines[first_line0:]:
            if raw.strip():
                return len(raw) - len(raw.lstrip(" "))
        return 0


def format_path(path: Path_) -> str:
    """``("flow", 0, "turn")`` -> ``flow[0].turn``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def read_yaml_file(path: str | Path) -> Source:
    """Read and parse a YAML file, with located errors for anything wrong."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DefinitionError(f"cannot read the file: {exc.strerror or exc}", Location(str(path))) from None
    if path.is_dir():
        raise DefinitionError("is a directory; expected a YAML file", Location(str(path)))
    if size > MAX_FILE_BYTES:
        raise DefinitionError(f"file is {size} bytes; definitions are limited to {MAX_FILE_BYTES} bytes",
                              Location(str(path)))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DefinitionError(f"not UTF-8 text (byte {exc.start}); save the file as UTF-8",
                              Location(str(path))) from None
    except OSError as exc:
        raise DefinitionError(f"cannot read the file: {exc.strerror or exc}", Location(str(path))) from None
    return read_yaml_text(text, str(path))


def read_yaml_text(text: str, file: str = "<string>") -> Source:
    """Parse YAML text into a :class:`Source` (plain data + marks)."""
    if len(text.encode("utf-8", "replace")) > MAX_FILE_BYTES:
        raise DefinitionError(f"text is longer than {MAX_FILE_BYTES} bytes", Location(file))
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(file, mark.line + 1, mark.column + 1) if mark else Location(file)
        problem = exc.problem or exc.context or "invalid YAML"
        lines = text.splitlines()
        excerpt = caret_excerpt(lines[mark.line], mark.column + 1) if mark and mark.line < len(lines) else None
        raise DefinitionError(f"YAML syntax error: {problem}", loc, excerpt) from None
    except yaml.YAMLError as exc:
        raise DefinitionError(f"YAML error: {exc}", Location(file)) from None
    source = Source(file, text, None)
    if node is None:
        source.data = None
        return source
    budget = [MAX_NODES]
    source.data = _construct(node, (), source, 0, budget)
    return source


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
    if isinstance(node, yaml.ScalarNode):
        try:
            return _scalar(node)
        except yaml.YAMLError as exc:
            raise source.error(f"bad scalar value: {exc}", path) from None
    if isinstance(node, yaml.SequenceNode):
        return [_construct(child, path + (i,), source, depth + 1, budget) for i, child in enumerate(node.value)]
    if isinstance(node, yaml.MappingNode):
        result = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                mark = key_node.start_mark
                raise DefinitionError("mapping keys must be plain text", Location(source.file, mark.line + 1,
                                                                                  mark.column + 1, format_path(path)))
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise source.error("YAML merge keys (<<) are not supported; write the keys out", path)
            key = _scalar(key_node)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                key = str(key)
            if key in result:
                mark = key_node.start_mark
                loc = Location(source.file, mark.line + 1, mark.column + 1, format_path(path + (key,)))
                raise DefinitionError(f"duplicate key {key!r}", loc, source.excerpt(loc))
            result[key] = _construct(value_node, path + (key,), source, depth + 1, budget)
        return result
    raise source.error("unsupported YAML node", path)  # pragma: no cover


_scalar_loader = yaml.SafeLoader("")


def _scalar(node):
    """Construct a scalar the way yaml.safe_load would (ints, floats, bools, null, str)."""
    try:
        return _scalar_loader.construct_object(node, deep=True)
    finally:
        _scalar_loader.constructed_objects.clear()
