"""The seeded generator: labelled streams are independent, repeatable and uniform."""

import sys
import threading
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


def test_drawing_never_lets_another_thread_run():
    """Given a thread waiting for the interpreter lock (and no forced switch for 100 s), when
    a stream draws 4,000 times (1,000 blocks), then that thread has not run: the generator
    keeps the lock, so a server's event loop is never left waiting for it behind other threads
    in the middle of a deal (docs/benchmarks.md, issue 33's tail)."""
    gate, ran = threading.Lock(), []

    def waiter() -> None:
        """Run once the gate opens and this thread gets the interpreter lock."""
        with gate:
            ran.append(True)

    gate.acquire()
    interval = sys.getswitchinterval()
    # No forced switch from here on, so the waiter, once started, runs on until it blocks on
    # the gate (this thread cannot take the lock from it meanwhile), and after the gate opens
    # it runs only if this thread lets go of the lock.
    sys.setswitchinterval(100.0)
    thread = threading.Thread(target=waiter)
    try:
        thread.start()
        gate.release()
        stream = Rng(b"held").stream("round", 1, "deck")
        for _ in range(4_000):
            stream.below(2**63)
        assert not ran
    finally:
        sys.setswitchinterval(interval)
        thread.join()
    assert ran
