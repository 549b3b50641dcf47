"""Confidence intervals for simulation statistics.

Everything here works on running totals (counts, sums, sums of squares), never on lists of
games, so a run of any length keeps its memory flat.  Intervals are two-sided, 95% unless
told otherwise:

- a proportion (a seat's share of the wins, the share of games that ended one way): Wilson's
  score interval;
- a mean (a score, a game's length): Student's t interval;
- the difference of two configurations played on the same seeds (paired): the t interval of
  the per-game differences;
- the difference of two independent proportions: Newcombe's hybrid score interval (from the two
  Wilson intervals); of two independent means: Welch's t interval.

The quantiles come from ``scipy.stats`` (a core dependency: the intervals equal scipy's), imported when
first needed, since loading it takes a moment that the other commands need not pay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .errors import RibbitError

CONFIDENCE = 0.95


class MissingExtraError(RibbitError):
    """An optional dependency (an extra of the package) is not installed."""


def _scipy_stats():
    from scipy import stats

    return stats


def z_quantile(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile (1.959964 for 95%)."""
    return float(_scipy_stats().norm.ppf(0.5 + confidence / 2))


def t_quantile(df: float, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student's t quantile with ``df`` degrees of freedom."""
    return float(_scipy_stats().t.ppf(0.5 + confidence / 2, df))


@dataclass(frozen=True)
class Interval:
    """An estimate and its confidence interval; ``low``/``high`` are None when the data cannot give one."""

    estimate: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


NO_INTERVAL = Interval(None, None, None)


@dataclass
class Moments:
    """Running count, sum and sum of squares of numbers (kept exact: ints or fractions)."""

    count: int = 0
    total: int | Fraction = 0
    squares: int | Fraction = 0

    def add(self, value) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: "Moments") -> None:
        self.count += other.count
        self.total += other.total
        self.squares += other.squares

    @classmethod
    def of_histogram(cls, histogram: dict) -> "Moments":
        """The moments of whole numbers given as ``{value: how many times}``."""
        return cls(sum(histogram.values()), sum(v * k for v, k in histogram.items()),
                   sum(v * v * k for v, k in histogram.items()))

    @property
    def mean(self):
        return Fraction(self.total) / self.count if self.count else None

    @property
    def variance(self):
        """The sample variance (n - 1 in the denominator), exact; None for fewer than two numbers."""
        if self.count < 2:
            return None
        n = self.count
        return (Fraction(self.squares) - Fraction(self.total) ** 2 / n) / (n - 1)


def wilson(successes, trials: int, confidence: float = CONFIDENCE) -> Interval:
    """Wilson's score interval for a proportion of ``successes`` in ``trials`` (successes may be fractional:
    a shared victory counts as a share of a win)."""
    if trials <= 0:
        return NO_INTERVAL
    p = float(successes) / trials
    z = z_quantile(confidence)
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(max(0.0, p * (1 - p) / trials + z2n / (4 * trials)))
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(moments: Moments, confidence: float = CONFIDENCE) -> Interval:
    """Student's t interval for the mean of the numbers summed in ``moments``."""
    if not moments.count:
        return NO_INTERVAL
    mean = float(moments.mean)
    variance = moments.variance
    if variance is None:
        return Interval(mean, None, None)
    if variance == 0:  # every number equal: the interval is the number itself, exactly
        return Interval(mean, mean, mean)
    half = t_quantile(moments.count - 1, confidence) * math.sqrt(float(variance) / moments.count)
    return Interval(mean, mean - half, mean + half)


def paired_difference(differences: Moments, confidence: float = CONFIDENCE) -> Interval:
    """The mean of per-game differences (same seed, two configurations) with its t interval."""
    return mean_interval(differences, confidence)


def proportion_difference(successes: float, trials: int, base_successes: float, base_trials: int,
                          confidence: float = CONFIDENCE) -> Interval:
    """p - p_base for two independent proportions, with Newcombe's hybrid score interval."""
    if trials <= 0 or base_trials <= 0:
        return NO_INTERVAL
    one, two = wilson(successes, trials, confidence), wilson(base_successes, base_trials, confidence)
    d = one.estimate - two.estimate
    low = d - math.sqrt((one.estimate - one.low) ** 2 + (two.high - two.estimate) ** 2)
    high = d + math.sqrt((one.high - one.estimate) ** 2 + (two.estimate - two.low) ** 2)
    return Interval(d, low, high)


def mean_difference(moments: Moments, base: Moments, confidence: float = CONFIDENCE) -> Interval:
    """mean - mean_base for two independent samples, with Welch's t interval."""
    if not moments.count or not base.count:
        return NO_INTERVAL
    d = float(moments.mean - base.mean)
    if moments.variance is None or base.variance is None:
        return Interval(d, None, None)
    a, b = float(moments.variance) / moments.count, float(base.variance) / base.count
    if a + b == 0:
        return Interval(d, d, d)
    df = (a + b) ** 2 / ((a * a / (moments.count - 1) if a else 0) + (b * b / (base.count - 1) if b else 0))
    half = t_quantile(df, confidence) * math.sqrt(a + b)
    return Interval(d, d - half, d + half)


# ---------------------------------------------------------------- several comparisons at once
def _t_p_value(estimate: float, variance_of_mean: float, df: float) -> float:
    """The two-sided p-value of a t statistic (a mean difference over its standard error)."""
    if variance_of_mean == 0:
        return 1.0 if estimate == 0 else 0.0
    t = abs(estimate) / math.sqrt(variance_of_mean)
    return float(2 * _scipy_stats().t.sf(t, df))


def paired_p_value(differences: Moments) -> float | None:
    """The paired t test that the mean per-game difference is 0 (the test behind :func:`paired_difference`)."""
    if differences.count < 2:
        return None
    return _t_p_value(float(differences.mean), float(differences.variance) / differences.count, differences.count - 1)


def welch_p_value(moments: Moments, base: Moments) -> float | None:
    """Welch's t test that two independent means are equal (the test behind :func:`mean_difference`)."""
    if moments.count < 2 or base.count < 2:
        return None
    a, b = float(moments.variance) / moments.count, float(base.variance) / base.count
    d = float(moments.mean - base.mean)
    if a + b == 0:
        return _t_p_value(d, 0, 1)
    df = (a + b) ** 2 / ((a * a / (moments.count - 1) if a else 0) + (b * b / (base.count - 1) if b else 0))
    return _t_p_value(d, a + b, df)


def proportion_p_value(successes: float, trials: int, base_successes: float, base_trials: int) -> float | None:
    """The two-proportion z test (pooled) that two independent proportions are equal."""
    if trials <= 0 or base_trials <= 0:
        return None
    p, q = float(successes) / trials, float(base_successes) / base_trials
    pooled = (float(successes) + float(base_successes)) / (trials + base_trials)
    variance = pooled * (1 - pooled) * (1 / trials + 1 / base_trials)
    if variance == 0:
        return 1.0 if p == q else 0.0
    return float(2 * _scipy_stats().norm.sf(abs(p - q) / math.sqrt(variance)))


def holm(p_values: list) -> list:
    """Holm's step-down adjustment of p-values tested together (None, for a test that could not be made, stays
    None and does not count): the k-th smallest of m is multiplied by m - k + 1, kept non-decreasing, capped at 1.
    An adjusted p below 1 - confidence is a difference shown at that level for all the comparisons together."""
    order = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted, running = list(p_values), 0.0
    for rank, (p, i) in enumerate(order):
        running = max(running, min(1.0, (len(order) - rank) * p))
        adjusted[i] = running
    return adjusted
