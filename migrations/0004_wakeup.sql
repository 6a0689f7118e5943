-- Wake-ups for readers of the log (projections, live streams): after each INSERT statement
-- on events, one NOTIFY on channel fracas_events naming the encounters it wrote. It is only a
-- wake-up: readers read the events from the table (DESIGN.md), and poll when it is lost.
CREATE FUNCTION events_wake_readers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('fracas_events', string_agg(DISTINCT encounter_id::text, ','))
    FROM new_events;
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_wake_readers
    AFTER INSERT ON events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_wake_readers();
