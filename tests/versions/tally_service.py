"""Tally matches played through the application service, seat by seat, for the version tests."""

from __future__ import annotations

import random

from service.matches import MatchService, schemas

NAMES = ["Ana", "Ben", "Cy"]


class Match:
    """A started Tally match on one service: its id and each seat's token."""

    def __init__(self, match_id: str, tokens: list[str]) -> None:
        self.match_id, self.tokens = match_id, tokens

    async def play(self, service: MatchService, chooser: random.Random, commands: int) -> int:
        """Up to ``commands`` random legal commands by whichever seat is to act; how many sent."""
        for sent in range(commands):
            owing = [t for t in self.tokens if (await service.legal_actions(self.match_id, t)).actions]
            if not owing:
                return sent
            actions = (await service.legal_actions(self.match_id, owing[0])).actions
            body = schemas.SendCommand(command=chooser.choice(actions).command)
            status, _ = await service.command(self.match_id, owing[0], body)
            assert status == 200
        return commands


async def started(service: MatchService, seats: int = 3) -> Match:
    """A new Tally match, every seat joined, play started."""
    created = await service.create(schemas.CreateMatch(game="tally", seats=seats))
    match_id = created.match_id
    tokens = [(await service.join(match_id, schemas.JoinSeat(name=name))).token
              for name in NAMES[:seats]]
    await service.start(match_id, created.host_token)
    return Match(match_id, tokens)
