"""Rule coverage (``simulate --coverage``, ``compare --coverage``): how often each rule ran, counted exactly.

The test-only game (tests/definitions/coverage.yaml) is built so that every count can be worked out
from the games themselves, played again on the normal build: the choices in each game's history and
the cards it left on the table.  A rule no game can reach reads 0 and comes first.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from interpreter.cli import main
from interpreter.compare import compare, parse_config, report
from interpreter.coverage import COUNTING
from interpreter.loader import load_game
from interpreter.sim import play_bot_game, simulate

from conftest import REPO_ROOT, zone

GAME = REPO_ROOT / "tests" / "definitions" / "coverage.yaml"
HOOKS = str(REPO_ROOT / "tests" / "variants" / "coverage_hooks.yaml")
PLAYERS, GAMES, SEED = 2, 12, 7


def expected_counts(variants=(), bot="random", scenario=None) -> dict:
    """Each rule's runs over the run's games, worked out from the games played on the normal build."""
    game = load_game(GAME, variants=list(variants))
    runs = Counter()
    for index in range(GAMES):
        state = play_bot_game(game, PLAYERS, SEED, index, bot, scenario=scenario)
        choices = Counter(text for _, text in state.history)
        table = Counter(zone(state, "table"))
        turns = len(state.history)  # every turn asks one question with two options open
        runs.update({"take_turn": turns, "tally": turns, "before tally": turns if variants else 0,
                     "play it": choices["play it"], "keep it": choices["keep it"], "cheat": 0,
                     "never_reached": 0, "instead never_reached": 0,
                     "echo when played": table["echo"],  # the ability of each echo played
                     "trigger big_play": table["boulder"],  # its 'if': a card of value 3 or more
                     "gong listening to played": choices["play it"]})  # the one gong hears every play
    return runs


def counted(stats) -> dict:
    return {item["name"]: item["runs"] for item in stats.to_json()["coverage"]["items"]}


def run(variants=(), jobs=1, bot="random"):
    return simulate(GAME, PLAYERS, GAMES, seed=SEED, jobs=jobs, variants=list(variants), bot=bot, coverage=True,
                    game=load_game(GAME, variants=list(variants), options=COUNTING))


def test_rules_never_reached_are_listed_first_with_zero_and_the_others_with_their_exact_runs():
    stats = run()
    items = stats.to_json()["coverage"]["items"]
    expected = expected_counts()
    assert {(i["kind"], i["name"]) for i in items[:2]} == {("procedure", "never_reached"), ("menu option", "cheat")}
    assert all(i["runs"] == 0 for i in items[:2]) and all(i["runs"] > 0 for i in items[2:])
    assert counted(stats) == {name: expected[name] for name in counted(stats)}
    assert [i["runs"] for i in items] == sorted(i["runs"] for i in items)  # then the rarest first
    assert expected["take_turn"] > 0 and expected["trigger big_play"] > 0


def test_hooks_of_a_variant_file_are_counted_and_located_in_it():
    stats = run([HOOKS])
    by_name = {i["name"]: i for i in stats.to_json()["coverage"]["items"]}
    expected = expected_counts([HOOKS])
    assert by_name["before tally"]["kind"] == "hook" and by_name["before tally"]["runs"] == expected["take_turn"]
    assert by_name["instead never_reached"]["runs"] == 0
    assert by_name["before tally"]["where"].startswith("coverage_hooks.yaml:")
    assert counted(stats) == {name: expected[name] for name in counted(stats)}


def test_listeners_abilities_and_guarded_triggers_count_only_when_they_run():
    by_name = {i["name"]: i for i in run().to_json()["coverage"]["items"]}
    expected = expected_counts()
    assert (by_name["gong listening to played"]["kind"], by_name["echo when played"]["kind"],
            by_name["trigger big_play"]["kind"]) == ("listener", "ability", "trigger")
    for name in ("gong listening to played", "echo when played", "trigger big_play", "play it", "keep it"):
        assert by_name[name]["runs"] == expected[name], name


def test_counting_does_not_change_the_games_played():
    plain = simulate(GAME, PLAYERS, GAMES, seed=SEED).to_json()
    with_coverage = run().to_json()
    assert with_coverage.pop("coverage")["rules"] == 11 - 2  # the hooks come with the variant only
    assert with_coverage == plain


def test_counts_are_summed_exactly_across_worker_processes():
    assert run(jobs=2).to_json() == run(jobs=1).to_json()


def test_what_a_bot_runs_while_it_thinks_is_not_counted():
    stats = run(bot="greedy")
    expected = expected_counts(bot="greedy")
    assert counted(stats) == {name: expected[name] for name in counted(stats)}


def test_a_game_loaded_without_the_counters_is_refused_rather_than_read_as_all_zero():
    with pytest.raises(ValueError, match="COUNTING"):
        simulate(GAME, PLAYERS, 1, coverage=True, game=load_game(GAME))


def test_simulate_json_has_the_coverage_and_the_table_lists_the_unreached_first(capsys):
    assert main(["simulate", str(GAME), "--players", "2", "--games", "5", "--coverage", "--json", "-"]) == 0
    document = json.loads(capsys.readouterr().out)
    coverage = document["coverage"]
    assert set(coverage) == {"rules", "never_reached", "items"} and coverage["never_reached"] == 2
    assert set(coverage["items"][0]) == {"kind", "name", "where", "runs", "per_game"}
    assert main(["simulate", str(GAME), "--players", "2", "--games", "5", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "2 never reached (listed first)" in out
    lines = [line for line in out.splitlines() if "coverage.yaml:" in line]
    assert "never_reached" in lines[0] or "cheat" in lines[0]
    assert main(["simulate", str(GAME), "--players", "2", "--games", "5", "--json", "-"]) == 0
    assert "coverage" not in json.loads(capsys.readouterr().out)  # only when asked


def test_compare_counts_each_configuration_on_its_own(capsys):
    configs = [parse_config("", 1, PLAYERS, [], []), parse_config(f"name=hooks; variant={HOOKS}", 2, PLAYERS, [], [])]
    loaded = [load_game(GAME, options=COUNTING), load_game(GAME, variants=[HOOKS], options=COUNTING)]
    result = compare(GAME, configs, GAMES, seed=SEED, loaded=loaded, coverage=True)
    base, hooked = ({i["name"]: i["runs"] for i in c["coverage"]["items"]} for c in report(result))
    assert "before tally" not in base and hooked["before tally"] == expected_counts([HOOKS])["take_turn"]
    assert base == {name: expected_counts()[name] for name in base}
    code = main(["compare", str(GAME), "--players", "2", "--games", "4", "--coverage", "--config", "",
                 "--config", f"name=hooks; variant={HOOKS}"])
    out = capsys.readouterr().out
    assert code == 0 and "Rule coverage, base" in out and "Rule coverage, hooks" in out


def test_a_scenario_drives_a_rare_rule_in_every_game_and_the_counts_stay_exact(tmp_path):
    from interpreter.loader.scenario import load_scenario

    path = tmp_path / "boulders.yaml"
    path.write_text("on_top:\n  deck: [boulder, boulder, boulder, boulder]\n", encoding="utf-8")
    scenario = load_scenario(path)
    stats = simulate(GAME, PLAYERS, GAMES, seed=SEED, coverage=True, scenario=scenario,
                     game=load_game(GAME, options=COUNTING))
    expected = expected_counts(scenario=scenario)
    assert counted(stats) == {name: expected[name] for name in counted(stats)}
    assert expected != expected_counts()  # the games started from the scenario
    code = main(["simulate", str(GAME), "--players", "2", "--games", "3", "--scenario", str(path), "--json", "-"])
    assert code == 0


def test_simulate_refuses_a_bad_scenario_before_any_game_at_its_line(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("on_top:\n  deck: [diamond]\n", encoding="utf-8")
    assert main(["simulate", str(GAME), "--players", "2", "--games", "3", "--scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:2" in err and "no card called 'diamond'" in err and "Traceback" not in err


def test_rule_names_in_the_coverage_table_are_printed_inert():
    from rich.console import Console

    from interpreter.coverage import RuleCoverage
    from interpreter.render import render_coverage

    coverage = RuleCoverage()
    coverage.rules["x"] = ["menu option", "\x1b]0;owned\x07 [bold]loud[/bold]", "g.yaml:3", 0]
    console = Console(record=True, width=200, force_terminal=False)
    render_coverage(console, coverage, 4)
    out = console.export_text()
    assert "\x1b" not in out and "\\x1b" in out and "[bold]loud[/bold]" in out


def test_coverage_with_the_ray_backend_is_refused_in_one_paragraph(capsys):
    code = main(["simulate", str(GAME), "--players", "2", "--games", "2", "--coverage", "--backend", "ray"])
    err = capsys.readouterr().err
    assert code == 2 and "process backend only" in err and "Traceback" not in err


@pytest.mark.parametrize("off", [("inline",), ("splice",), ("fuse",), ("inline", "splice", "tables", "fold", "fuse")])
def test_each_run_is_counted_once_whatever_the_optimisations_did_with_the_code(off):
    from dataclasses import replace

    options = replace(COUNTING, **{name: False for name in off})
    for variants in ([], [HOOKS]):
        plain = simulate(GAME, PLAYERS, GAMES, seed=SEED, variants=variants, coverage=True,
                         game=load_game(GAME, variants=variants, options=options))
        assert counted(plain) == counted(run(variants)), off


@pytest.mark.parametrize("name, players", [("frog_tower", 3), ("kaeru", 2), ("top_frog", 4), ("crazy_eights", 3)])
def test_the_counting_build_plays_every_shipped_game_exactly_as_the_normal_build(name, players):
    path = REPO_ROOT / "definitions" / f"{name}.yaml"
    normal, counting = load_game(path), load_game(path, options=COUNTING)
    for index in range(4):
        a = play_bot_game(normal, players, SEED, index)
        b = play_bot_game(counting, players, SEED, index, coverage=True)
        assert (a.history, a.zones, a.scores()) == (b.history, b.zones, b.scores())
    assert any(b.game.coverage.counts)  # (a game with a board per player count: that board's build)


def test_named_setup_steps_a_variant_adds_are_counted_once_per_game():
    path = REPO_ROOT / "definitions" / "frog_tower.yaml"
    stats = simulate(path, 3, 3, coverage=True, variants=["crayfish"],
                     game=load_game(path, variants=["crayfish"], options=COUNTING))
    steps = {i["name"]: (i["runs"], i["where"]) for i in stats.to_json()["coverage"]["items"]
             if i["kind"] == "setup step"}
    runs, where = steps["crayfish_rule"]
    assert runs == 3 and where.startswith("crayfish.yaml:")
    assert all(runs == 3 for runs, _ in steps.values()) and len(steps) > 1
