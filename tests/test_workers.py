"""service.workers.ordered_map: answers in the order asked, reading ahead only so far."""

from __future__ import annotations

import os
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
