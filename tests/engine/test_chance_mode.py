"""Chance mode: every random event is a chance node decided from outside, with the seeded run's distribution.

A game started with ``new_game(..., chance=True)`` stops at each random event (a roll, a ``random`` pick,
a ``shuffled`` list, the next undecided position of a shuffled hidden zone) and lists its outcomes with
their probabilities; ``apply_chance`` runs the rules on.  Sampling those outcomes by their probabilities
plays the same distribution of games as seeded runs (chi-square, fixed seeds, and a biased sampler that
the same check catches), and each shipped game's opening is dealt with the exact probabilities of a
uniform shuffle of its cards (goodness of fit; a biased sampler fails it); a copy taken after a shuffle
holds no order for the shuffled zone; every shipped game and variant plays to its end; saves, clones,
undo and determinisation keep working.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest

from conftest import REPO_ROOT
from interpreter import IllegalActionError, RuleError, SaveFileError, load_game
from interpreter.chance import CHANCE_PLAYER, undecided
from interpreter.runtime.chance import MAX_OUTCOMES, Unresolved, raw
from interpreter.state import State
from test_conformance import CONFIGURATIONS, shipped_game

scipy_stats = pytest.importorskip("scipy.stats")

P_FLOOR = 0.001  # a true match falls below this one time in a thousand; the seeds are fixed, so never flaky

DRAWS = """\
game: Draws
players: {min: 2, max: 2}
components:
  - {name: ace, count: 3, zone: deck}
  - {name: king, count: 2, zone: deck}
  - {name: queen, zone: deck}
  - {name: jack, zone: deck}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  table: {visibility: public}
game_variables:
  die: 0
  pick: 0
  first: 0
setup:
  - step: deal
    do: |
      shuffle deck
      move top(deck) to hand(seat(1))
      move bottom(deck) to hand(seat(2))
  - step: dice
    do: |
      game.die = roll(6)
      game.pick = random([1, 1, 2, 3])
      game.first = first(shuffled([10, 20, 30, 20])) * 100 + last(shuffled([1, 2, 3]))
procedures:
  take_turn(player p): |
    ask p to choose one of ["draw", "stop"] as what "go"
    if what == "stop":
      end game
    move top(deck) to table
    if size(deck) == 0:
      end game
flow:
  - turn: take_turn
"""


@pytest.fixture(scope="module")
def draws(tmp_path_factory):
    path = tmp_path_factory.mktemp("chance") / "draws.yaml"
    path.write_text(DRAWS, encoding="utf-8")
    return load_game(path)


def by_probability(rng):
    """A sampler choosing each outcome with its probability."""
    def choose(outcomes):
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    return choose


def uniformly(rng):
    """A sampler choosing among the outcomes uniformly (explores rare outcomes; not the game's distribution)."""
    return lambda outcomes: rng.choice(outcomes)[0]


def biased(rng):
    """A sampler that favours the outcomes listed last (weight times 1, 2, 3...): the check must catch it."""
    def choose(outcomes):
        return rng.choices([o for o, _ in outcomes], [p * (i + 1) for i, (_, p) in enumerate(outcomes)])[0]
    return choose


def settle(state, choose, outcomes_seen=None):
    """Apply chance outcomes chosen by ``choose`` until a decision (or the end)."""
    while state.is_chance():
        outcomes = state.chance_outcomes()
        if outcomes_seen is not None:
            outcomes_seen.append(outcomes)
        state.apply_chance(choose(outcomes))
    return state


def play_opening(game, players, decisions, *, seed=None, choose=None, bot_seed=0):
    """A game to its ``decisions``-th decision, seeded (``seed``) or in chance mode (outcomes by ``choose``)."""
    bot = random.Random(bot_seed)
    state = game.new_game(players, seed=seed or 0, chance=choose is not None)
    for _ in range(decisions):
        if choose is not None:
            settle(state, choose)
        if state.is_terminal():
            break
        player = state.current_players()[0]
        state.apply_id(player, state.sample_action_id(player, bot))
    if choose is not None:
        settle(state, choose)
    return state


def same_distribution(a: list, b: list) -> float:
    """The chi-square p-value that samples ``a`` and ``b`` come from one distribution (rare values pooled)."""
    counts_a, counts_b = Counter(a), Counter(b)
    values = sorted(set(counts_a) | set(counts_b), key=repr)
    rows, rare = [], [0, 0]
    for v in values:
        if counts_a[v] + counts_b[v] < 10:
            rare[0] += counts_a[v]
            rare[1] += counts_b[v]
        else:
            rows.append([counts_a[v], counts_b[v]])
    if sum(rare):
        rows.append(rare)
    if len(rows) < 2:
        return 1.0
    return scipy_stats.chi2_contingency(list(zip(*rows)))[1]


def names(state, label):
    g = state.game
    return [g.card_names[c] for c in raw(state.zones[g.zone_index(label)])]


def draws_outcome(state):
    """What the test definition's opening decided: the two cards dealt, then the die, pick and first player."""
    return (names(state, "hand(1)")[0], names(state, "hand(2)")[0], state.gv["die"], state.gv["pick"],
            state.gv["first"])


# ---------------------------------------------------------------- (a) the seeded run's distribution
def test_sampled_outcomes_deal_roll_and_pick_as_the_seeded_runs_do(draws):
    seeded = [draws_outcome(draws.new_game(2, seed=seed)) for seed in range(3000)]
    rng = random.Random(11)
    chance = [draws_outcome(play_opening(draws, 2, 0, choose=by_probability(rng))) for _ in range(3000)]
    for part in range(5):
        p = same_distribution([o[part] for o in seeded], [o[part] for o in chance])
        assert p > P_FLOOR, f"part {part} of the opening: p = {p}"
    p = same_distribution([o[:2] for o in seeded], [o[:2] for o in chance])  # the two dealt cards together
    assert p > P_FLOOR, p


def test_draws_from_a_shuffled_deck_after_decisions_are_the_seeded_runs_draws(draws):
    def table(state):
        return tuple(names(state, "table"))

    seeded = [table(play_opening(draws, 2, 3, seed=seed, bot_seed=seed)) for seed in range(2000)]
    rng = random.Random(12)
    chance = [table(play_opening(draws, 2, 3, choose=by_probability(rng), bot_seed=seed)) for seed in range(2000)]
    assert same_distribution(seeded, chance) > P_FLOOR


MORE = DRAWS.replace("  table: {visibility: public}\n", "  table: {visibility: public}\n  stash: {visibility: hidden}\n") \
    .replace("  first: 0\n", "  first: 0\n  where: 0\n").replace("procedures:\n", """\
  - step: more
    do: |
      let r = random(deck)
      game.where = position(r)
      move r to table
      move deck[1] to table
      move deck to stash
      move top(stash) to table
      move stash to deck
procedures:
""")


def test_picks_positions_indexes_and_whole_zone_moves_of_an_undecided_zone_are_the_seeded_runs(tmp_path):
    path = tmp_path / "more.yaml"
    path.write_text(MORE, encoding="utf-8")
    game = load_game(path)

    def seen(state):
        return (tuple(names(state, "table")), state.gv["where"], tuple(sorted(names(state, "deck"))))

    seeded = [seen(game.new_game(2, seed=seed)) for seed in range(3000)]
    rng = random.Random(14)
    chance = [seen(play_opening(game, 2, 0, choose=by_probability(rng))) for _ in range(3000)]
    for part in range(3):
        p = same_distribution([o[part] for o in seeded], [o[part] for o in chance])
        assert p > P_FLOOR, (part, p)
    assert same_distribution([o[0][:2] for o in seeded], [o[0][:2] for o in chance]) > P_FLOOR


def test_the_distribution_check_catches_a_biased_sampler(draws):
    seeded = [draws_outcome(draws.new_game(2, seed=seed)) for seed in range(3000)]
    rng = random.Random(11)
    skewed = [draws_outcome(play_opening(draws, 2, 0, choose=biased(rng))) for _ in range(3000)]
    assert same_distribution([o[0] for o in seeded], [o[0] for o in skewed]) < P_FLOOR
    assert same_distribution([o[3] for o in seeded], [o[3] for o in skewed]) < P_FLOOR


def start_counts(game, zone: str, value, keep=lambda card: True) -> Counter:
    """How many cards of each ``value(card)`` the definition puts in ``zone`` at the start (before any shuffle):
    what a uniform shuffle deals from, read from the components, not from any run."""
    return Counter(value(c) for c in range(len(game.card_names)) if game.card_start[c][0] == zone and keep(c))


def card_in(state, label: str, position: int = 0) -> int:
    return raw(state.zones[state.game.zone_index(label)])[position]


def prop(game, name: str):
    """The card id -> its value of property ``name`` (``"name"``: its name)."""
    values = game.card_names if name == "name" else game.properties[name][0]
    return values.__getitem__


def uniform(values) -> Counter:
    return Counter({value: 1 for value in values})


# Per shipped game, at its fewest players: what the opening deals first, and its exact distribution under a
# uniform shuffle (weights by the definition's components).  The first statistic of each is the one the biased
# sampler must be caught on.  Any single card of a uniformly shuffled pile is each of the pile's cards with equal
# probability, and (Crazy Eights) the starter, the first card that is not an 8 after the deal, is each of the 48
# others with equal probability, whatever the deal.
OPENINGS = {
    "crazy_eights": (
        ("the suit of seat 1's first card", lambda s: prop(s.game, "suit")(card_in(s, "hand(1)")),
         lambda g, n: start_counts(g, "stock", prop(g, "suit"))),
        ("the rank of seat 1's first card", lambda s: prop(s.game, "rank")(card_in(s, "hand(1)")),
         lambda g, n: start_counts(g, "stock", prop(g, "rank"))),
        ("the rank of the starter (never an 8)", lambda s: prop(s.game, "rank")(card_in(s, "discard")),
         lambda g, n: start_counts(g, "stock", prop(g, "rank"), lambda c: prop(g, "rank")(c) != "8")),
    ),
    "frog_tower": (
        ("the type of the first card flipped", lambda s: prop(s.game, "type")(card_in(s, "holding")),
         lambda g, n: start_counts(g, "pond", prop(g, "type"))),
        ("the first card flipped", lambda s: prop(s.game, "name")(card_in(s, "holding")),
         lambda g, n: start_counts(g, "pond", prop(g, "name"))),
    ),
    "kaeru": (
        ("seat 1's goal", lambda s: prop(s.game, "name")(card_in(s, "goal(1)")),
         lambda g, n: start_counts(g, "goal_deck", prop(g, "name"))),
        ("the space the gap follows", lambda s: s.gv["gap_after"],
         lambda g, n: uniform(["l1", "l2", "l3", "l4", "l5"])),
        ("the prey face up on the first lily", lambda s: prop(s.game, "name")(card_in(s, "prey(l1)")),
         lambda g, n: start_counts(g, "deck", prop(g, "name"))),
    ),
    "top_frog": (
        ("the fashion of the first Pond card", lambda s: prop(s.game, "fashion")(card_in(s, "cell(r1c1)")),
         lambda g, n: start_counts(g, "deck", prop(g, "fashion"),
                                   lambda c: g.params["with_plus"][n] or not prop(g, "plus")(c))),
        ("the first hat on display", lambda s: prop(s.game, "name")(card_in(s, "hat_display")),
         lambda g, n: start_counts(g, "hats", prop(g, "name"))),
    ),
}
# Samples per check.  Power: a shift of 0.1 of probability from one of four equally likely values to another
# (Top Frog's fashions; Cohen's w 0.28) fails the check at P_FLOOR in 86% of chance-mode samples of 300 and
# always at 2,000 seeded ones (noncentral chi-square).  Seeded games cost nothing; a chance-mode opening tens of
# milliseconds (Top Frog's ~100 chance nodes: ~0.1 s).  The biased sampler gets as many as the fair one.
CHANCE_SAMPLES, SEEDED_SAMPLES, BIASED_SAMPLES = 300, 2000, 300


def fits(sample: list, expected: Counter) -> float:
    """The chi-square goodness-of-fit p-value of ``sample`` against the exact distribution ``expected`` (weights),
    values expected fewer than 5 times pooled; a value that cannot occur at all fails at once."""
    impossible = set(sample) - set(expected)
    if impossible:
        return 0.0
    total = sum(expected.values())
    counts = Counter(sample)
    bins, pooled = [], [0, 0.0]
    for value, weight in sorted(expected.items(), key=lambda item: repr(item[0])):
        share = len(sample) * weight / total
        if share < 5:
            pooled[0] += counts[value]
            pooled[1] += share
        else:
            bins.append((counts[value], share))
    if pooled[1]:
        bins.append(tuple(pooled))
    assert len(bins) >= 2, "too few samples to test this statistic"
    observed, shares = zip(*bins)
    return scipy_stats.chisquare(observed, shares).pvalue


@pytest.mark.parametrize("stem", sorted(OPENINGS))
def test_each_shipped_games_opening_deals_with_the_exact_probabilities_of_a_uniform_shuffle(stem):
    """Chance mode (outcomes sampled by their listed probabilities) and seeded runs alike deal the opening as a
    uniform shuffle of the definition's cards would: a chi-square goodness of fit to the exact distribution."""
    game = shipped_game(stem, ())
    players = game.min_players
    rng = random.Random(13)
    chance = [play_opening(game, players, 0, choose=by_probability(rng)) for _ in range(CHANCE_SAMPLES)]
    seeded = [game.new_game(players, seed=seed) for seed in range(SEEDED_SAMPLES)]
    for what, statistic, exact in OPENINGS[stem]:
        for mode, states in (("chance mode", chance), ("seeded", seeded)):
            p = fits([statistic(s) for s in states], exact(game, players))
            assert p > P_FLOOR, f"{stem}, {mode}: {what}: p = {p}"


@pytest.mark.parametrize("stem", sorted(OPENINGS))
def test_the_exact_opening_check_catches_a_biased_sampler(stem):
    """The negative control: a sampler that favours the outcomes listed last fails the same check."""
    game = shipped_game(stem, ())
    players = game.min_players
    rng = random.Random(13)
    skewed = [play_opening(game, players, 0, choose=biased(rng)) for _ in range(BIASED_SAMPLES)]
    what, statistic, exact = OPENINGS[stem][0]
    assert fits([statistic(s) for s in skewed], exact(game, players)) < P_FLOOR, what


# ---------------------------------------------------------------- (b) no future in a copy
def test_a_shuffled_hidden_zone_holds_no_order_until_it_is_read(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(1)))
    deck = draws.zone_index("deck")
    assert undecided(state) == [[deck, 0, 5]]  # seven cards, two dealt: five undecided
    assert raw(state.zones[deck]) == sorted(raw(state.zones[deck]))  # held sorted: no order at all
    assert type(state.zones[deck]) is Unresolved
    data = state.to_json()
    assert data["zones"][deck] == sorted(data["zones"][deck]) and data["chance"] == {"undecided": [[deck, 0, 5]]}


def test_two_copies_after_a_shuffle_draw_what_their_outcomes_say(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(1)))
    state.apply(0, "go draw")
    assert state.is_chance() and state.current_players() == []
    node = state.chance_node()
    assert node["kind"] == "card"
    left = sorted(draws.card_names[c] for c in raw(state.zones[draws.zone_index("deck")]))
    listed = Counter(draws.card_names[o] for o, w in zip(node["outcomes"], node["weights"]) if w == 1)
    assert listed == Counter(left) and len(node["outcomes"]) == len(left)  # one outcome per card left
    a, b = state.clone(), state.clone()
    first = node["outcomes"][0]
    second = next(o for o in node["outcomes"] if draws.card_names[o] != draws.card_names[first])
    a.apply_chance(first)
    b.apply_chance(second)
    assert names(a, "table") == [draws.card_names[first]] and names(b, "table") == [draws.card_names[second]]
    assert a.history[-1] == [CHANCE_PLAYER, first] and b.history[-1] == [CHANCE_PLAYER, second]


def test_each_card_a_draw_may_be_is_one_outcome_equally_likely_even_equal_ones(draws):
    # a rule may hold a card's id from before a shuffle: which of two equal cards lies where then matters
    state = draws.new_game(2, chance=True)
    node = state.chance_node()  # the first card dealt: 3 aces, 2 kings, a queen, a jack
    assert sorted(node["outcomes"]) == list(range(7)) and node["weights"] == [1] * 7
    assert len(set(node["outcomes"])) == len(node["outcomes"])


def test_size_and_membership_of_an_undecided_zone_decide_nothing(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(3)))
    deck = state.zones[draws.zone_index("deck")]
    before = undecided(state)
    assert len(deck) == 5 and bool(deck) and (raw(deck)[0] in deck) and deck.count(raw(deck)[0]) == 1
    assert undecided(state) == before


# ---------------------------------------------------------------- (c), (e) every shipped game to its end
@pytest.mark.parametrize("stem, variants", CONFIGURATIONS,
                         ids=[stem + "".join(f"+{v}" for v in variants) for stem, variants in CONFIGURATIONS])
def test_every_shipped_game_and_variant_plays_to_its_end_in_chance_mode(stem, variants):
    game = shipped_game(stem, variants)
    counts = {game.min_players, game.max_players} if not variants else {game.min_players}  # a variant: its fewest
    for players in sorted(counts):
        rng, bot = random.Random(players), random.Random(players + 100)
        state = game.new_game(players, chance=True)
        started = time.process_time()
        for _ in range(3000):
            while state.is_chance():
                outcomes = state.chance_outcomes()
                values = [o for o, _ in outcomes]
                assert len(set(values)) == len(values) and all(type(o) is int for o in values)
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
                assert len(outcomes) <= MAX_OUTCOMES
                state.apply_chance(uniformly(rng)(outcomes))
            if state.is_terminal():
                break
            player = state.current_players()[0]
            state.apply_id(player, state.sample_action_id(player, bot))
        else:
            pytest.fail(f"{players} players: no end after 3000 decisions")
        assert state.returns() and abs(sum(state.returns()) - 1.0) < 1e-9 or state.winners() == []
        assert time.process_time() - started < 60


# ---------------------------------------------------------------- (d) saves, clones, replay, undo
def test_a_chance_mode_save_round_trips_at_decisions_and_at_chance_nodes(draws):
    game = shipped_game("crazy_eights", ())
    rng, bot = random.Random(5), random.Random(6)
    state = game.new_game(2, chance=True)
    for _ in range(40):
        data = json.loads(json.dumps(state.to_json()))
        again = State.from_json(game, data)
        assert again.to_json() == state.to_json()
        assert again.is_chance() == state.is_chance() and again.chance_node() == state.chance_node()
        if state.is_chance():
            state.apply_chance(by_probability(rng)(state.chance_outcomes()))
        else:
            player = state.current_players()[0]
            state.apply_id(player, state.sample_action_id(player, bot))


def test_a_save_whose_chance_outcome_was_changed_is_refused():
    game = shipped_game("crazy_eights", ())
    state = game.new_game(2, chance=True)
    state.apply_chance(state.chance_outcomes()[0][0])
    data = state.to_json()
    data["history"][0] = [CHANCE_PLAYER, 10 ** 6]  # no card has that id
    with pytest.raises(SaveFileError, match="is not an outcome of the pending chance event"):
        State.from_json(game, data)
    data["history"][0] = [CHANCE_PLAYER, "1"]
    with pytest.raises(SaveFileError, match="chance outcome"):
        State.from_json(game, data)


def test_a_clone_at_a_chance_node_goes_on_exactly_as_the_original(draws):
    state = draws.new_game(2, chance=True)
    copy = state.clone()
    rng_a, rng_b = random.Random(9), random.Random(9)
    settle(state, by_probability(rng_a))
    settle(copy, by_probability(rng_b))
    assert copy.to_json() == state.to_json()
    state.apply(0, "go draw")
    copy = state.clone()
    outcome = state.chance_outcomes()[0][0]
    state.apply_chance(outcome)
    assert copy.is_chance() and copy.history[-1] == [0, "go draw"]  # the original's outcome did not reach it
    copy.apply_chance(outcome)
    assert copy.to_json() == state.to_json()


def test_outcomes_that_are_not_listed_are_refused_and_change_nothing(draws):
    state = draws.new_game(2, chance=True)
    before = state.to_json()
    for wrong in (-1, 10 ** 6, "1", 1.0, None, True):
        with pytest.raises(IllegalActionError):
            state.apply_chance(wrong)
    assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="chance event is pending"):
        state.apply(0, "go draw")
    seeded = draws.new_game(2, seed=1)
    assert not seeded.is_chance() and seeded.chance_outcomes() == []
    with pytest.raises(IllegalActionError, match="not started in chance mode"):
        seeded.apply_chance(0)


def test_a_decision_that_drew_cannot_be_taken_back_and_one_that_did_not_can():
    game = load_game(REPO_ROOT / "tests" / "definitions" / "undo.yaml")  # look at the shuffled deck's top card, or wait
    state = settle(game.new_game(2, chance=True), by_probability(random.Random(2)))
    assert undecided(state)  # the shuffle decided nothing
    state.apply(0, "decide wait")
    assert state.can_undo(0) and state.undo(0) == "decide wait"
    state.apply(0, "decide look")
    assert state.is_chance() and "random draw" in state.undo_refusal(0)  # the top card is decided now
    settle(state, by_probability(random.Random(2)))
    assert state.history[-1][0] == CHANCE_PLAYER and "random draw" in state.undo_refusal(0)


def test_a_determinised_copy_keeps_undecided_zones_undecided_and_the_seats_view(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(4)))
    copy = state.determinised(0, random.Random(1))
    assert copy.view(0) == state.view(0)
    deck = draws.zone_index("deck")
    assert undecided(copy) == undecided(state)
    assert raw(copy.zones[deck]) == sorted(raw(copy.zones[deck]))
    settle(copy, by_probability(random.Random(1)))
    state.apply(0, "go draw")
    with pytest.raises(IllegalActionError, match="chance event is pending"):
        state.determinised(0, random.Random(1))


def test_a_seats_view_at_a_chance_node_is_the_view_before_the_action_without_its_decision(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(4)))
    before = [state.view(p) for p in (0, 1, None)]
    state.apply(0, "go draw")
    assert state.is_chance()
    for seat, seen in zip((0, 1, None), before):
        seen.pop("decision")
        assert state.view(seat) == seen


# ---------------------------------------------------------------- bounds
HOSTILE = """\
game: Hostile
players: {min: 1, max: 1}
components:
  - {name: low, count: 5, zone: deck}
  - {name: high, count: 5, zone: deck}
zones:
  deck: {visibility: hidden}
  table: {visibility: public}
game_variables:
  n: 0
procedures:
  take_turn(player p): |
    ask p to choose one of ["go", "stay"] as what "go"
    repeat 5000 times:
      shuffle deck
      move top(deck) to table
      move table to deck
    end game
flow:
  - turn: take_turn
"""


def test_shuffling_a_huge_zone_in_a_loop_is_an_error_soon_not_a_hang(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    game = load_game(path)
    state = game.new_game(1, chance=True)
    before = state.to_json()
    started = time.process_time()
    with pytest.raises(RuleError, match="chance mode"):
        state.apply(0, "go go")
        while state.is_chance():
            state.apply_chance(state.chance_outcomes()[-1][0])
    assert time.process_time() - started < 60
    assert state.to_json() == before  # back before the action that started the step


def test_a_huge_die_is_asked_in_parts_of_bounded_size(tmp_path):
    path = tmp_path / "die.yaml"
    path.write_text(DRAWS.replace("roll(6)", "roll(1000000000000)"), encoding="utf-8")
    game = load_game(path)
    state = game.new_game(2, chance=True)
    parts = []
    settle(state, lambda outcomes: outcomes[len(outcomes) // 2][0], parts)
    assert all(len(outcomes) <= MAX_OUTCOMES for outcomes in parts)
    assert 1 <= state.gv["die"] <= 10 ** 12


def test_chance_mode_draws_nothing_outside_the_rules(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(4)))
    deck = state.zones[draws.zone_index("deck")]
    with pytest.raises(RuleError, match="outside"):
        deck[-1]


def test_the_example_of_docs_chance_md_plays_a_game_to_its_end(capsys):
    text = (REPO_ROOT / "docs" / "chance.md").read_text(encoding="utf-8")
    assert text.count("```") == 2, "docs/chance.md has one fenced block, the example this test runs"
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(example, "docs/chance.md", "exec"), {})  # noqa: S102 - the documentation's own example
    assert capsys.readouterr().out.startswith("[")


FAILING = """\
game: Failing
players: {min: 1, max: 1}
components:
  - {name: token, zone: box}
zones:
  box: {}
game_variables:
  die: 0
  zero: 0
setup:
  - step: roll
    do: |
      game.die = roll(2)
      if game.die == 2:
        game.die = 1 // game.zero
procedures:
  take_turn(player p): |
    ask p to choose one of ["roll", "stop"] as what "go"
    if what == "stop":
      end game
    game.die = roll(2)
    if game.die == 2:
      game.die = 1 // game.zero
flow:
  - turn: take_turn
"""


def test_an_outcome_whose_rules_fail_is_an_error_and_the_game_is_back_before_its_step(tmp_path):
    path = tmp_path / "failing.yaml"
    path.write_text(FAILING, encoding="utf-8")
    game = load_game(path)
    state = game.new_game(1, chance=True)
    at_setup = state.to_json()
    with pytest.raises(RuleError, match="division by zero"):
        state.apply_chance(1)  # a die of 2 at setup: the setup fails; the chance node stays as it was
    assert state.is_chance() and state.to_json() == at_setup
    state.apply_chance(0)
    before = state.to_json()
    state.apply(0, "go roll")
    with pytest.raises(RuleError, match="division by zero"):
        state.apply_chance(1)
    assert not state.is_chance() and state.to_json() == before  # back before the action, its decision open
    state.apply(0, "go roll")
    state.apply_chance(0)
    assert state.gv["die"] == 1 and state.legal_actions(0) == ["go roll", "go stop"]


# ---------------------------------------------------------------- on main's layout: saves' schema, playout, determinised
def test_a_chance_outcome_entry_is_refused_in_a_seeded_save_and_a_number_only_as_player_minus_one():
    game = shipped_game("crazy_eights", ())
    seeded = game.new_game(2, seed=3)
    data = json.loads(json.dumps(seeded.to_json()))
    data["history"] = [[CHANCE_PLAYER, 5]]
    with pytest.raises(SaveFileError, match=r"^action 1 of the save's history is not \[player number, action text\]"):
        State.from_json(game, data)
    state = game.new_game(2, chance=True)
    state.apply_chance(state.chance_outcomes()[0][0])
    data = json.loads(json.dumps(state.to_json()))
    data["history"][0] = [0, data["history"][0][1]]  # an outcome as a seat's action
    with pytest.raises(SaveFileError, match=r"nor a chance outcome \[-1, outcome\]"):
        State.from_json(game, data)
    data["chance"] = {"undecided": "all"}
    with pytest.raises(SaveFileError, match="chance"):
        State.from_json(game, data)


def test_a_playout_in_chance_mode_draws_outcomes_by_their_probabilities_and_reaches_the_end():
    game = shipped_game("crazy_eights", ())
    state = game.new_game(2, chance=True)
    assert state.is_chance()  # the deal waits
    state.playout(random.Random(3))
    assert state.is_terminal() and not state.is_chance()
    assert any(player == CHANCE_PLAYER for player, _ in state.history)
    again = State.from_json(game, json.loads(json.dumps(state.to_json())))  # its history replays
    assert again.to_json() == state.to_json()


def test_a_determinised_copy_keeps_the_seats_history_but_no_chance_outcome(draws):
    state = settle(draws.new_game(2, chance=True), by_probability(random.Random(4)))
    state.apply(0, "go draw")
    state = settle(state, by_probability(random.Random(5)))
    assert any(player == CHANCE_PLAYER for player, _ in state.history)
    copy = state.determinised(0, random.Random(1))
    assert copy.history == [entry for entry in state.history if entry[0] != CHANCE_PLAYER]
