-- Tournaments (issue #18): settings, entrants, rounds and their tables. Every key includes
-- tournament_id, so these tables form a second co-location group, distributed by it. A table's
-- match is named by match_id without a foreign key: the match lives in the match group, and its
-- id is derived (uuid5 of tournament, round, table), so a retried round never makes a second one.

CREATE TABLE tournaments (
    tournament_id        uuid PRIMARY KEY,
    name                 text NOT NULL,
    settings             jsonb NOT NULL,          -- domain.tournament.Settings
    auto_advance         boolean NOT NULL DEFAULT false,
    status               text NOT NULL
        CHECK (status IN ('registering', 'closed', 'running', 'finished')),
    round                int NOT NULL DEFAULT 0 CHECK (round >= 0),  -- the last round started
    revision             int NOT NULL DEFAULT 1,  -- every change bumps it: the write guard
    seed                 bytea NOT NULL CHECK (length(seed) = 32),  -- secret until finished
    seed_commitment      text NOT NULL,           -- sha256(seed), published at creation
    organizer_token_hash bytea NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    finished_at          timestamptz
);

CREATE INDEX tournaments_by_status ON tournaments (status, created_at DESC);

CREATE TABLE tournament_entrants (
    tournament_id  uuid NOT NULL REFERENCES tournaments (tournament_id),
    number         int NOT NULL CHECK (number >= 0),   -- registration order, from 0
    name           text NOT NULL,
    name_key       text NOT NULL,                      -- the name as compared (case-folded)
    bot            text,                               -- a server-side bot; NULL: a person
    token_hash     bytea,                              -- sha256 of the player token (persons)
    withdrew_after int CHECK (withdrew_after >= 0),    -- the last round it was paired in
    registered_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, number),
    UNIQUE (tournament_id, name_key),
    UNIQUE (tournament_id, token_hash)
);

CREATE TABLE tournament_rounds (
    tournament_id uuid NOT NULL REFERENCES tournaments (tournament_id),
    round         int NOT NULL CHECK (round > 0),
    pairing       jsonb NOT NULL,                      -- domain.tournament.Pairing
    started_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_tables (
    tournament_id uuid NOT NULL,
    round         int NOT NULL,
    table_number  int NOT NULL CHECK (table_number > 0),
    match_id      uuid NOT NULL,
    PRIMARY KEY (tournament_id, round, table_number),
    UNIQUE (tournament_id, match_id),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
);
