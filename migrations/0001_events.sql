-- Matches (the inline read model and the stream's head) and their events.
-- Every unique key includes match_id, so the tables can later be distributed by it.

CREATE TABLE matches (
    match_id        uuid PRIMARY KEY,
    game            text NOT NULL,
    rules_version   text NOT NULL,
    status          text NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    seats           int NOT NULL CHECK (seats > 0),
    seats_taken     int NOT NULL DEFAULT 0 CHECK (seats_taken BETWEEN 0 AND seats),
    practice        boolean NOT NULL DEFAULT false,
    tournament      text,
    label           text,
    version         int NOT NULL DEFAULT 0 CHECK (version >= 0),  -- head version, 0 = no events
    head_hash       bytea NOT NULL,
    seed_commitment text NOT NULL,
    server_seed     bytea NOT NULL,                 -- secret until the match is finished
    host_token_hash bytea,
    summary         jsonb NOT NULL DEFAULT '{}',    -- names, winners, scores: written by the app
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);

CREATE INDEX matches_by_game ON matches (game, status, created_at DESC);
CREATE INDEX matches_by_status ON matches (status, created_at DESC);
CREATE INDEX matches_by_tournament ON matches (tournament, created_at DESC)
    WHERE tournament IS NOT NULL;

CREATE TABLE events (
    match_id    uuid NOT NULL REFERENCES matches (match_id),
    version     int NOT NULL CHECK (version > 0),
    type        text NOT NULL,
    data        json NOT NULL,         -- json, not jsonb: the exact bytes that were hashed
    metadata    jsonb NOT NULL DEFAULT '{}',
    recorded_at timestamptz NOT NULL DEFAULT now(),
    hash        bytea NOT NULL CHECK (length(hash) = 32),  -- sha256(previous hash || event bytes)
    PRIMARY KEY (match_id, version)                        -- the optimistic-concurrency guard
);
