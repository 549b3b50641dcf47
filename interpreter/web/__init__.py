"""Play any definition in a browser: ``ribbit serve GAME --players N``.

Needs the ``web`` extra (``pip install -e '.[web]'``: Starlette and uvicorn).  :mod:`.table` hosts a
game (seats, tokens, bots, saves), :mod:`.layout` reads what to draw from the definition, :mod:`.app`
is the server, and ``static/`` the one page, which knows no game: it draws whatever the layout and a
seat's view hold.
"""

MISSING = ("'ribbit serve' needs the web extra (Starlette and uvicorn): pip install -e '.[web]' "
           "(or pip install 'ribbit[web]')")


def available() -> bool:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return False
    return True
