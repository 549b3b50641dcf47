"""The one visitor convention of the compiler's passes.

A pass walks the effect AST (``dsl/ast.py``) with ``self.visit(node, *args)``, which calls the
pass's ``visit_<NodeClass>(node, *args)``; the method is looked up once per node class and pass
class, then kept.  A node the pass has no method for is an error of the compiler, not of the author
(the parser makes no such node where the pass is run), reported by :meth:`NodeVisitor.unhandled`,
which a pass may override with a message of its own.
"""

from __future__ import annotations


class NodeVisitor:
    """Base of every compiler pass: holds the game's :class:`~interpreter.dsl.context.CompileContext`."""

    __slots__ = ("ctx",)
    _visitors: dict = {}  # node class -> unbound visit_ method, per pass class (see __init_subclass__)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}

    def __init__(self, ctx):
        self.ctx = ctx  # what the whole game's compilation shares; the pass keeps nothing else

    def visit(self, node, *args):
        """Dispatch ``node`` to this pass's ``visit_<its class>``."""
        method = self._visitors.get(node.__class__)
        if method is None:
            method = self._visitor_of(node)
        return method(self, node, *args)

    def _visitor_of(self, node):
        cls = node.__class__
        method = getattr(type(self), "visit_" + cls.__name__, None)
        if method is None:
            raise self.unhandled(node)
        self._visitors[cls] = method
        return method

    def unhandled(self, node) -> Exception:
        return TypeError(f"{type(self).__name__} has no visit_{type(node).__name__}: "
                         f"this pass does not handle {type(node).__name__} nodes")
