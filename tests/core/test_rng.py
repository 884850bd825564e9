"""The seeded generator: labelled streams are independent, repeatable and uniform."""

from collections import Counter

import pytest

from domain.core.rng import Rng


def test_the_same_seed_and_label_give_the_same_draws():
    """Given one seed, asking for a label twice gives the same stream."""
    rng = Rng(b"seed")
    assert rng.stream("round", 2, "deck").shuffle(range(22)) == rng.stream(
        "round", 2, "deck"
    ).shuffle(range(22))


def test_a_new_label_never_shifts_another_labels_draws():
    """Given draws under one label, drawing under another label first changes nothing."""
    alone = Rng(b"seed").stream("opener").below(5)
    rng = Rng(b"seed")
    rng.stream("something-new").below(1000)
    assert rng.stream("opener").below(5) == alone


def test_different_seeds_give_different_shuffles():
    """Given two seeds, their shuffles of 22 cards differ."""
    assert Rng(b"a").stream("x").shuffle(range(22)) != Rng(b"b").stream("x").shuffle(range(22))


def test_below_is_roughly_uniform():
    """Given 60,000 draws of below(6), every face comes up about 10,000 times."""
    stream = Rng(b"uniform").stream("dice")
    counts = Counter(stream.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_500 < count < 10_500 for count in counts.values())


def test_below_refuses_an_empty_range():
    """Given n = 0, below() raises instead of looping."""
    with pytest.raises(ValueError):
        Rng(b"x").stream("y").below(0)


def test_shuffle_leaves_its_input_alone_and_keeps_every_item():
    """Given a list, shuffle returns a permutation and does not touch the input."""
    items = list(range(16))
    shuffled = Rng(b"k").stream("deck").shuffle(items)
    assert items == list(range(16))
    assert sorted(shuffled) == items
