-- Private tables: a match created with an invite keeps only the invite's SHA-256 here, as it
-- keeps the host token's; taking a seat then needs the invite. NULL: anyone may take a seat.

ALTER TABLE matches ADD COLUMN invite_hash bytea;
