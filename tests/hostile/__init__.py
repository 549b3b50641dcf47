"""The hostile-input family: a seeded generator of bad inputs (``cases``) and the worker that runs them (``worker``)."""
