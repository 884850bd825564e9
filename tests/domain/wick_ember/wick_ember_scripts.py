"""Longer scripted rounds shared by several test files: a deck played down to its last card."""

from __future__ import annotations

from typing import Any

from wick_ember_support import Table, stacked

TWO_WARDENS_UP = ("lamp_warden", "lamp_warden")
EIGHT_QUIET_DRAWS = (
    "lensmaker",
    "lensmaker",
    "lensmaker",
    "veilkeeper",
    "gale",
    "veilkeeper",
    "ferrywoman",
    "moth_duchess",
)


def two_seats_to_the_last_cards(last_three: tuple[str, str, str], **options: Any) -> Table:
    """Two seats, all four Lamp Wardens out early, eight quiet turns; three cards left to draw.

    Ash and Bryn each hold a Lamp Warden; the face-down set-aside is a Gale.  ``last_three`` are
    the Hearthflame and the two Sootsweeps in some order.
    """
    deal = stacked("gale", TWO_WARDENS_UP, EIGHT_QUIET_DRAWS + last_three, face_up=TWO_WARDENS_UP)
    table = Table(2, rounds=(deal,), **options)
    table.play(0, "lensmaker", target=1)
    table.play(1, "lensmaker", target=0)
    table.play(0, "lensmaker", target=1)
    table.play(1, "veilkeeper")
    table.play(0, "gale")  # Bryn is veiled: the Gale finds no one
    table.play(1, "veilkeeper")
    table.play(0, "ferrywoman")  # Bryn is veiled: nobody to pass with
    table.play(1, "moth_duchess")
    return table


def sweep_takes_the_set_aside(**options: Any) -> Table:
    """Ash draws the last card, a Sootsweep, and sweeps Bryn, who takes the set-aside; dawn."""
    table = two_seats_to_the_last_cards(("hearthflame", "sootsweep", "sootsweep"), **options)
    table.play(0, "lamp_warden", target=1, guess="gale")
    table.play(1, "lamp_warden", target=0, guess="gale")
    table.play(0, "sootsweep", target=1)
    return table


def last_flame_on_the_last_card(**options: Any) -> Table:
    """Ash draws the last card and sweeps Bryn's Hearthflame: the deck is empty and one flame is lit."""
    table = two_seats_to_the_last_cards(("sootsweep", "hearthflame", "sootsweep"), **options)
    table.play(0, "lamp_warden", target=1, guess="gale")
    table.play(1, "lamp_warden", target=0, guess="gale")
    table.play(0, "sootsweep", target=1)
    return table


def three_seats_to_the_last_card(**options: Any) -> Table:
    """Three seats, Bryn opens; after nine turns Bryn draws the deck's last card (a Veilkeeper).

    Then Ash and Cato hold a Gale each and Bryn a Lamp Warden and the Veilkeeper.
    """
    draws = (
        "lamp_warden",
        "sootsweep",
        "lamp_warden",
        "sootsweep",
        "lamp_warden",
        "lamp_warden",
        "lensmaker",
        "lensmaker",
        "veilkeeper",
        "ferrywoman",
        "moth_duchess",
        "veilkeeper",
    )
    deal = stacked("hearthflame", ("lensmaker", "gale", "gale"), draws)
    table = Table(3, rounds=(deal,), opener=1, **options)
    table.play(1, "lamp_warden", target=2, guess="lensmaker")
    table.play(2, "sootsweep", target=1)  # Bryn's Lensmaker out, a Lamp Warden in
    table.play(0, "sootsweep", target=1)  # and again
    table.play(1, "lamp_warden", target=2, guess="lensmaker")
    table.play(2, "lensmaker", target=0)
    table.play(0, "lensmaker", target=1)
    table.play(1, "veilkeeper")
    table.play(2, "ferrywoman")  # Bryn is veiled: Ash and Cato trade their Gales
    table.play(0, "moth_duchess")
    return table


def tied_dawn(**options: Any) -> Table:
    """Bryn veils with the last card; at dawn Ash's and Cato's Gales tie above Bryn's Lamp Warden."""
    table = three_seats_to_the_last_card(**options)
    table.play(1, "veilkeeper")
    return table
