"""Honest statistics: a game reports the length measure its flow counts (turns, rounds), distributions are
drawn in bins of whole values, and `compare --plot` draws each configuration's difference from the first with
the interval and the multiple-comparison correction (Holm) its table shows."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("scipy", reason="confidence intervals need the 'stats' extra (scipy)")

from interpreter import load_game  # noqa: E402
from interpreter.cli import main  # noqa: E402
from interpreter.compare import adjust, compare, comparison_measures, parse_config, report  # noqa: E402
from interpreter.sim import SimStats, Tally, length_measures  # noqa: E402
from interpreter.stats import Moments, holm, paired_p_value, proportion_p_value, welch_p_value  # noqa: E402

from conftest import REPO_ROOT  # noqa: E402

DEFS = REPO_ROOT / "tests" / "definitions"
ROUNDS_ONLY = DEFS / "simultaneous.yaml"  # a flow of one round phase
BOTH = DEFS / "rounds.yaml"  # round phases and a turn phase
FROG_TOWER = REPO_ROOT / "definitions" / "frog_tower.yaml"  # one turn phase


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- the measure the game has
def test_length_measures_are_what_the_flow_counts():
    assert length_measures(load_game(ROUNDS_ONLY)) == ("rounds",)
    assert length_measures(load_game(BOTH)) == ("turns", "rounds")
    assert length_measures(load_game(FROG_TOWER)) == ("turns",)


def test_simulate_reports_rounds_for_a_round_based_game_and_no_turns(capsys):
    code, out, err = run(capsys, "simulate", ROUNDS_ONLY, "--players", "2", "--games", "6", "--json", "-")
    assert code == 0, err
    document = json.loads(out)
    assert "turns" not in document and document["rounds"]["min"] >= 1
    code, out, err = run(capsys, "simulate", ROUNDS_ONLY, "--players", "2", "--games", "6")
    assert "  rounds " in out and "  turns " not in out


def test_compare_reports_rounds_for_a_round_based_game_in_the_table_and_the_json(capsys, tmp_path):
    code, out, err = run(capsys, "compare", ROUNDS_ONLY, "--players", "2", "--games", "8", "--config", "",
                         "--config", "name=three; players=3", "--json", tmp_path / "c.json")
    assert code == 0, err
    assert "rounds per game" in out and "turns per game" not in out
    base, three = json.loads((tmp_path / "c.json").read_text())["configurations"]
    assert "turns" not in base and base["rounds"]["mean"]["estimate"] >= 1
    assert "rounds_mean" in three["difference"] and "turns_mean" not in three["difference"]


def test_a_game_with_turns_and_rounds_reports_both_and_pairs_the_rounds():
    game = load_game(BOTH)
    configs = [parse_config("", 1, 2), parse_config("name=again", 2, 2)]
    configurations = report(compare(BOTH, configs, 6, seed=3), measures=comparison_measures([game]))
    assert {"turns", "rounds"} <= set(configurations[0])
    again = configurations[1]["difference"]
    assert again["paired"] and again["rounds_mean"]["estimate"] == again["turns_mean"]["estimate"] == 0.0


# ---------------------------------------------------------------- bins of whole values
def test_a_narrow_distribution_has_one_bin_per_whole_value():
    from interpreter.plots import bin_edges

    edges = bin_edges([3, 5, 9])
    assert edges == [2.5 + k for k in range(8)]


@pytest.mark.parametrize("low, high", [(0, 60), (0, 61), (15, 77), (100, 1000), (-40, 300), (7, 7)])
def test_a_wide_distribution_has_bins_of_equal_whole_width_with_half_integer_edges(low, high):
    from interpreter.plots import MAX_BARS, bin_edges

    edges = bin_edges([low, high])
    widths = {edges[k + 1] - edges[k] for k in range(len(edges) - 1)}
    assert len(widths) == 1 and float(widths.pop()).is_integer()
    assert all((e - 0.5).is_integer() for e in edges)
    assert len(edges) - 1 <= MAX_BARS and edges[0] == low - 0.5 and edges[-1] >= high + 0.5
    width = int(edges[1] - edges[0])
    assert edges[-1] - width < high + 0.5  # no empty bin at the end
    if high - low + 1 <= MAX_BARS:
        assert width == 1


def test_the_histogram_drawn_puts_each_game_in_one_bin_and_sums_to_one():
    from interpreter.plots import distribution_data

    tally = Tally()
    rng = random.Random(1)
    for _ in range(500):
        tally.add(rng.randrange(20, 200))
    edges, shares = distribution_data(tally)
    width = int(edges[1] - edges[0])
    assert width == 3 and sum(shares) == pytest.approx(1.0)
    for value, times in tally.histogram.items():
        k = next(i for i in range(len(shares)) if edges[i] < value < edges[i + 1])
        assert sum(tally.histogram.get(v, 0) for v in range(int(edges[k] + 0.5), int(edges[k + 1] + 0.5))) \
            == pytest.approx(shares[k] * tally.count)


# ---------------------------------------------------------------- several comparisons at once
def test_holm_multiplies_the_kth_smallest_p_by_m_minus_k_plus_1_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.2, None, 0.9]) == [0.4, None, 0.9]
    assert holm([0.6, 0.7]) == [1.0, 1.0]


def test_the_p_values_are_those_of_the_tests_behind_the_intervals():
    from scipy import stats as scipy_stats

    diffs = [1, -2, 3, 0, 2, 4, -1, 2]
    m = Moments()
    for d in diffs:
        m.add(d)
    assert paired_p_value(m) == pytest.approx(scipy_stats.ttest_1samp(diffs, 0).pvalue)
    a, b = [3, 5, 6, 9, 2], [1, 2, 2, 4, 3, 1]
    ma, mb = Moments(), Moments()
    for x in a:
        ma.add(x)
    for x in b:
        mb.add(x)
    assert welch_p_value(ma, mb) == pytest.approx(scipy_stats.ttest_ind(a, b, equal_var=False).pvalue)
    z = (30 / 100 - 20 / 100) / ((50 / 200) * (150 / 200) * (2 / 100)) ** 0.5
    assert proportion_p_value(30, 100, 20, 100) == pytest.approx(2 * scipy_stats.norm.sf(z))


@pytest.fixture(scope="module")
def frog_plot(tmp_path_factory):
    folder = tmp_path_factory.mktemp("figures")
    code = main(["compare", str(FROG_TOWER), "--players", "3", "--games", "30", "--seed", "2", "--config", "",
                 "--config", "name=leaf; variant=leaf_to_box", "--config", "name=four; players=4",
                 "--json", str(folder / "c.json"), "--plot", str(folder / "plots")])
    assert code == 0
    return folder


def test_the_json_adjusts_every_p_value_within_its_table(frog_plot):
    document = json.loads((frog_plot / "c.json").read_text())
    configurations = document["configurations"]
    assert document["multiple_comparisons"] == {"method": "holm", "comparisons": {
        "win_share": 6, "score_mean": 6, "length": 4, "ended_by": 6}}
    wins = [seat["win_share"] for c in configurations[1:] for seat in c["difference"]["seats"]]
    assert [w["p_holm"] for w in wins] == pytest.approx(holm([w["p"] for w in wins]))
    assert all(w["p_holm"] >= w["p"] for w in wins)


def test_compare_says_when_several_comparisons_are_made_at_once(capsys):
    code, out, err = run(capsys, "compare", FROG_TOWER, "--players", "3", "--games", "10", "--config", "",
                         "--config", "name=leaf; variant=leaf_to_box")
    assert code == 0, err
    flat = " ".join(out.split())
    assert "p (Holm)" in out
    assert "11 comparisons are made at once (3 of win share, 3 of score, 2 of length, 3 of endings)" in flat
    assert "adjusted by Holm's method" in flat


def test_compare_plot_draws_each_configurations_difference_per_seat_with_the_tables_interval(frog_plot):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    from interpreter.plots import difference_data

    for extension in ("png", "svg"):
        assert (frog_plot / "plots" / f"differences.{extension}").stat().st_size > 1000
    configurations = json.loads((frog_plot / "c.json").read_text())["configurations"]
    rows = difference_data(configurations)
    assert {(r["configuration"], r["seat"]) for r in rows} == {(n, s) for n in ("leaf", "four") for s in (1, 2, 3)}
    for row in rows:
        config = next(c for c in configurations if c["name"] == row["configuration"])
        tested = config["difference"]["seats"][row["seat"] - 1][row["measure"]]
        assert (row["estimate"], row["low"], row["high"], row["p_holm"]) == \
            (tested["estimate"], tested["low"], tested["high"], tested["p_holm"])
        assert row["paired"] == (row["configuration"] == "leaf")
    svg = (frog_plot / "plots" / "differences.svg").read_text()  # matplotlib keeps each text in a comment
    assert "comparisons are made at once" in svg and "p: Holm-adjusted" in svg


def test_the_length_figure_of_a_round_based_game_draws_rounds(capsys, tmp_path):
    pytest.importorskip("matplotlib", reason="figures need the 'plot' extra (matplotlib)")
    code, out, err = run(capsys, "simulate", ROUNDS_ONLY, "--players", "2", "--games", "6", "--plot", tmp_path)
    assert code == 0, err
    svg = (tmp_path / "length.svg").read_text()
    assert "rounds per game" in svg and "turns per game" not in svg
