-- A writer that tells the readers itself, after its commit (the server: EventStore.on_commit ->
-- Wakeup.announce), sets fracas.wake = 'after_commit' on its connections, and the trigger sends
-- nothing for it. A NOTIFY inside the appending transaction holds PostgreSQL's one notify-queue
-- lock from before the commit until after it, WAL flush included, so concurrent appends that
-- notify commit one at a time (bench/README.md). Every other writer (fracas import, psql) is
-- still announced by the trigger.
CREATE OR REPLACE FUNCTION events_wake_readers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('fracas.wake', true) = 'after_commit' THEN
        RETURN NULL;
    END IF;
    PERFORM pg_notify('fracas_events', string_agg(DISTINCT encounter_id::text, ','))
    FROM new_events;
    RETURN NULL;
END;
$$;
