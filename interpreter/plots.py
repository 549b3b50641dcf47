"""Figures of simulation statistics (PNG and SVG), drawn with matplotlib (the optional ``plot`` extra).

One figure set per run, in one folder: ``win_share`` (each seat's share of the wins with its 95%
interval, one bar per configuration), ``scores`` (the distribution of final scores, one panel per
seat) and ``length`` (the distributions of decisions and of the turns or rounds the game counts per
game); a comparison adds ``differences`` (each configuration's difference from the first, per seat,
with the interval and the Holm-adjusted p-value its table shows).  Distributions are drawn in bins
of whole values (:func:`bin_edges`).  Only running statistics are used (histograms), so plotting a
run of any length costs the same.  Every file is written under a temporary name and renamed into
place.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import inert
from .stats import CONFIDENCE, MissingExtraError, mean_interval, Moments, wilson

FIGURES = ("win_share", "scores", "length", "differences")
FORMATS = ("png", "svg")
MAX_BARS = 60  # a distribution over more whole values than this is drawn in bins of several values


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtraError("--plot needs matplotlib, which is not installed; install it with "
                                "`pip install 'ribbit[plot]'` (or `pip install matplotlib`)") from None
    matplotlib.rcParams["svg.hashsalt"] = "ribbit"  # the same figure gives the same SVG file
    return Figure


def label(text: str) -> str:
    """Author or user text as matplotlib shows it literally: inert, and no ``$...$`` mathematics."""
    return inert(str(text)).replace("$", r"\$")  # an escaped dollar is shown as a dollar, never starts mathematics


def plot_runs(folder, title: str, runs, confidence: float = CONFIDENCE, measures=("turns",),
              configurations=None) -> list[str]:
    """Write the figure set for ``runs`` [(name, SimStats), ...] into ``folder``; returns the files written.

    ``measures`` are the lengths the game counts (:func:`interpreter.sim.length_measures`); ``configurations``,
    a comparison's report (:func:`interpreter.compare.report`), adds the figure of the differences."""
    Figure = _matplotlib()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    draws = [("win_share", _win_shares), ("scores", _scores),
             ("length", lambda *a: _lengths(*a, measures=measures))]
    if configurations is not None and len(configurations) > 1:
        draws.append(("differences", lambda F, t, r, c: _differences(F, t, configurations, c)))
    for name, draw in draws:
        figure = draw(Figure, label(title), [(label(n), s) for n, s in runs], confidence)
        for extension in FORMATS:
            written.append(_save(figure, folder / f"{name}.{extension}", extension))
    return written


def bin_edges(values) -> list:
    """The histogram bins of whole numbers: edges at half-integers, every bin ``width`` whole values wide.

    One bin per value while the range has at most MAX_BARS values; beyond, the smallest whole width that
    needs at most MAX_BARS bins.  Every bin covers the same number of whole values, so a bin never shows a
    false spike (or gap) from holding more (or fewer) values than its neighbours."""
    values = [int(v) for v in values]
    if not values:
        return []
    low, high = min(values), max(values)
    width = -(-(high - low + 1) // MAX_BARS)  # ceiling division
    bins = -(-(high - low + 1) // width)
    return [low - 0.5 + width * k for k in range(bins + 1)]


def distribution_data(tally) -> tuple:
    """(edges, share of games in each bin) of a Tally, as the figures draw it."""
    edges = bin_edges(tally.histogram)
    counts = [0] * (len(edges) - 1)
    if edges:
        width = int(edges[1] - edges[0])
        for value, times in tally.histogram.items():
            counts[int(value - edges[0] - 0.5) // width] += times
    return edges, [c / tally.count for c in counts] if tally.count else counts


def difference_data(configurations) -> list:
    """What the differences figure draws: per configuration after the first, per seat, the difference in win
    share and in mean score from the first configuration, each with its interval and Holm-adjusted p-value
    (the numbers of the comparison's table and JSON)."""
    rows = []
    for c in configurations[1:]:
        d = c["difference"]
        for seat in d["seats"]:
            for measure in ("win_share", "score_mean"):
                tested = seat[measure]
                rows.append({"configuration": c["name"], "seat": seat["seat"], "measure": measure,
                             "paired": d["paired"], "estimate": tested["estimate"], "low": tested["low"],
                             "high": tested["high"], "p_holm": tested.get("p_holm")})
    return rows


def _save(figure, path: Path, extension: str) -> str:
    """Write one figure under a temporary name, then rename it to ``path``; an OSError names ``path``."""
    try:
        return _write_figure(figure, path, extension)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def _write_figure(figure, path: Path, extension: str) -> str:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        os.fchmod(handle, 0o666 & ~_umask())  # mkstemp makes 0600: give what a plain open() would, as --json does
        with os.fdopen(handle, "wb") as out:
            figure.savefig(out, format=extension, dpi=120, bbox_inches="tight",
                           metadata={"Date": None} if extension == "svg" else None)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    return str(path)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _colours(count: int) -> list:
    from matplotlib import colormaps

    palette = colormaps["tab10"]
    return [palette(i % 10) for i in range(count)]


def _win_shares(Figure, title, runs, confidence):
    seats = max(stats.players for _, stats in runs)
    figure = Figure(figsize=(max(6.0, 1.4 * seats * max(1, len(runs)) / 2 + 3), 4.5))
    axes = figure.subplots()
    width = 0.8 / len(runs)
    for k, ((name, stats), colour) in enumerate(zip(runs, _colours(len(runs)))):
        shares = [wilson(stats.win_shares[s], stats.games, confidence) for s in range(stats.players)]
        xs = [s + (k - (len(runs) - 1) / 2) * width for s in range(stats.players)]
        heights = [i.estimate or 0.0 for i in shares]
        errors = [[h - (i.low if i.low is not None else h) for h, i in zip(heights, shares)],
                  [(i.high if i.high is not None else h) - h for h, i in zip(heights, shares)]]
        axes.bar(xs, heights, width * 0.92, yerr=errors, capsize=4, color=colour, edgecolor="black",
                 linewidth=0.5, error_kw={"elinewidth": 1.2}, label=f"{name} ({stats.games} games)")
    counts = {stats.players for _, stats in runs}
    for players, style in zip(sorted(counts), ("--", ":", "-.", (0, (5, 5)))):
        axes.axhline(1 / players, color="dimgrey", linestyle=style, linewidth=1.2,
                     label=f"equal share, {players} players (1/{players})")
    axes.set_xticks(range(seats), [f"player {s + 1}" for s in range(seats)])
    axes.set_xlabel("seat")
    axes.set_ylabel(f"share of the wins (bars: {confidence:.0%} interval)")
    axes.set_ylim(0, min(1.0, max(0.05, max(_top(stats, confidence) for _, stats in runs) * 1.25)))
    axes.yaxis.set_major_formatter(_percent())
    axes.set_title(f"{title}: win share per seat")
    axes.legend(fontsize="small", loc="upper right")
    axes.grid(axis="y", alpha=0.3)
    return figure


def _top(stats, confidence) -> float:
    highs = [wilson(stats.win_shares[s], stats.games, confidence).high for s in range(stats.players)]
    return max([h for h in highs if h is not None] or [1.0])


def _percent():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(1.0, decimals=None)


def _distribution(axes, runs, tallies, xlabel, confidence, colours):
    """Per run, the share of games at each value (binned when there are many), and the mean with its interval."""
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    values = sorted({v for t in tallies for v in t.histogram})
    if not values:
        axes.text(0.5, 0.5, "no finished game", ha="center", va="center", transform=axes.transAxes)
        return
    edges = np.array(bin_edges(values))
    width = int(edges[1] - edges[0])
    top = 0.0
    for (name, _), tally, colour in zip(runs, tallies, colours):
        if not tally.count:
            continue
        weights = np.array([tally.histogram[v] for v in sorted(tally.histogram)], dtype=float) / tally.count
        shares, _ = np.histogram(sorted(tally.histogram), bins=edges, weights=weights)
        top = max(top, float(shares.max()))
        axes.stairs(shares, edges, color=colour, linewidth=1.6, label=name)
        mean = mean_interval(Moments.of_histogram(tally.histogram), confidence)
        axes.axvline(mean.estimate, color=colour, linestyle=":", linewidth=1.2)
        if mean.low is not None and mean.high > mean.low:
            axes.axvspan(mean.low, mean.high, color=colour, alpha=0.15, linewidth=0)
    axes.set_ylim(0, top * 1.15 or 1)
    if width == 1 and len(edges) - 1 <= 20:  # few whole values: a tick at each (a locator may pick fractions)
        axes.set_xticks([int(e + 0.5) for e in edges[:-1]])
    else:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of games" + (f" (bins of {width} values)" if width > 1 else ""))
    axes.yaxis.set_major_formatter(_percent())
    axes.grid(alpha=0.3)


def _scores(Figure, title, runs, confidence):
    seats = max(stats.players for _, stats in runs)
    columns = min(seats, 3)
    rows = (seats + columns - 1) // columns
    figure = Figure(figsize=(4.6 * columns, 3.6 * rows + 0.8), layout="constrained")
    grid = figure.subplots(rows, columns, squeeze=False)
    colours = _colours(len(runs))
    for seat in range(rows * columns):
        axes = grid[seat // columns][seat % columns]
        if seat >= seats:
            axes.set_visible(False)
            continue
        present = [k for k, (_, stats) in enumerate(runs) if seat < stats.players]
        _distribution(axes, [runs[k] for k in present], [runs[k][1].scores[seat] for k in present], "final score",
                      confidence, [colours[k] for k in present])
        axes.set_title(f"player {seat + 1}")
    handles, names = grid[0][0].get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=min(4, len(runs)), fontsize="small")
    figure.suptitle(f"{title}: final scores per seat (finished games; dotted: mean, "
                    f"band: its {confidence:.0%} interval)")
    return figure


def _lengths(Figure, title, runs, confidence, measures=("turns",)):
    shown = ("decisions",) + tuple(measures)
    figure = Figure(figsize=(5 * len(shown), 4.2), layout="constrained")
    panels = figure.subplots(1, len(shown), squeeze=False)[0]
    colours = _colours(len(runs))
    for axes, measure in zip(panels, shown):
        _distribution(axes, runs, [getattr(stats, measure) for _, stats in runs], f"{measure} per game", confidence,
                      colours)
        axes.set_title(measure)
    left = panels[0]
    handles, names = left.get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=min(4, len(runs)), fontsize="small")
    figure.suptitle(f"{title}: game length (dotted: mean, band: its {confidence:.0%} interval)")
    return figure


def _difference_bars(axes, mine: list, xs: list, scale: float, colour, name: str) -> None:
    """One configuration's differences on one panel: a point per seat with its interval, and its Holm p-value."""
    ys = [scale * r["estimate"] for r in mine]
    errors = [[scale * (r["estimate"] - r["low"]) if r["low"] is not None else 0 for r in mine],
              [scale * (r["high"] - r["estimate"]) if r["high"] is not None else 0 for r in mine]]
    how = "paired" if mine and mine[0]["paired"] else "independent"
    axes.errorbar(xs, ys, yerr=errors, fmt="o", capsize=5, color=colour, label=label(f"{name} ({how})"))
    for x, y, r in zip(xs, ys, mine):
        if r["p_holm"] is not None:
            axes.annotate(f"p={r['p_holm']:.3f}" if r["p_holm"] >= 0.001 else "p<0.001", (x, y),
                          textcoords="offset points", xytext=(6, 4), fontsize="x-small")


def _differences(Figure, title, configurations, confidence):
    """Per seat, each configuration's difference from the first (win share, mean score) with its interval."""
    from .compare import comparison_note

    rows = difference_data(configurations)
    others = [c["name"] for c in configurations[1:]]
    seats = max(row["seat"] for row in rows) if rows else 1
    figure = Figure(figsize=(max(8.0, 1.2 * seats * len(others) + 4), 5.2), layout="constrained")
    panels = figure.subplots(1, 2)
    colours = _colours(len(configurations))[1:]
    width = 0.8 / max(1, len(others))
    for axes, measure, scale, unit in ((panels[0], "win_share", 100, "percentage points"),
                                       (panels[1], "score_mean", 1, "points")):
        for k, (name, colour) in enumerate(zip(others, colours)):
            mine = [r for r in rows if r["configuration"] == name and r["measure"] == measure and r["estimate"] is not None]
            xs = [r["seat"] - 1 + (k - (len(others) - 1) / 2) * width for r in mine]
            _difference_bars(axes, mine, xs, scale, colour, name)
        axes.axhline(0, color="black", linewidth=1)
        axes.set_xticks(range(seats), [f"player {s + 1}" for s in range(seats)])
        axes.set_xlabel("seat")
        axes.set_ylabel(f"difference, {unit} ({confidence:.0%} interval)")
        axes.set_title("win share" if measure == "win_share" else "mean score (finished games)")
        axes.grid(axis="y", alpha=0.3)
    panels[0].legend(fontsize="small")
    base = label(configurations[0]["name"])
    figure.suptitle(f"{title}: difference from {base!r} per seat (p: Holm-adjusted)")
    note = comparison_note(configurations, confidence)
    if note:
        import textwrap

        figure.text(0.5, -0.02, "\n".join(textwrap.wrap(label(note), 150)), ha="center", va="top", fontsize="small")
    return figure
