-- Client apps (issue #37): an app registered by an operator gets an API key (X-Api-Key), kept
-- only as its SHA-256 hash, and its own quotas, counted per key instead of per address
-- (docs/limits.md). A reference table when sharded: small, rarely written, read by key anywhere
-- (service/store/sharding.py).

CREATE TABLE apps (
    app_id              uuid PRIMARY KEY,
    name                text NOT NULL,
    name_key            text NOT NULL UNIQUE,      -- the name as compared (case-folded)
    key_hash            bytea NOT NULL UNIQUE CHECK (length(key_hash) = 32),
    requests_per_minute int NOT NULL CHECK (requests_per_minute > 0),
    matches_per_hour    int NOT NULL CHECK (matches_per_hour > 0),
    created_at          timestamptz NOT NULL DEFAULT now()
);
