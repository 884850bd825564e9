-- Events and command records name their match without a foreign key (issue #33).
--
-- Every row of either is written by one of two statements, each of which writes it only
-- beside a row that proves the match: an append writes its events and its command record
-- FROM the match's head row, where the head moved (service/store/append.py), and creating a
-- match writes the first event FROM the match row it inserts (service/store/postgres.py).
-- The head keeps its foreign key to the match, and no match is ever deleted, so no event and
-- no command record can name a match that does not exist; a test writes to an unknown match
-- and finds nothing written (tests/store/test_pg_append.py).
--
-- The key was checked again for every row: a trigger per event and per command record, each
-- running a lookup of the match row and taking a key-share lock on it, in every append. That
-- cost a fifth of Postgres's work per append at 32 writers (docs/benchmarks.md, "Sixth stop").
-- seat_tokens and snapshots keep theirs: they are written once a seat and once in many moves.

ALTER TABLE events DROP CONSTRAINT events_match_id_fkey;
ALTER TABLE commands DROP CONSTRAINT commands_match_id_fkey;
