"""Hooks: a variant's before/after/instead effects on a named procedure of the game.

The contract (docs/authoring.md, "Hooks"): hooks of several variants on one procedure all run, in
the order the variants are applied; every 'before', then the first 'instead' whose 'if' holds (one
without 'if' last), else the body; then every 'after' with 'result' bound; the procedure's result is
the body's (or the instead's) and an 'after' cannot change it.  An 'instead' without 'if' is owned
like a 'replace'.  The base game is Frog Tower; overlays are small files in a temporary folder.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter import DefinitionError, load_game

from conftest import REPO_ROOT, garden, holding, play, start, zone

BASE = REPO_ROOT / "definitions" / "frog_tower.yaml"
STOP = "stop and take the cards"
FLIP = "flip another card"
EMPTY = {"garden(1)": [], "garden(2)": [], "garden(3)": []}


def variant(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.yaml"
    path.write_text(f"variant: {name}\ngame: Frog Tower\n" + textwrap.dedent(body).lstrip(), encoding="utf-8")
    return str(path)


def error_of(variants) -> str:
    with pytest.raises(DefinitionError) as info:
        load_game(BASE, variants=variants)
    return str(info.value)


def test_before_and_after_hooks_of_two_variants_stack_in_variant_order(tmp_path):
    a = variant(tmp_path, "a", '''
        before:
          stop: log "a before {p}"
        after:
          stop: log "a after"
        ''')
    b = variant(tmp_path, "b", '''
        before:
          stop: log "b before"
        after:
          stop: log "b after"
        ''')
    for order, expected in (([a, b], ["a before player 1", "b before", "player 1 stops and takes green frog.",
                                      "a after", "b after"]),
                            ([b, a], ["b before", "a before player 1", "player 1 stops and takes green frog.",
                                      "b after", "a after"])):
        state = start(load_game(BASE, variants=order), 3, pond=["green frog", "blue frog"], zones=dict(EMPTY))
        play(state, [(0, STOP)])
        assert state.log == expected


def test_a_hook_with_if_runs_only_when_it_holds(tmp_path):
    game = load_game(BASE, variants=[variant(tmp_path, "v", '''
        after:
          flip:
            if: result.type == "leaf"
            do: log "{p} flipped the leaf {result}"
        ''')])
    state = start(game, 3, pond=["green frog", "leaf", "blue frog"], zones=dict(EMPTY))
    assert state.log == []
    play(state, [(0, FLIP)])
    assert state.log == ["player 1 flipped the leaf leaf"]


def test_after_sees_the_result_and_cannot_change_it(tmp_path):
    # the after hook's own 'return' ends only the hook; it cannot give a value (returns.py refuses it at load)
    game = load_game(BASE, variants=[variant(tmp_path, "v", '''
        after:
          bust: |
            log "busted: {result}"
            if result:
              return
            log "not busted"
        ''')])
    state = start(game, 3, pond=["green frog", "green frog (pink flower)", "blue frog"], zones=dict(EMPTY))
    play(state, [(0, FLIP)])
    assert state.log == ["player 1 busts on green frog (pink flower)."]
    play(state, [(1, "take green frog")])  # the Holding area is shared out (the last card without asking)
    assert state.log[1:] == ["busted: yes"]
    assert state.current_players() == [1] and holding(state) == ["blue frog"]  # the turn ended all the same
    assert "an instead hook answers for bust()" in error_of([variant(tmp_path, "w", '''
        after:
          bust: return false
        ''')])


def test_the_first_instead_that_holds_runs_in_variant_order_else_the_body(tmp_path):
    a = variant(tmp_path, "a", '''
        instead:
          bust:
            if: card.type == "green"
            do: |
              log "a keeps {card}"
              return false
        ''')
    b = variant(tmp_path, "b", '''
        instead:
          bust:
            if: card.type == "green" or card.type == "blue"
            do: |
              log "b keeps {card}"
              return false
        ''')
    pond = ["green frog", "green frog (pink flower)", "blue frog", "blue frog (pink flower)", "red frog", "red frog"]
    state = start(load_game(BASE, variants=[a, b]), 3, pond=pond, zones=dict(EMPTY))
    play(state, [(0, FLIP)] * 5)
    assert state.log == ["a keeps green frog (pink flower)", "b keeps blue frog (pink flower)",
                         "player 1 busts on red frog."]  # neither hook's 'if' holds: the body runs
    state = start(load_game(BASE, variants=[b, a]), 3, pond=pond, zones=dict(EMPTY))
    play(state, [(0, FLIP)])
    assert state.log == ["b keeps green frog (pink flower)"]


def test_an_instead_without_if_is_a_new_body_and_its_return_is_the_result(tmp_path):
    game = load_game(BASE, variants=[variant(tmp_path, "v", '''
        instead:
          bust: return false
        ''')])
    state = start(game, 3, pond=["green frog", "green frog (pink flower)", "blue frog"], zones=dict(EMPTY))
    play(state, [(0, FLIP), (0, FLIP)])
    assert holding(state) == ["green frog", "green frog (pink flower)", "blue frog"]
    assert state.current_players() == [0]


def test_hooks_wrap_a_procedure_another_variant_replaced(tmp_path):
    replaced = variant(tmp_path, "r", '''
        replace:
          procedures:
            stop(player p): |
              log "{p} stops quietly."
              move holding to garden(p)
        ''')
    hooked = variant(tmp_path, "h", '''
        before:
          stop: log "hook"
        ''')
    state = start(load_game(BASE, variants=[replaced, hooked]), 3, pond=["green frog", "blue frog"], zones=dict(EMPTY))
    play(state, [(0, STOP)])
    assert state.log == ["hook", "player 1 stops quietly."]
    assert garden(state, 0) == ["green frog"]


def test_two_instead_without_if_conflict_like_two_replaces(tmp_path):
    a = variant(tmp_path, "a", "instead:\n  bust: return false\n")
    b = variant(tmp_path, "b", "instead:\n  bust: return true\n")
    message = error_of([a, b])
    assert f"{b}:4:3: instead.bust: variants 'a' and 'b' both change procedure 'bust': {a}:4:3 runs an " \
           f"effect instead of it, and {b}:4:3 runs an effect instead of it. Use only one of the two variants, or " \
           "make 'b' extend 'a'" in message


def test_an_instead_without_if_conflicts_with_a_replace(tmp_path):
    a = variant(tmp_path, "a", "replace:\n  procedures:\n    stop(player p): move holding to garden(p)\n")
    b = variant(tmp_path, "b", "instead:\n  stop: move holding to box\n")
    assert "variants 'a' and 'b' both change procedure 'stop'" in error_of([a, b])
    assert "variants 'b' and 'a' both change procedure 'stop'" in error_of([b, a])


def test_removing_a_procedure_another_variant_hooks_is_a_conflict(tmp_path):
    a = variant(tmp_path, "a", "before:\n  refill_pond: pass\n")
    b = variant(tmp_path, "b", "remove:\n  procedures: [refill_pond]\n")
    message = error_of([a, b])
    assert f"{b}:4:16: remove.procedures[0]: variants 'a' and 'b' both change procedure 'refill_pond': {a}:4:3 runs " \
           f"an effect before it, and {b}:4:16 removes it." in message


def test_a_hook_on_a_missing_procedure_names_the_closest(tmp_path):
    a = variant(tmp_path, "a", "before:\n  stpo: pass\n")
    message = error_of([a])
    assert message.startswith(f"{a}:4:3: before.stpo: there is no procedure 'stpo' to run an effect before in "
                              "'Frog Tower'")
    assert "did you mean 'stop'?" in message


def test_errors_in_a_hook_point_into_the_variant(tmp_path):
    a = variant(tmp_path, "a", '''
        after:
          flip:
            if: result.colour == 3
            do: pass
        ''')
    assert error_of([a]).startswith(f"{a}:5:9: after.flip.if: cards have no property 'colour'")
    b = variant(tmp_path, "b", '''
        before:
          stop: |
            log "{nobody}"
        ''')
    assert error_of([b]).startswith(f"{b}:5:11: before.stop: unknown name 'nobody'")


def test_a_game_without_hooks_has_no_wrapper(tmp_path):
    plain = load_game(BASE)
    hooked = load_game(BASE, variants=[variant(tmp_path, "a", "before:\n  stop: pass\n")])
    assert len(hooked.procedures) == len(plain.procedures)  # the hidden parts are not listed
    assert len(hooked.procs) > len(plain.procs)
    assert len(plain.procs) == len({p.name for p in plain.procs})  # no body was moved aside


def test_ribbit_rules_lists_the_hooks_as_changes():
    game = load_game(BASE, variants=["leaf_to_box", "extra_card"])
    changes = [str(c) for c in game.source.changes]
    assert changes[0].startswith("leaf_to_box runs an effect instead of procedure 'bust' (")
    assert changes[1].startswith("extra_card runs an effect before procedure 'stop' (")


def test_a_hook_on_a_function_says_hooks_wrap_procedures_and_to_replace_the_function(tmp_path):
    # 'busts' is a function of Frog Tower: a stranger hooking it was told only that no procedure has that name.
    a = variant(tmp_path, "a", "after:\n  busts: pass\n")
    message = error_of([a])
    assert message.startswith(f"{a}:4:3: after.busts: there is no procedure 'busts' to run an effect after in ")
    assert "'busts' is a function of the game, and hooks run around procedures only: to change what it gives, " \
           "replace the function (replace: functions: busts(...): ...)" in message
