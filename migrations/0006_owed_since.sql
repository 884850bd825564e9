-- Per-seat clocks: when the server next owes a move in a match, kept on its narrow head row and
-- written by the same statement as every append (service.pg_append), so the clock's sweep
-- (EventStore.due_matches) finds matches by the earliest per-seat deadline, restart-safe.
--   owed_since     the time (an event's recorded_at) at which the seat that has owed its move the
--                  longest began to owe it, in a match with a turn clock; NULL: nobody owes.
--   bot_owed_since the same among the seats played by bots.
-- Matches already in play count from their last append, as the turn clock did before.

ALTER TABLE heads ADD COLUMN owed_since timestamptz, ADD COLUMN bot_owed_since timestamptz;

UPDATE heads SET owed_since = heads.updated_at,
    bot_owed_since = CASE WHEN (m.summary->>'bot_to_act')::boolean THEN heads.updated_at END
FROM matches m
WHERE m.match_id = heads.match_id AND m.status = 'playing';
