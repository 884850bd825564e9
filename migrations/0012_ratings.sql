-- Ratings (issue #37): a projection of rated finished matches (projections/ratings.py), append
-- only: no row is ever updated or deleted. rated_matches marks each rated match applied, once
-- (its key), with its place in its game's order (sequence; NULL when it rated nobody, as a bot
-- against itself); rating_updates holds one row per distinct subject at that match, before and
-- after. A subject's rating is its latest row (also kept in rating_standings, below). All are
-- keyed by game first: under Citus they form their own co-location group distributed by game (service/store/sharding.py), so every
-- read and every apply (which serialises a game's applies under an advisory lock) stays on one
-- shard, and the per-game sequence can be a unique key. A match is named by match_id without a
-- foreign key: matches live in the match group, and Citus refuses a key across groups.

CREATE TABLE rated_matches (
    game        text NOT NULL,
    match_id    uuid NOT NULL,
    sequence    int CHECK (sequence > 0),
    finished_at timestamptz NOT NULL,
    rated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, match_id),
    UNIQUE (game, sequence)
);

CREATE TABLE rating_updates (
    game          text NOT NULL,
    sequence      int NOT NULL CHECK (sequence > 0),
    subject       text NOT NULL,             -- a player id, or bot:<bot>
    match_id      uuid NOT NULL,
    seat          int NOT NULL CHECK (seat >= 0),
    place         int NOT NULL CHECK (place > 0),
    mu_before     double precision NOT NULL,
    sigma_before  double precision NOT NULL,
    mu_after      double precision NOT NULL,
    sigma_after   double precision NOT NULL,
    ordinal_after double precision NOT NULL,
    games         int NOT NULL CHECK (games > 0),
    provisional   boolean NOT NULL,
    PRIMARY KEY (game, sequence, subject),
    UNIQUE (game, subject, sequence)         -- a subject's history, and its latest row
);

-- The leaderboard's read model: each subject's latest rating, replaced in the transaction that
-- applies a match (as a match's row is beside its events). rating_updates stays the record;
-- this table can be rebuilt from it, and the leaderboard reads a page of it by one index.
CREATE TABLE rating_standings (
    game        text NOT NULL,
    subject     text NOT NULL,
    sequence    int NOT NULL CHECK (sequence > 0),   -- the update it holds
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    ordinal     double precision NOT NULL,
    games       int NOT NULL CHECK (games > 0),
    provisional boolean NOT NULL,
    PRIMARY KEY (game, subject)
);

CREATE INDEX rating_standings_board ON rating_standings (game, ordinal DESC, subject);

-- The matches finished since a time, for the ratings' catch-up (service/ratings.py).
CREATE INDEX matches_by_finish ON matches (finished_at) WHERE status = 'finished';
