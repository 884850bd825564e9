"""What one seat, or a spectator, may see (E11): the only way state leaves the rules.

Public: the Pool's face-up groups, every seat's cards in play and their orientation (a Burned
card face down, named to its owner only in version 1; to all from version 2, EH19), the
artifacts, the Charred pile, hand sizes and VP.
Private: a seat's hand and its Tutor (everyone's shown once the match is over). The draw deck's
order is never shown.
"""

from __future__ import annotations

import msgspec

from domain.core.errors import BrokenInvariant
from domain.core.templates import Template
from domain.ember.board import card_of, hand_size, vp
from domain.ember.cards import CARDS, cost_text, shown
from domain.ember.commands import Command
from domain.ember.legal import closing, may_act, offer, to_act
from domain.ember.state import Finished, InPlay, Playing, State, Undealt
from domain.ember.versions import ruleset_of


class EmberCardView(msgspec.Struct, frozen=True, kw_only=True):
    """A card in play: its name and orientation; a Burned one shows ``burned`` and, to others,
    no name."""

    card: str | None
    name: str | None
    turned: str
    burned: bool
    drained: bool = False


class EmberWizardView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone sees it."""

    seat: int
    name: str
    you: bool
    conceded: bool
    vp: int
    cards_in_hand: int
    hand_size: int
    cards: tuple[EmberCardView, ...]
    tutor: str | None


class EmberOfferView(msgspec.Struct, frozen=True, kw_only=True):
    """A card that may be conjured, with its printed cost."""

    card: str
    name: str
    vp: int
    cost: str


class EmberCallView(msgspec.Struct, frozen=True, kw_only=True):
    """E9: who made the Call, who still has a final turn, whose go it is in the last round."""

    caller: int | None
    final_turns: tuple[int, ...]
    go: int | None
    passes: int


class EmberResultView(msgspec.Struct, frozen=True, kw_only=True):
    """How the match ended: final scores with tutors, the tie-break sums, the winners."""

    scores: tuple[int, ...]
    hand_points: tuple[int, ...]
    winners: tuple[int, ...]


class EmberView(msgspec.Struct, tag="ember", frozen=True, kw_only=True):
    """The table from one seat (``you``) or from the gallery (``you`` is None)."""

    you: int | None
    call_at: int
    turn_cap: int
    round: int
    turn: int
    step: str
    face_up_to: int
    pool: tuple[EmberOfferView, ...]
    face_down_groups: tuple[int, ...]
    dragon_piles: tuple[EmberOfferView, ...]
    artifacts: tuple[EmberOfferView, ...]
    seats: tuple[EmberWizardView, ...]
    hand: tuple[str, ...]
    charred: tuple[str, ...]
    deck_size: int
    call: EmberCallView | None
    to_act: tuple[int, ...]
    may_act: tuple[int, ...]
    result: EmberResultView | None
    # One command per action offered (Rulebook.offer): a template's is its legal first set, not
    # every combination; the API's legal actions say which cards a template lets the seat choose.
    legal_actions: tuple[Command, ...]


def _offer(board: Playing, card: str) -> EmberOfferView:
    """A card on offer."""
    info = card_of(board, card)
    return EmberOfferView(card=card, name=info.name, vp=info.vp, cost=cost_text(info.cost))


def _card(held: InPlay, owner: int, seat: int | None, known: bool) -> EmberCardView:
    """E11: a card in play; a Burned one is named to its owner only, unless ``known`` (the match
    is over, or from version 2 always: EH19)."""
    named = not held.burned or seat == owner or known or held.drained
    return EmberCardView(card=held.card if named else None,
                         name=CARDS[held.card].name if named else None,
                         turned=held.turned, burned=held.burned, drained=held.drained)


def _wizard(board: Playing, owner: int, seat: int | None, over: bool) -> EmberWizardView:
    """One seat's public side, its tutor shown to itself (to all once it is over)."""
    wizard = board.seats[owner]
    known = over or ruleset_of(board).regenerate_any
    return EmberWizardView(
        seat=owner, name=board.names[owner], you=owner == seat, conceded=wizard.conceded,
        vp=vp(board, owner), cards_in_hand=len(wizard.hand), hand_size=hand_size(board, owner),
        cards=tuple(_card(h, owner, seat, known) for h in wizard.cards),
        tutor=wizard.tutor if over or owner == seat else None)


def observe(state: State | Undealt, seat: int | None) -> EmberView:
    """The view of one seat (None for a spectator)."""
    if isinstance(state, Undealt):
        raise BrokenInvariant("nothing is on the table before the deal")
    over = isinstance(state, Finished)
    board = state.board if isinstance(state, Finished) else state
    hand = board.seats[seat].hand if seat is not None else ()
    return EmberView(
        you=seat, call_at=board.call_at, turn_cap=board.turn_cap, round=board.round,
        turn=board.turn, step=board.step, face_up_to=board.face_up,
        pool=tuple(_offer(board, c) for c in board.pool
                   if card_of(board, c).group <= board.face_up),
        face_down_groups=tuple(sorted({card_of(board, c).group for c in board.pool
                                       if card_of(board, c).group > board.face_up})),
        dragon_piles=tuple(_offer(board, c) for c in board.piles),
        artifacts=tuple(_offer(board, c) for c in board.artifacts),
        seats=tuple(_wizard(board, o, seat, over) for o in range(len(board.seats))),
        hand=tuple(sorted(shown(card) for card in hand)),
        charred=tuple(shown(card) for card in board.charred), deck_size=len(board.deck),
        call=_call(board), to_act=to_act(state), may_act=may_act(state),
        result=_result(state),
        legal_actions=() if seat is None else tuple(
            action.command if isinstance(action, Template) else action
            for action in offer(state, seat)))


def _call(board: Playing) -> EmberCallView | None:
    """The Call, once made (or the turn cap's last round)."""
    if board.call is None:
        return None
    call = board.call
    return EmberCallView(caller=call.caller, final_turns=call.final,
                         go=call.seat if closing(board) else None, passes=call.passes)


def _result(state: State) -> EmberResultView | None:
    """The result once the match is over."""
    if not isinstance(state, Finished):
        return None
    return EmberResultView(scores=state.scores, hand_points=state.sums, winners=state.winners)
