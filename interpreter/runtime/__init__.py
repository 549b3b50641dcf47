"""What generated code and the core run against, and nothing else.

The compiler (``interpreter.dsl``) makes code that calls these modules; the core
(``Game``, ``State``) runs that code with them.  Nothing here imports the compiler,
the loader or the core: a rule's run needs only the state's plain data, these
helpers and the errors they raise (``interpreter.errors``, ``interpreter.rng``,
the two modules beneath everything).

* ``control``: the signals of the run loop (``SUSPEND``, ``TRANSFER``, ``GameOver``) and a return.
* ``limits``: the bounds on numbers, texts and work, and their located errors.
* ``moves``: moving and shuffling cards.
* ``values``: the helpers generated expressions call (a located error each).
* ``selections``: counting and listing the ways to pick items from groups.
* ``option_spaces``: large choices kept as a count and made one option at a time.
* ``decisions``: what a decision makes at run time (the pending decision, the limits on options).
* ``listeners``: which listening cards react to an event.
* ``visibility``: who may see a card, and log lines written for each audience.
* ``sandbox``: the builtins generated code sees, and where a failure in it happened.
* ``records``: the typed records of a game in progress (the pending decision, a frame).
* ``scoring``: scores, tie-breaks and modified quantities, as callable records the loader builds.
"""
