-- Presence: who is connected to an encounter's live stream, across server processes.
-- One row per open live connection, written by the process that holds it: inserted when it
-- opens, its seen_at refreshed with the heartbeats, deleted when it closes. A process that
-- dies leaves its rows behind; readers ignore rows not seen for a while and the next refresh
-- deletes them. Not the truth of anything and not in the event log: UNLOGGED, so a crash of
-- PostgreSQL empties it, as it closes every connection anyway.
CREATE UNLOGGED TABLE live_connections (
    id             uuid        PRIMARY KEY,
    encounter_id   uuid        NOT NULL,
    token_id       uuid        NOT NULL,
    role           text        NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
    combatant_ids  text[]      NOT NULL DEFAULT '{}',
    transport      text        NOT NULL CHECK (transport IN ('websocket', 'sse')),
    connected_at   timestamptz NOT NULL DEFAULT now(),
    seen_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX live_connections_encounter ON live_connections (encounter_id, seen_at);

-- Live streams re-check their tokens when woken: wake them when a token is revoked or its
-- secret re-issued, so the stream of a revoked token closes at once, on every process.
-- Only a wake-up on the channel of migrations/0004_wakeup.sql, naming the encounter.
CREATE FUNCTION tokens_wake_readers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fracas_events', NEW.encounter_id::text);
    RETURN NULL;
END;
$$;

CREATE TRIGGER tokens_wake_readers
    AFTER UPDATE OF revoked_at, secret_hash ON tokens
    FOR EACH ROW
    WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash)
    EXECUTE FUNCTION tokens_wake_readers();
