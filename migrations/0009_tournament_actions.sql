-- Tournaments an organizer can run (issue #36): the organizer's actions (withdrawals, forfeits,
-- void tables, the end) recorded in order; a tournament cancelled before it ends; entrants
-- waiting for the organizer's approval.

ALTER TABLE tournaments DROP CONSTRAINT tournaments_status_check;
ALTER TABLE tournaments ADD CONSTRAINT tournaments_status_check
    CHECK (status IN ('registering', 'closed', 'running', 'finished', 'cancelled'));
ALTER TABLE tournaments ADD COLUMN actions jsonb NOT NULL DEFAULT '[]'::jsonb;  -- domain.tournament.Action

ALTER TABLE tournament_entrants ADD COLUMN approved boolean NOT NULL DEFAULT true;
