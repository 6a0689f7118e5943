-- The event store: every declared action of every encounter, immutable, in order.
CREATE TABLE events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    encounter_id    uuid        NOT NULL,
    version         integer     NOT NULL CHECK (version >= 1),
    event_id        uuid        NOT NULL UNIQUE,
    type            text        NOT NULL,
    schema_version  smallint    NOT NULL DEFAULT 1,
    data            jsonb       NOT NULL,
    metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at     timestamptz NOT NULL DEFAULT now(),
    transaction_id  xid8        NOT NULL DEFAULT pg_current_xact_id(),
    hash            bytea       NOT NULL,
    CONSTRAINT events_encounter_version UNIQUE (encounter_id, version)
);

-- Readers of the global log go by commit order (see DESIGN.md).
CREATE INDEX events_commit_order ON events (transaction_id, global_position);

CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % is not allowed on events', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update_delete
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_immutable();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();
