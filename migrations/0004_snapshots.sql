-- Snapshots: each match's latest folded state, only ever a cache of the fold of its events.
-- service.snapshots uses one only while the event at its version still has the hash recorded
-- here and the code has the same fingerprint; otherwise the events are folded from the start.

CREATE TABLE snapshots (
    match_id    uuid PRIMARY KEY REFERENCES matches (match_id),
    version     int NOT NULL CHECK (version > 0),
    hash        bytea NOT NULL,          -- the chain hash of the event at ``version``
    fingerprint text NOT NULL,           -- the domain code's fingerprint when it was taken
    state       bytea NOT NULL,          -- the encoded state (service.snapshots)
    checksum    bytea NOT NULL,          -- sha256(fingerprint || hash || state)
    taken_at    timestamptz NOT NULL DEFAULT now()
);
