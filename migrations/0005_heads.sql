-- Each match's head apart from its row: the version, the head hash and the time of the last
-- append move with every append, so they live in a narrow row of their own, and the wide match
-- row (its read model: status, summary, seats taken, finish) is rewritten only when that
-- changes. Rewriting the wide row on every append was the largest cost of an append
-- (docs/benchmarks.md). service.pg_append writes both in one statement.

CREATE TABLE heads (
    match_id   uuid PRIMARY KEY REFERENCES matches (match_id),
    version    int NOT NULL CHECK (version > 0),
    head_hash  bytea NOT NULL CHECK (length(head_hash) = 32),
    updated_at timestamptz NOT NULL DEFAULT now()   -- when the last append landed
);

INSERT INTO heads (match_id, version, head_hash, updated_at)
SELECT match_id, version, head_hash, updated_at FROM matches;

ALTER TABLE matches DROP COLUMN version, DROP COLUMN head_hash, DROP COLUMN updated_at;
