-- Idempotency: the first answer to each command id, replayed byte for byte on a retry.

CREATE TABLE commands (
    match_id    uuid NOT NULL REFERENCES matches (match_id),
    command_id  text NOT NULL,
    seat        int,
    response    bytea NOT NULL,   -- the exact body of the first answer
    status_code int NOT NULL,
    version     int NOT NULL,     -- the match version after the command
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, command_id)
);
