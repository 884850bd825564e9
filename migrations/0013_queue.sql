-- The play queue (issue #37, matchmaking): who waits to play what, and the tables the matcher
-- formed. A player waits in one row at most (its key); the matcher claims rows in one
-- transaction by setting match_id where it is still NULL, so two server processes never seat a
-- player twice, and a player who left (its row deleted) is never seated. A formed table is a row
-- of queue_tables written in that same transaction; started_at stays NULL until its match is
-- made, seated and started, so a table claimed just before a crash is set up by the next pass
-- of any process (docs/matchmaking.md).

CREATE TABLE queue_entries (
    player_id  uuid PRIMARY KEY,
    name       text NOT NULL,                 -- the player's name, the seat's name
    game       text NOT NULL,
    seats_min  int NOT NULL CHECK (seats_min >= 1),
    seats_max  int NOT NULL CHECK (seats_max >= seats_min),
    rated      boolean NOT NULL,
    options    jsonb NOT NULL DEFAULT '{}',
    bots       boolean NOT NULL DEFAULT false, -- server bots may fill after a long wait
    ticket_key bytea NOT NULL,                 -- keys this entry's stream tickets
    joined_at  timestamptz NOT NULL,
    match_id   uuid,                           -- the table it was seated at; NULL: waiting
    seat       int CHECK (seat >= 0),
    seated_at  timestamptz,
    CHECK ((match_id IS NULL) = (seat IS NULL))
);

CREATE INDEX queue_entries_waiting ON queue_entries (game, joined_at) WHERE match_id IS NULL;

CREATE TABLE queue_tables (
    match_id   uuid PRIMARY KEY,
    game       text NOT NULL,
    rated      boolean NOT NULL,
    options    jsonb NOT NULL,
    players    jsonb NOT NULL,                 -- [[player_id, name], ...] in seat order
    bots       int NOT NULL CHECK (bots >= 0), -- seats after the players', for server bots
    bot        text,                           -- the bot that fills them
    formed_at  timestamptz NOT NULL,
    started_at timestamptz                     -- NULL: its set-up is still owed
);

CREATE INDEX queue_tables_owed ON queue_tables (formed_at) WHERE started_at IS NULL;
