"""Shared text for small test games: most end their turn by asking "a" or "b"."""

# The turn runs its rule, then asks "a" or "b": the game stops at a decision to look at.
TURN_END = """    ask p:
      "a":
        pass
      "b":
        pass
flow:
  - phase: play
    turn: take_turn
"""
