"""No function of the package is more tangled than cyclomatic complexity 15 (radon), bar a listed few.

Every function, method and nested function of every module of ``interpreter/`` is measured with radon's
API (the ``dev`` extra installs it).  A function above the limit fails this test unless ``ALLOWED`` names
it with the reason it may stay; an entry that is no longer above the limit fails too, so the list only
shrinks.  Names read ``path/of/module.py:Class.method`` (a nested function adds ``.inner``).
"""

from __future__ import annotations

import pytest

from conftest import REPO_ROOT

radon_complexity = pytest.importorskip("radon.complexity", reason="radon is in the dev extra: pip install -e '.[dev]'")
radon_visitors = pytest.importorskip("radon.visitors")

PACKAGE = REPO_ROOT / "interpreter"
LIMIT = 15

# "module path:qualified name": why it may stay above the limit.
ALLOWED: dict[str, str] = {
    # Tables of error wording: one branch per message of the library they explain, kept together so the
    # wording can be read (and compared with the library's messages) in one place.
    "interpreter/loader/source.py:_explain_yaml_error": "a table of wording: one branch per PyYAML syntax error",  # 32
}


def complex_functions(source: str, limit: int = LIMIT) -> dict[str, int]:
    """{qualified name: complexity} of every function, method or nested function in ``source`` above ``limit``.

    Classes are walked for their methods but not measured themselves: radon scores a class by adding up its
    methods, so a class of many simple methods would count as complex."""
    found: dict[str, int] = {}

    def function(block, prefix: str) -> None:
        name = f"{prefix}{block.name}"
        if block.complexity > limit:
            found[name] = block.complexity
        for inner in block.closures:
            function(inner, f"{name}.")

    def klass(block, prefix: str) -> None:
        name = f"{prefix}{block.name}"
        for method in block.methods:
            function(method, f"{name}.")
        for inner in block.inner_classes:
            klass(inner, f"{name}.")

    for block in radon_complexity.cc_visit(source):  # top-level blocks, then every method again: skip those
        if isinstance(block, radon_visitors.Class):
            klass(block, "")
        elif not block.is_method:
            function(block, "")
    return found


def package_complexity() -> dict[str, int]:
    """{"module path:qualified name": complexity} of everything in ``interpreter/`` above the limit."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(REPO_ROOT).as_posix()
        for name, complexity in complex_functions(path.read_text(encoding="utf-8")).items():
            found[f"{where}:{name}"] = complexity
    return found


def test_no_function_is_above_the_limit_unless_the_allow_list_says_why():
    found = package_complexity()
    unlisted = {name: cc for name, cc in found.items() if name not in ALLOWED}
    assert not unlisted, (
        f"above cyclomatic complexity {LIMIT}; split them by meaning (one function per decision, a table "
        "for a long if/elif over kinds), or list them in ALLOWED with the reason:\n"
        + "\n".join(f"  {name}: {cc}" for name, cc in sorted(unlisted.items())))


def test_the_allow_list_names_only_functions_still_above_the_limit():
    found = package_complexity()
    stale = sorted(name for name in ALLOWED if name not in found)
    assert not stale, "no longer above the limit (or renamed): remove from ALLOWED:\n" + "\n".join(
        f"  {name}" for name in stale)


def test_every_allowed_function_has_a_reason():
    assert all(reason.strip() for reason in ALLOWED.values())


SIXTEEN_WAYS = "def tangled(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(15)) + "    return -1\n"
FIFTEEN_WAYS = "def plain(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(14)) + "    return -1\n"


def test_a_new_function_above_the_limit_is_found():
    assert complex_functions(SIXTEEN_WAYS) == {"tangled": 16}
    assert complex_functions(FIFTEEN_WAYS) == {}


def test_methods_and_nested_functions_are_found_by_their_qualified_names():
    method = "class Holder:\n    " + SIXTEEN_WAYS.replace("\n", "\n    ")
    nested = "def outer():\n    " + SIXTEEN_WAYS.replace("\n", "\n    ") + "\n    return tangled\n"
    assert complex_functions(method) == {"Holder.tangled": 16}
    assert complex_functions(nested) == {"outer.tangled": 16}


def test_a_new_complex_function_in_a_module_fails_the_check(tmp_path, monkeypatch):
    """The package-wide check catches a function nobody listed (not only the self-test's helper)."""
    fake = tmp_path / "interpreter"
    fake.mkdir()
    (fake / "fresh.py").write_text(SIXTEEN_WAYS, encoding="utf-8")
    monkeypatch.setitem(globals(), "PACKAGE", fake)
    monkeypatch.setitem(globals(), "REPO_ROOT", tmp_path)
    assert package_complexity() == {"interpreter/fresh.py:tangled": 16}
    with pytest.raises(AssertionError, match="interpreter/fresh.py:tangled: 16"):
        test_no_function_is_above_the_limit_unless_the_allow_list_says_why()


def test_an_allowed_function_that_is_no_longer_complex_fails_the_check(monkeypatch):
    monkeypatch.setitem(ALLOWED, "interpreter/errors.py:quote", "a made-up entry: quote is simple")
    with pytest.raises(AssertionError, match="interpreter/errors.py:quote"):
        test_the_allow_list_names_only_functions_still_above_the_limit()
