-- Players (issue #37): an identity across matches, holding a token (stored only as its hash).
-- A player is written once, when it is made, and read by joins from either co-location group
-- (a seat's player, a tournament entrant's), so under Citus it is a reference table
-- (service/store/sharding.py): its unique keys need not hold a distribution column.
-- app_id names the client app that made it (migration 0011's apps), without a foreign key:
-- a player made by a person has none, and the apps migration comes after this one.

CREATE TABLE players (
    player_id  uuid PRIMARY KEY,
    name       text NOT NULL,
    name_key   text NOT NULL UNIQUE,         -- service.names.likeness: look-alikes are one name
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    app_id     uuid,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Which player took which seat is in the events themselves (SeatJoined.player), so it is
-- written in the append's one statement and exported with the match. This index finds a
-- player's seats (its matches) and a player's seat in one match (its token acting there).
CREATE INDEX events_by_player ON events ((data->>'player'), match_id)
    WHERE type = 'seat_joined';

-- A player registered in a tournament: its entrant holds the player's id (and, as its token
-- hash, the player's: the player's token is the entrant's).
ALTER TABLE tournament_entrants ADD COLUMN player_id uuid;
CREATE UNIQUE INDEX tournament_entrants_player ON tournament_entrants (tournament_id, player_id);
CREATE INDEX tournament_entrants_by_player ON tournament_entrants (player_id)
    WHERE player_id IS NOT NULL;
