"""Ribbit: run tabletop card games from declarative YAML definitions.

    from interpreter import load_game
    game = load_game("definitions/<game>.yaml")
    state = game.new_game(players=3, seed=7)
    while not state.is_terminal():
        player = state.current_players()[0]
        state.apply(player, state.legal_actions(player)[0])
    state.winners()
"""

from .errors import (DefinitionError, DSLNameError, DSLSyntaxError, DSLTypeError, IllegalActionError,
                     RibbitError, RuleError, SaveFileError)
from .dsl.options import CompileOptions
from .loader import load_game
from .loader.scenario import load_scenario
from .state import State, replay

__all__ = ["load_game", "CompileOptions", "load_scenario", "State", "replay", "RibbitError", "DefinitionError", "DSLSyntaxError",
           "DSLNameError", "DSLTypeError", "IllegalActionError", "RuleError", "SaveFileError"]
