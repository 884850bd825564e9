"""What happened on the road, in the past tense.  Stored forever: add fields only with defaults.

Cards are recorded by name ("7C", "WHITEOUT"), wagons by name ("food"), seats by number.  Every
chance outcome (each night's hands and Fate order) is in ``night_dealt``, so a replay needs no
generator.
"""

from typing import Literal

import msgspec

from domain.whiteout_road.cards import Wagon
from domain.whiteout_road.commands import Play

Ending = Literal["through", "buried", "whiteout", "gambit", "last_watch"]


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's face-down card and the play it named."""

    seat: int
    card: str
    play: Play
    wagon: Wagon | None = None


class Repayment(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's gratitude for one night, line by line as the rulebook lists it (R9)."""

    seat: int
    stores_through: int = 0
    stores_lost: int = 0
    pushes: int = 0
    wages: int = 0
    long_watch: int = 0
    total: int = 0


class RoadOpened(msgspec.Struct, tag="road_opened", frozen=True, kw_only=True):
    """The table is set: players in seat order, burial mark, hand size, any practice deal."""

    names: tuple[str, ...]
    burial_mark: int
    hand_size: int
    practice_deal: tuple[tuple[str, ...], ...] = ()


class NightDealt(msgspec.Struct, tag="night_dealt", frozen=True, kw_only=True):
    """A night's deal: each seat's hand (empty for a conceded seat) and Fate from its top."""

    night: int
    hands: tuple[tuple[str, ...], ...]
    fate: tuple[str, ...]


class FateFlipped(msgspec.Struct, tag="fate_flipped", frozen=True, kw_only=True):
    """The top Fate card was turned up: a wagon's roll, a cold snap, the whiteout, or a tie flip."""

    card: str
    wagon: Wagon | None = None
    position: int | None = None
    snow: int | None = None
    tie_break: bool = False


class PlaysCalled(msgspec.Struct, tag="plays_called", frozen=True, kw_only=True):
    """Step 2 of a beat: these seats, holding cards, each owe one face-down card."""

    seats: tuple[int, ...]


class PlayCommitted(msgspec.Struct, tag="play_committed", frozen=True, kw_only=True):
    """A seat committed a card face down (only its owner may see which, until the reveal)."""

    seat: int
    card: str
    play: Play
    wagon: Wagon | None = None


class PlaysRevealed(msgspec.Struct, tag="plays_revealed", frozen=True, kw_only=True):
    """Every committed card turned up together, in seat order."""

    plays: tuple[Commitment, ...]


class StoreLoaded(msgspec.Struct, tag="store_loaded", frozen=True, kw_only=True):
    """A loaded card rides its wagon as its owner's stores, caught at these pips."""

    seat: int
    card: str
    wagon: Wagon
    pips: int


class LoadMissed(msgspec.Struct, tag="load_missed", frozen=True, kw_only=True):
    """A loaded card caught nothing (an empty wagon on 3 to 5) and is lost."""

    seat: int
    card: str
    wagon: Wagon


class WagonPushed(msgspec.Struct, tag="wagon_pushed", frozen=True, kw_only=True):
    """A pushed card lies sideways by its wagon; the wagon now stands here (5 at most if empty)."""

    seat: int
    card: str
    wagon: Wagon
    position: int


class TrailBroken(msgspec.Struct, tag="trail_broken", frozen=True, kw_only=True):
    """A spade shovelled a laden wagon one space (None: the wagon had left 3 and 4, no effect)."""

    seat: int
    card: str
    wagon: Wagon
    position: int | None = None


class CardFed(msgspec.Struct, tag="card_fed", frozen=True, kw_only=True):
    """A card went to the fire, into its owner's watch-pile."""

    seat: int
    card: str


class SnowDrifted(msgspec.Struct, tag="snow_drifted", frozen=True, kw_only=True):
    """Step 3: the snow drifted by one for each player who played and did not feed."""

    by: int
    snow: int


class KingRoared(msgspec.Struct, tag="king_roared", frozen=True, kw_only=True):
    """A King fed this beat took the snow back one (not below 0)."""

    seat: int
    card: str
    snow: int


class GambitCalled(msgspec.Struct, tag="gambit_called", frozen=True, kw_only=True):
    """The whiteout found no laden wagon that had moved: these seats each owe one more card."""

    seats: tuple[int, ...]


class CardFlung(msgspec.Struct, tag="card_flung", frozen=True, kw_only=True):
    """In the Gambit, a heart, diamond or club was flung onto its wagon."""

    seat: int
    card: str
    wagon: Wagon


class WatchKept(msgspec.Struct, tag="watch_kept", frozen=True, kw_only=True):
    """In the Gambit, a spade was kept as a watch worth 3, into its owner's watch-pile."""

    seat: int
    card: str


class LastWatchBegan(msgspec.Struct, tag="last_watch_began", frozen=True, kw_only=True):
    """Every hand is empty: no more Fate; the snow floods and the laden wagons roll."""


class SnowRose(msgspec.Struct, tag="snow_rose", frozen=True, kw_only=True):
    """In the Last Watch, the snow rose by 3 plus the number of players."""

    by: int
    snow: int


class WagonRolled(msgspec.Struct, tag="wagon_rolled", frozen=True, kw_only=True):
    """In the Last Watch, a laden wagon on 1 to 5 rolled one space."""

    wagon: Wagon
    position: int


class NightEnded(msgspec.Struct, tag="night_ended", frozen=True, kw_only=True):
    """The night is over: how it ended and the wagon that is through (None: the road is buried)."""

    night: int
    ending: Ending
    through: Wagon | None = None


class GratitudePaid(msgspec.Struct, tag="gratitude_paid", frozen=True, kw_only=True):
    """The night's repayment, one line per seat (zeros for a conceded seat)."""

    night: int
    lines: tuple[Repayment, ...]


class SeatConceded(msgspec.Struct, tag="seat_conceded", frozen=True, kw_only=True):
    """A seat gave up; its hand and any pending card were set aside face down."""

    seat: int
    set_aside: tuple[str, ...] = ()


class RoadEnded(msgspec.Struct, tag="road_ended", frozen=True, kw_only=True):
    """The match is over; these seats won it."""

    winners: tuple[int, ...]


Event = (
    RoadOpened
    | NightDealt
    | FateFlipped
    | PlaysCalled
    | PlayCommitted
    | PlaysRevealed
    | StoreLoaded
    | LoadMissed
    | WagonPushed
    | TrailBroken
    | CardFed
    | SnowDrifted
    | KingRoared
    | GambitCalled
    | CardFlung
    | WatchKept
    | LastWatchBegan
    | SnowRose
    | WagonRolled
    | NightEnded
    | GratitudePaid
    | SeatConceded
    | RoadEnded
)
