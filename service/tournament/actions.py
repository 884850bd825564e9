"""The organizer's actions beyond the round's flow: remove or withdraw an entrant (bots
included), approve one, void a table that cannot start, end the tournament early or cancel it.

Each is recorded (domain.tournament.Action) at the tournament's revision, in one transaction
with what it changes, and each recorded action travels in the bundle, where the verifier checks
it (docs/tournaments.md, "Organizer actions"). Withdrawals and forfeits live with the player's
own routes in ``service.tournament.tournaments``.
"""

from __future__ import annotations

from domain.tournament import Action
from domain.tournament.actions import Actor
from domain.tournament.model import paired
from service.errors import ServiceError
from service.tournament import schemas as ts
from service.tournament.tournaments import TournamentService
from service.tournament.views import Held


class OrganizerActions:
    """The organizer's actions, over the tournament service."""

    def __init__(self, service: TournamentService) -> None:
        self.service = service

    async def remove(self, tournament_id: str, number: int, token: str | None,
                     body: ts.Reason) -> ts.EntrantInfo:
        """Take an entrant out: before round 1 it is removed, after it is withdrawn (its
        match this round conceded), a bot as well as a person."""
        held = await self.service.organizer(tournament_id, token)
        return await self.service.leave(held, self.entrant(held, number), "organizer",
                                        body.reason or "")

    async def bye(self, tournament_id: str, number: int | None, token: str | None,
                  body: ts.ByeRequest) -> ts.TournamentInfo:
        """A requested bye: the entrant (``number`` for the organizer, None for the player's
        own token) is not paired in a round not yet started, and scores a draw for it."""
        if number is None:
            held, number = await self.service.player(tournament_id, token)
            by: Actor = "player"
        else:
            held, by = await self.service.organizer(tournament_id, token), "organizer"
            self.entrant(held, number)
        entrant, settings = held.entrants[number], held.settings
        asked = held.domain_entrants()[number].byes_requested
        total = held.total()
        if settings.format == "single-elimination":
            raise ServiceError(409, "single elimination has no requested byes: an entrant who "
                               "does not play a round is out (withdraw)")
        if held.row.status in ("finished", "cancelled") or entrant.withdrew_after is not None:
            raise ServiceError(409, f"entrant {number} no longer plays in this tournament")
        if body.round <= held.row.round or (total is not None and body.round > total):
            raise ServiceError(409, f"a bye can be asked for a round not yet started, "
                               f"{held.row.round + 1} to {total or 'the last'}; not "
                               f"{body.round}")
        if body.round in asked:
            raise ServiceError(409, f"entrant {number} has asked for a bye in round "
                               f"{body.round} already")
        left = [e for e in paired(held.domain_entrants(), body.round) if e.number != number]
        if len(left) < max(2, settings.table_size):
            raise ServiceError(409, f"round {body.round} would have {len(left)} entrants to "
                               "pair: too many have asked for a bye in it")
        await self.service.record(held, [Action(kind="bye", round=body.round, by=by,
                                                entrant=number, reason=body.reason or "")])
        return await self.service.get(tournament_id)

    async def approve(self, tournament_id: str, number: int, token: str | None
                      ) -> ts.EntrantInfo:
        """Approve an entrant waiting for it (settings.approval) while registration is open."""
        held = await self.service.organizer(tournament_id, token)
        entrant = held.entrants[self.entrant(held, number)]
        if held.row.status != "registering":
            raise ServiceError(409, f"registration is closed (the tournament is "
                               f"{held.row.status}): there is no entrant to approve")
        if entrant.approved:
            raise ServiceError(409, f"entrant {number} ({entrant.name}) is approved already")
        await self.service.write(held, self.service.store.approve(held.row, number))
        return ts.EntrantInfo(number=number, name=entrant.name, bot=entrant.bot, approved=True)

    async def void(self, tournament_id: str, number: int, table: int, token: str | None,
                   body: ts.Reason) -> ts.RoundInfo:
        """Declare void a table of the current round that is not in play (it could not be
        made or started): no match, no result, nobody at it scores."""
        held = await self.service.organizer(tournament_id, token)
        mid = held.table_match(number, table)
        if number != held.row.round or held.status_of(mid) not in ("missing", "lobby"):
            raise ServiceError(409, f"round {number} table {table} is {held.status_of(mid)}"
                               f"{'' if number == held.row.round else ' in an earlier round'}"
                               ": only a table of the current round not yet in play can be "
                               "void (forfeit a no-show at a table in play)")
        await self.service.record(held, [Action(kind="void", round=number, table=table,
                                                reason=body.reason or "")])
        return (await self.service.round(tournament_id, number))

    async def finish(self, tournament_id: str, token: str | None, body: ts.Reason
                     ) -> ts.TournamentInfo:
        """End the tournament after its last whole round: standings and bundle as they stand
        (the bundle records the end and who ended it)."""
        held = await self.service.organizer(tournament_id, token)
        if held.row.status != "running":
            raise ServiceError(409, f"the tournament is {held.row.status}: only a running one "
                               "can be finished early (cancel one that has not started)")
        current = held.row.round
        if not held.round_done(current):
            raise ServiceError(409, f"round {current} is still being played: finish it first "
                               "(forfeit its no-shows, or void a table that cannot start)")
        held = await self.service.void_contradicted(held)
        end = Action(kind="end", round=current, reason=body.reason or "")
        await self.service.record(held, [end], status="finished")
        return await self.service.get(tournament_id)

    async def cancel(self, tournament_id: str, token: str | None) -> ts.TournamentInfo:
        """Cancel the tournament: no more rounds, no standings, no bundle. Tables in play
        finish as ordinary matches."""
        held = await self.service.organizer(tournament_id, token)
        if held.row.status in ("finished", "cancelled"):
            raise ServiceError(409, f"the tournament is {held.row.status} already")
        await self.service.write(held, self.service.store.set_status(held.row, "cancelled"))
        return await self.service.get(tournament_id)

    @staticmethod
    def entrant(held: Held, number: int) -> int:
        """An entrant's number, checked (404 when there is none)."""
        if not 0 <= number < len(held.entrants):
            raise ServiceError(404, f"tournament {held.row.tournament_id} has no entrant "
                               f"{number} (entrants: 0 to {len(held.entrants) - 1})")
        return number
