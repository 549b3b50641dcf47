"""The package is layered: nothing imports upward, and no modules import each other in a circle.

Every ``import`` of every module of ``interpreter/`` is read from its syntax tree: at the top of the
module and inside functions alike (a lazy import of an upper layer from a lower one is as much a
dependency as any), relative and absolute.  From the bottom up:

* foundation: ``errors``, ``rng`` (import nothing of the package);
* runtime: ``runtime/`` (what generated code and the core run against);
* core: ``game``, ``state`` (a façade over ``actions``, ``run_loop``, ``views``, ``undo``, ``determinise``,
  ``saves``, ``chance``), ``board``, ``trace``;
* dsl: ``dsl/``, the compiler;
* loader: ``loader/`` (definitions, variants, scenario files, saves), and the package's face
  (``interpreter/__init__.py``: ``load_game``);
* agents: ``agents/`` (bots play any game from its views; the running layer plays them);
* running: ``sim``, ``runs``, ``compare``, ``ray_backend``, ``log_replay``, ``stats``, ``plots``;
* ui: ``cli``, ``render``, ``web/``, ``adapters/``.

A module may import its own layer and the layers below, with no exception: where a lower layer needs
something of a higher one (the core applying a scenario the loader checked, the layout hash the compiler
computes), the higher layer hands it over when it builds the lower one's objects.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

from conftest import REPO_ROOT

PACKAGE = REPO_ROOT / "interpreter"

LAYERS = (  # lowest first: (layer, the modules and packages in it)
    ("foundation", ("interpreter.errors", "interpreter.rng")),
    ("runtime", ("interpreter.runtime",)),
    ("core", ("interpreter.game", "interpreter.state", "interpreter.board", "interpreter.trace", "interpreter.views",
              "interpreter.undo", "interpreter.determinise", "interpreter.saves", "interpreter.actions",
              "interpreter.run_loop", "interpreter.playout", "interpreter.chance")),
    ("dsl", ("interpreter.dsl",)),
    ("loader", ("interpreter.loader", "interpreter")),
    ("agents", ("interpreter.agents",)),
    ("running", ("interpreter.sim", "interpreter.runs", "interpreter.compare", "interpreter.ray_backend",
                 "interpreter.log_replay", "interpreter.stats", "interpreter.plots")),
    ("ui", ("interpreter.cli", "interpreter.render", "interpreter.web", "interpreter.adapters")),
)

# (importer, imported): why it is allowed for now.  Each names what removes it.  None left: keep it so.
EXCEPTIONS: dict = {}


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(name: str, source: str, is_package: bool, known) -> list[tuple[str, int, bool]]:
    """(imported module of the package, line, inside a function or class?) for every import in ``source``.

    ``from P import x`` names the module ``P.x`` when it is one (``known``), else ``P``."""
    tree = ast.parse(source)
    top = {id(node) for node in tree.body}
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            if target == "interpreter" or target.startswith("interpreter."):
                while target not in known and "." in target:  # import interpreter.x.y of a name y in x
                    target = target.rsplit(".", 1)[0]
                found.append((target, node.lineno, id(node) not in top))
    return found


def missing_modules(name: str, source: str, is_package: bool, known) -> list[str]:
    """``from M import x`` of the package where no module M exists: an import that fails only when it runs
    (inside a function, a moved module's old name is found by no test but the one that takes that path)."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    missing = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            if (base == "interpreter" or base.startswith("interpreter.")) and base not in known:
                missing.append(f"{name} imports from {base}, which is no module (line {node.lineno})")
    return missing


def layer_of(module: str) -> int:
    """The index in LAYERS of the layer holding ``module`` (the longest listed prefix wins)."""
    best, level = -1, None
    for index, (_, members) in enumerate(LAYERS):
        for member in members:
            if (module == member or module.startswith(member + ".")) and len(member) > best:
                best, level = len(member), index
    if level is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/engine/test_layering.py")
    return level


def import_graph(sources: dict[str, tuple[str, bool]]) -> nx.DiGraph:
    """The import graph of modules given as {name: (source, is package)}; edges keep their lines."""
    graph = nx.DiGraph()
    graph.add_nodes_from(sources)
    for name, (source, is_package) in sources.items():
        for target, line, inner in imports_of(name, source, is_package, sources):
            if target != name:
                graph.add_edge(name, target)
                graph.edges[name, target].setdefault("at", []).append((line, inner))
    return graph


def upward(graph: nx.DiGraph, exceptions=EXCEPTIONS) -> list[str]:
    """Every import of a module of a higher layer, as 'importer (layer) imports imported (layer) at line N'."""
    found = []
    for importer, imported, data in graph.edges(data=True):
        low, high = layer_of(importer), layer_of(imported)
        if high > low and (importer, imported) not in exceptions:
            lines = ", ".join(f"{line}{' (in a function)' if inner else ''}" for line, inner in sorted(set(data["at"])))
            found.append(f"{importer} ({LAYERS[low][0]}) imports {imported} ({LAYERS[high][0]}) at line {lines}")
    return sorted(found)


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """The groups of modules that import each other in a circle (directly or through others)."""
    return sorted(sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1)


def package_sources() -> dict[str, tuple[str, bool]]:
    return {module_name(path): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in sorted(PACKAGE.rglob("*.py"))}


@pytest.fixture(scope="module")
def graph():
    return import_graph(package_sources())


def test_every_module_is_in_a_layer(graph):
    for module in graph:
        layer_of(module)


def test_every_import_of_the_package_names_a_module_that_exists():
    sources = package_sources()
    assert [problem for name, (source, is_package) in sources.items()
            for problem in missing_modules(name, source, is_package, sources)] == []


def test_an_import_from_a_module_that_moved_away_is_found():
    sources = {"interpreter": ("", True), "interpreter.cli": ("def f():\n    from .scenario import load\n", False)}
    assert missing_modules("interpreter.cli", *sources["interpreter.cli"], sources) == [
        "interpreter.cli imports from interpreter.scenario, which is no module (line 2)"]


def test_no_module_imports_a_higher_layer(graph):
    assert upward(graph) == []


def test_no_modules_import_each_other_in_a_circle(graph):
    assert circles(graph) == []


def test_every_exception_is_still_needed_and_says_why(graph):
    for (importer, imported), reason in EXCEPTIONS.items():
        assert graph.has_edge(importer, imported), f"{importer} no longer imports {imported}: drop the exception"
        assert len(reason) > 40


def test_the_runtime_and_the_core_import_neither_the_compiler_nor_the_loader(graph):
    low = [m for m in graph if layer_of(m) <= layer_of("interpreter.game")]
    assert {"interpreter.runtime", "interpreter.state", "interpreter.game", "interpreter.trace"} <= set(low)
    for module in low:
        for imported in graph.successors(module):
            assert (module, imported) in EXCEPTIONS or not imported.startswith(
                ("interpreter.dsl", "interpreter.loader")), f"{module} imports {imported}"


# ---------------------------------------------------------------- the check itself catches what it must
FAKE = {
    "interpreter": ("from .state import State\n", True),
    "interpreter.errors": ("", False),
    "interpreter.runtime": ("", True),
    "interpreter.runtime.moves": ("from ..errors import RuleError\n", False),
    "interpreter.state": ("from .runtime import moves\n", False),
    "interpreter.game": ("import interpreter.state\n", False),
    "interpreter.dsl": ("", True),
    "interpreter.dsl.compiler": ("from ..runtime.moves import move_card\n", False),
    "interpreter.sim": ("", False),
    "interpreter.ray_backend": ("", False),
}


def fake(**changed) -> nx.DiGraph:
    sources = dict(FAKE)
    for name, source in changed.items():
        module = "interpreter." + name.replace("__", ".")
        sources[module] = (source, sources[module][1])
    return import_graph(sources)


def test_a_clean_graph_has_nothing_to_report():
    graph = fake()
    assert upward(graph) == [] and circles(graph) == []


def test_an_upward_import_inside_a_function_is_found():
    graph = fake(state="from .runtime import moves\n\ndef f():\n    from .dsl import compiler\n")
    assert upward(graph) == ["interpreter.state (core) imports interpreter.dsl.compiler (dsl) at line 4 "
                             "(in a function)"]


def test_an_absolute_upward_import_from_the_runtime_is_found():
    graph = fake(runtime__moves="import interpreter.state\n")
    assert upward(graph) == ["interpreter.runtime.moves (runtime) imports interpreter.state (core) at line 1"]


def test_a_circle_inside_one_layer_is_found():
    graph = fake(sim="def run():\n    from . import ray_backend\n", ray_backend="from .sim import chunks\n")
    assert upward(graph) == [] and circles(graph) == [["interpreter.ray_backend", "interpreter.sim"]]


def test_a_listed_exception_is_allowed_and_nothing_else():
    graph = fake(runtime__moves="from ..state import State\n")
    assert upward(graph, {("interpreter.runtime.moves", "interpreter.state"): "a reason"}) == []
    assert upward(graph, {}) != []
