"""DH8: what the server plays for a seat whose turn clock ran out (the Rulebook's on_time_out)."""

from __future__ import annotations

from domain.core import reactions
from domain.deathwick import cards
from domain.deathwick.commands import ChooseClass, Command, DiscardCard, PassRitual
from domain.deathwick.legal import to_act
from domain.deathwick.state import Drafting, Playing, State, Unformed, turn_of


def on_time_out(state: State | Unformed, seat: int) -> Command | None:
    """In a window, allow (D8); in the draft, the first class offered; in the Ritual, Pass; in the
    Burden, the lowest card (value, then suit tier)."""
    if seat not in to_act(state):
        return None
    if isinstance(state, Drafting):
        return ChooseClass(name=state.players[seat].offer[0])
    assert isinstance(state, Playing)
    answer = reactions.time_out_answer(state.windows, seat)
    if answer is not None:
        return answer
    turn = turn_of(state, seat)
    if turn is not None and turn.phase == "burden":
        low = min(state.players[seat].hand, key=lambda c: (cards.value(c) or 99,
                                                           cards.TIER.get(cards.suit(c) or "", 0)))
        return DiscardCard(card=cards.code(low))
    return PassRitual()
