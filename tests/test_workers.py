"""service.workers.ordered_map: answers in the order asked, reading ahead only so far."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator

import pytest

from service.workers import AHEAD, ordered_map, usable_cores


def slow_square(n: int) -> tuple[int, int]:
    """n squared, taking longer for small n (so later items finish first), and who did it."""
    time.sleep(0.002 * (n % 5))
    return n * n, os.getpid()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_answers_come_in_the_order_asked_whatever_order_they_finish_in(jobs):
    answers = list(ordered_map(slow_square, range(60), jobs))

    assert [square for square, _ in answers] == [n * n for n in range(60)]
    workers = {pid for _, pid in answers}
    assert (workers == {os.getpid()}) if jobs == 1 else (os.getpid() not in workers)


def test_items_are_read_only_as_far_ahead_as_the_workers_need():
    drawn = []

    def items() -> Iterator[int]:
        for n in range(1000):
            drawn.append(n)
            yield n

    answers = ordered_map(slow_square, items(), 2)
    first = next(answers)
    read_by_then = len(drawn)
    answers.close()

    assert first[0] == 0
    assert read_by_then <= 2 * AHEAD
    assert len(drawn) < 1000


def test_a_failing_item_raises_in_the_caller():
    with pytest.raises(TypeError):
        list(ordered_map(slow_square, [1, 2, "three", 4], 2))


def test_usable_cores_is_at_least_one():
    assert usable_cores() >= 1


class DropsAnInterrupt:
    """An object whose finalizer is interrupted by Ctrl-C: Python prints "Exception ignored" and
    drops the KeyboardInterrupt, as it would for a user's Ctrl-C landing in any finalizer."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # bytecode to run: the handler raises in here, and is dropped
            pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the drop itself
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_ctrl_c_that_python_drops_in_a_finalizer_still_stops_the_work(jobs):
    """Given an interrupt that lands while a finalizer runs (where Python drops the
    KeyboardInterrupt), then the work stops at the next item all the same, with
    KeyboardInterrupt, and the handler in place before is back afterwards."""
    before = signal.getsignal(signal.SIGINT)
    taken = []

    def items() -> Iterator[int]:
        for n in range(200):
            if n == 2:
                DropsAnInterrupt()  # made and finalized at once
            yield n

    with pytest.raises(KeyboardInterrupt):
        for square, _ in ordered_map(slow_square, items(), jobs):
            taken.append(square)

    assert len(taken) < 200
    assert signal.getsignal(signal.SIGINT) is before
