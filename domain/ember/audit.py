"""Where every wizard card is and what each reader may know: for tests and verifiers only.

``secrets`` is the conformance suite's leak check (docs/conformance.md): the texts of every
value a reader may not see now (E11). Archmages are alike and named aloud whenever one is
played, so the word is never a secret (EH8); the numbered cards and tutors are, and under rules
version 1 others' Burned cards (from version 2 they are named to all, EH19).
"""

from __future__ import annotations

from domain.ember.cards import ARCHMAGE, TUTORS, WIZARD_CARDS, shown, spoken, title
from domain.ember.state import Finished, Playing, State, Undealt
from domain.ember.versions import ruleset_of


def card_locations(state: State) -> dict[str, list[str]]:
    """Every wizard card, with each place it lies (exactly one, if the 55 are conserved)."""
    board = state.board if isinstance(state, Finished) else state
    places: dict[str, list[str]] = {card: [] for card in WIZARD_CARDS}
    spots = [("deck", board.deck), ("charred", board.charred)]
    spots += [(f"hand/{seat}", w.hand) for seat, w in enumerate(board.seats)]
    for place, cards in spots:
        for card in cards:
            places.setdefault(card, []).append(place)
    return places


def knowable(board: Playing, seat: int | None) -> set[str]:
    """The wizard cards a reader may know now: the Charred pile, and its own hand."""
    known = set(board.charred)
    if seat is not None:
        known |= set(board.seats[seat].hand)
    return known


def secrets(state: State | Undealt, seat: int | None) -> frozenset[str]:
    """E11 as text: hidden numbered cards (as views and lines write them), others' tutors until
    the end, and (version 1) others' Burned cards while the match runs."""
    over = isinstance(state, Finished)
    board = state.board if isinstance(state, Finished) else state
    if not isinstance(board, Playing):
        return frozenset()
    known = knowable(board, seat)
    hidden = [c for c in WIZARD_CARDS if c not in known and not c.startswith(ARCHMAGE)]
    texts = {shown(card) for card in hidden} | {spoken(card) for card in hidden}
    dealt = {w.tutor for w in board.seats}
    for tutor in TUTORS:
        mine = seat is not None and board.seats[seat].tutor == tutor
        if not mine and not (over and tutor in dealt):
            texts |= {tutor, title(tutor)}
    if not over and not ruleset_of(board).regenerate_any:
        for owner, wizard in enumerate(board.seats):
            if owner != seat:
                texts |= {t for h in wizard.cards if h.burned and not h.drained
                          for t in (h.card, title(h.card))}
    return frozenset(texts)
