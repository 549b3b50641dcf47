"""`ribbit compare`: configurations played on the same seeds, every figure with its 95% interval, the difference
to the first configuration (paired by seed where the seats match), JSON for scripts and figures with --plot.

The intervals are checked on inputs whose answers are known (published examples, scipy's own routines)."""

from __future__ import annotations

import json
import math
import sys

import pytest

from scipy import stats as scipy_stats  # a core dependency, as the intervals need it

from interpreter.agents import AGENTS
from interpreter.cli import main
from interpreter.compare import ConfigError, compare, parse_config, report, seat_bots
from interpreter.stats import Moments, mean_difference, mean_interval, paired_difference, proportion_difference, wilson

from interpreter.agents import AGENTS  # noqa: E402
from interpreter.cli import main  # noqa: E402
from interpreter.compare import Comparison, ConfigError, compare, parse_config, report, seat_bots  # noqa: E402
from interpreter.stats import (Moments, mean_difference, mean_interval, paired_difference,  # noqa: E402
                               proportion_difference, wilson)

from conftest import REPO_ROOT  # noqa: E402

FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def moments(values) -> Moments:
    m = Moments()
    for v in values:
        m.add(v)
    return m


# ---------------------------------------------------------------- intervals on known inputs
def test_wilson_interval_of_50_wins_in_100_games_is_40_4_to_59_6_percent():
    interval = wilson(50, 100)
    assert interval.estimate == 0.5
    assert interval.low == pytest.approx(0.403832, abs=1e-6)
    assert interval.high == pytest.approx(0.596168, abs=1e-6)


def test_wilson_interval_of_no_wins_starts_at_zero_and_is_not_empty():
    interval = wilson(0, 10)
    assert (interval.estimate, interval.low) == (0.0, 0.0)
    assert interval.high == pytest.approx(0.277533, abs=1e-6)  # z^2 / (n + z^2)


def test_wilson_agrees_with_scipy_binomtest():
    for wins, games in ((1, 3), (17, 40), (333, 1000)):
        ci = scipy_stats.binomtest(wins, games).proportion_ci(method="wilson")
        assert (wilson(wins, games).low, wilson(wins, games).high) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_t_interval_of_a_mean_is_mean_plus_minus_t_times_standard_error():
    interval = mean_interval(moments([1, 2, 3, 4, 5]))
    half = 2.7764451051977987 * math.sqrt(2.5 / 5)  # t(0.975, 4) * s / sqrt(n)
    assert interval.estimate == 3
    assert (interval.low, interval.high) == pytest.approx((3 - half, 3 + half), abs=1e-12)


def test_a_mean_of_one_number_has_no_interval_and_of_equal_numbers_an_exact_one():
    assert mean_interval(moments([7])).low is None
    assert mean_interval(moments([4, 4, 4])) == mean_interval(moments([4, 4, 4])).__class__(4.0, 4.0, 4.0)


def test_paired_difference_is_the_t_interval_of_the_per_game_differences():
    base = [10, 12, 9, 14, 11, 13]
    other = [12, 13, 12, 15, 11, 16]
    d = paired_difference(moments(b - a for a, b in zip(base, other)))
    expected = scipy_stats.ttest_rel(other, base).confidence_interval()
    assert d.estimate == pytest.approx(10 / 6)  # differences 2, 1, 3, 1, 0, 3
    assert (d.low, d.high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_identical_samples_have_a_paired_difference_of_exactly_zero():
    assert paired_difference(moments([0] * 50)) == paired_difference(moments([0])).__class__(0.0, 0.0, 0.0)


def test_difference_of_independent_proportions_is_newcombes_hybrid_score_interval():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339
    d = proportion_difference(56, 70, 48, 80)
    assert d.estimate == pytest.approx(0.2)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)


def test_difference_of_independent_means_is_welchs_interval():
    one, two = [1, 2, 3, 4, 9, 5, 6], [1, 2, 3, 4, 5]
    d = mean_difference(moments(one), moments(two))
    expected = scipy_stats.ttest_ind(one, two, equal_var=False).confidence_interval()
    assert (d.low, d.high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_moments_of_a_histogram_are_those_of_its_values():
    assert Moments.of_histogram({2: 3, 5: 1}) == moments([2, 2, 2, 5])


# ---------------------------------------------------------------- configurations
def test_a_configuration_names_players_variants_and_a_bot_per_seat():
    config = parse_config("name=left; players=4; variant=crayfish:rule=pass_left; variant=flower; bot=2=random",
                          1, players=3)
    assert (config.name, config.players, config.variants) == ("left", 4, ("crayfish:rule=pass_left", "flower"))
    assert config.bots == ("random",) * 4


def test_a_configuration_without_a_name_is_named_by_what_it_changes():
    assert parse_config("", 1, players=3).name == "base"
    assert parse_config("variant=flower; players=4", 2, players=3).name == "flower, 4 players"


def test_command_variants_come_before_the_configurations_own():
    assert parse_config("variant=flower", 1, 3, variants=["crayfish"]).variants == ("crayfish", "flower")


def test_seat_bots_give_named_seats_their_bot_and_the_rest_the_default():
    from interpreter.agents import seat_seed

    assert seat_bots(["2=ismcts:iterations=3"], 3, "here") == ("random", "ismcts:iterations=3", "random")
    assert seat_bots(["greedy", "1=random"], 2, "here") == ("random", "greedy")
    config = parse_config("bot=3=ismcts:iterations=2", 1, players=3)
    agent = config.make_bot(2, 99)   # seat 3 of the game dealt with seed 99: seeded as simulate seeds it
    assert (type(agent), agent.iterations) == (AGENTS["ismcts"], 2)
    assert agent.rng.getstate() == __import__("random").Random(seat_seed(99, 2)).getstate()


@pytest.mark.parametrize("text, message", [
    ("colour=red", "--config 1 ('colour=red'): unknown key 'colour'; the keys are name, players, variant, bot"),
    ("players=three", "--config 1 ('players=three'): players: expected a whole number of players, at least 1, "
                      "got 'three'"),
    ("bot=7=random", "--config 1 ('bot=7=random'): bot '7=random': there is no seat 7 in a 3-player game "
                     "(seats are 1 to 3)"),
    ("bot=wizard", "--config 1 ('bot=wizard'): --bot 'wizard': there is no bot 'wizard'"),
    ("bot=random:depth=3", "--config 1 ('bot=random:depth=3'): --bot 'random:depth=3': "),
    ("bot=1=random; bot=1=random", "--config 1 ('bot=1=random; bot=1=random'): seat 1 is given two bots"),
    ("players", "--config 1 ('players'): item 'players' must look like key=value"),
    ("name=a; name=b", "--config 1 ('name=a; name=b'): name is given twice"),
])
def test_a_bad_configuration_is_refused_naming_the_config_and_the_item(text, message):
    with pytest.raises(ConfigError) as error:
        parse_config(text, 1, players=3)
    assert str(error.value).startswith(message)


def test_the_cli_refuses_a_bad_configuration_in_one_paragraph_with_status_2(capsys):
    code, out, err = run(capsys, "compare", FROG_TOWER, "--players", "3", "--games", "2", "--config", "",
                         "--config", "players=9")
    assert code == 2 and out == ""
    assert err == "ribbit compare: error: --config 2 ('base, 9 players'): Frog Tower is for 2-5 players, not 9\n" \
        or err.startswith("ribbit compare: error: --config 2")
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["--config", ""], "give two or more configurations to compare"),
    (["--players", "3", "--config", "", "--config", ""], "--config 2: the name 'base' is already used by --config 1"),
    (["--config", "", "--config", "variant=flower"], "--config 1 (''): how many players?"),
])
def test_compare_needs_two_named_configurations_with_a_player_count(capsys, argv, message):
    code, out, err = run(capsys, "compare", FROG_TOWER, "--games", "2", *argv)
    assert code == 2 and message in err and err.count("\n") == 1


# ---------------------------------------------------------------- running a comparison
@pytest.fixture(scope="module")
def frog_comparison():
    configs = [parse_config("", 1, 3), parse_config("variant=crayfish:rule=pass_left", 2, 3),
               parse_config("name=again", 3, 3), parse_config("players=4", 4, 3)]
    return configs, compare(FROG_TOWER, configs, 40, seed=5)


def test_identical_configurations_have_a_paired_difference_of_exactly_zero(frog_comparison):
    _, result = frog_comparison
    again = report(result)[2]["difference"]
    assert again["paired"] is True and again["games"] == 40
    zero = {"estimate": 0.0, "low": 0.0, "high": 0.0, "p": 1.0, "p_holm": 1.0}
    assert all(seat["win_share"] == zero and seat["score_mean"] == zero for seat in again["seats"])
    assert again["decisions_mean"] == again["turns_mean"] == zero
    assert all(value == zero for value in again["ended_by"].values())


def test_configurations_with_the_same_seats_are_paired_and_others_are_not(frog_comparison):
    configurations = report(frog_comparison[1])
    assert configurations[0]["difference"] is None
    assert [c["difference"]["paired"] for c in configurations[1:]] == [True, True, False]
    assert len(configurations[3]["difference"]["seats"]) == 3  # the seats both have


def test_a_paired_difference_is_the_mean_of_the_per_game_differences(frog_comparison):
    configs, result = frog_comparison
    base, variant = result.stats[0], result.stats[1]
    difference = report(result)[1]["difference"]
    for seat in range(3):
        expected = float(variant.win_shares[seat] - base.win_shares[seat]) / 40
        assert difference["seats"][seat]["win_share"]["estimate"] == pytest.approx(expected)
    assert difference["decisions_mean"]["estimate"] == pytest.approx(variant.decisions.mean - base.decisions.mean)


def test_the_first_configuration_plays_the_games_simulate_plays(capsys, frog_comparison, tmp_path):
    _, result = frog_comparison
    code, out, _ = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "40", "--seed", "5",
                       "--json", "-")
    simulated = json.loads(out)
    assert [s["wins"] for s in simulated["seats"]] == [s["wins"] for s in report(result)[0]["seats"]]
    assert simulated["decisions"]["histogram"] == report(result)[0]["decisions"]["histogram"]


def test_results_do_not_depend_on_the_number_of_jobs(frog_comparison):
    configs, result = frog_comparison
    first_two = Comparison(configs[:2], result.stats[:2], result.differences[:2])  # Holm adjusts over these two
    assert report(compare(FROG_TOWER, configs[:2], 40, seed=5, jobs=2)) == report(first_two)


def test_the_json_report_has_every_figure_with_its_interval(capsys, tmp_path):
    out_file = tmp_path / "compare.json"
    code, out, err = run(capsys, "compare", FROG_TOWER, "--players", "3", "--games", "12", "--seed", "1",
                         "--config", "", "--config", "name=pass left; variant=crayfish:rule=pass_left",
                         "--json", out_file)
    assert code == 0, err
    document = json.loads(out_file.read_text())
    assert {k: document[k] for k in ("game", "games", "seed", "confidence")} == \
        {"game": "Frog Tower", "games": 12, "seed": 1, "confidence": 0.95}
    base, left = document["configurations"]
    assert (left["name"], left["players"], left["variants"], left["bots"]) == \
        ("pass left", 3, ["crayfish:rule=pass_left"], ["random"] * 3)
    interval = {"estimate", "low", "high"}
    for config in (base, left):
        assert config["games"] == 12
        for seat in config["seats"]:
            assert set(seat["win_share"]) == interval and set(seat["score"]["mean"]) == interval
            assert {"min", "median", "max", "histogram"} <= set(seat["score"])
        assert set(config["decisions"]["mean"]) == set(config["turns"]["mean"]) == interval
        assert set(config["ended_by"]) == {"end_game", "flow", "decision_cap"}
        assert all(set(e["share"]) == interval for e in config["ended_by"].values())
    assert base["difference"] is None
    assert set(left["difference"]) == {"to", "paired", "games", "seats", "decisions_mean", "turns_mean", "ended_by"}
    assert "Win share per seat" in out and "pass left" in out and "paired: the same deals" in out


# ---------------------------------------------------------------- figures
def figure_files(folder):
    return sorted(p.name for p in folder.iterdir())


def check_figures(folder, differences=False):
    assert figure_files(folder) == ["differences.png", "differences.svg"] * differences + [
        "length.png", "length.svg", "scores.png", "scores.svg", "win_share.png", "win_share.svg"]
    for path in folder.iterdir():
        data = path.read_bytes()
        assert len(data) > 1000
        if path.suffix == ".png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n")
        else:
            assert data.lstrip().startswith(b"<?xml") and b"<svg" in data[:2000]


def test_compare_plot_writes_the_figure_set_as_png_and_svg(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    code, out, err = run(capsys, "compare", FROG_TOWER, "--players", "3", "--games", "10", "--config", "",
                         "--config", "players=4", "--plot", tmp_path / "figures")
    assert code == 0, err
    check_figures(tmp_path / "figures", differences=True)
    assert "Figures written to" in out


def test_simulate_plot_writes_the_figure_set_for_one_configuration(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    code, out, err = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "10", "--plot", tmp_path)
    assert code == 0, err
    check_figures(tmp_path)


def test_author_text_in_a_figure_is_shown_literally_not_as_mathematics():
    from interpreter.plots import label

    assert label("$\\frac{a}{b}$ \x1b[31m") == "\\$\\frac{a}{b}\\$ \\x1b[31m"


def test_plot_into_a_file_is_refused_before_any_game(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    target = tmp_path / "taken"
    target.write_text("x")
    code, _, err = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "10", "--plot", target)
    assert code == 2 and "that is a file, not a folder" in err and target.read_text() == "x"


@pytest.mark.parametrize("command", [["simulate"], ["compare", "--config", "", "--config", "players=4"]])
def test_a_figure_that_cannot_be_written_is_refused_naming_plot_and_the_file(capsys, tmp_path, command):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    (tmp_path / "figures" / "win_share.png").mkdir(parents=True)  # a folder where a figure goes
    code, _, err = run(capsys, command[0], FROG_TOWER, "--players", "3", "--games", "2", *command[1:],
                       "--plot", tmp_path / "figures")
    figure = tmp_path / "figures" / "win_share.png"
    assert code == 2 and err == (f"ribbit {command[0]}: error: --plot {tmp_path / 'figures'}: cannot write the figures "
                                 f"there: Is a directory ({figure}); name a folder you can write in\n")
    assert figure.is_dir() and not [p for p in figure.parent.iterdir() if p.name.endswith(".part")]


def test_without_matplotlib_plot_says_which_extra_to_install(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    code, out, err = run(capsys, "simulate", FROG_TOWER, "--players", "3", "--games", "10", "--plot", tmp_path)
    assert code == 2 and out == ""
    assert err == ("--plot needs matplotlib, which is not installed; install it with `pip install 'ribbit[plot]'` "
                   "(or `pip install matplotlib`)\n")


# ---------------------------------------------------------------- where the games run
def test_chunks_merged_in_any_order_give_the_same_comparison(frog_comparison):
    from interpreter.compare import Comparison, load_games, run_compare_chunk

    configs, result = frog_comparison
    games = load_games(FROG_TOWER, configs)
    parts = [run_compare_chunk(games, configs, 5, start, min(start + 7, 40), 10_000) for start in range(0, 40, 7)]
    for order in (parts, parts[::-1], parts[1::2] + parts[::2]):
        merged = Comparison.empty(configs)
        for part in order:
            merged.merge(part)
        assert report(merged) == report(result)


def test_compare_s_forked_workers_play_the_parent_s_games_without_loading_them_again(tmp_path):
    import shutil

    from interpreter import sim
    from interpreter.compare import load_games

    if sim.multiprocessing.get_start_method() != "fork":
        pytest.skip("workers are forked only where fork is the start method; elsewhere each loads the games")
    copy = tmp_path / "kaeru.yaml"
    shutil.copy(REPO_ROOT / "definitions" / "kaeru.yaml", copy)
    configs = [parse_config("", 1, 2), parse_config("bot=2=greedy", 2, 2), parse_config("name=c; bot=1=greedy", 3, 2)]
    games = load_games(copy, configs)
    copy.unlink()  # a worker that loaded the definition itself would fail now
    one = compare(copy, configs, 24, seed=3, loaded=games)
    two = compare(copy, configs, 24, seed=3, jobs=2, loaded=games)
    assert report(two) == report(one)
    assert sim._worker_games is None  # the parent does not keep the games after the run


def test_compare_address_without_the_ray_backend_is_refused(capsys):
    code, _, err = run(capsys, "compare", FROG_TOWER, "--players", "3", "--games", "2", "--config", "",
                       "--config", "name=b", "--address", "127.0.0.1:6379")
    assert code == 2 and "--address is the address of a Ray cluster: give it with --backend ray" in err
