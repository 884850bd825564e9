-- Seat tokens, stored only as hashes: a token proves which seat a caller holds.

CREATE TABLE seat_tokens (
    match_id   uuid NOT NULL REFERENCES matches (match_id),
    seat       int NOT NULL CHECK (seat >= 0),
    token_hash bytea NOT NULL,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, token_hash)
);
