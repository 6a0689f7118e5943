-- Outbound webhooks (server/webhooks.py): a fight's events pushed to a receiver's URL, as a
-- delivering projection does it: each (webhook, encounter) keeps how far it has delivered,
-- advanced only once the receiver has answered 2xx; a process claims the next delivery with a
-- lease, so with several server processes one delivers each event, and one killed mid-delivery
-- leaves the lease to expire and another to deliver again (at least once, in version order).
CREATE TABLE webhooks (
    id               uuid        PRIMARY KEY,
    encounter_id     uuid        REFERENCES encounters (id),  -- NULL: every encounter (the operator's)
    url              text        NOT NULL,
    view             text        NOT NULL CHECK (view IN ('spectator', 'gm')),
    event_types      text[],                                   -- NULL: every type
    format           text        NOT NULL DEFAULT 'fracas' CHECK (format IN ('fracas', 'discord')),
    secret           text        NOT NULL,                     -- the HMAC key: shown once, kept to sign
    status           text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    failures         integer     NOT NULL DEFAULT 0,           -- in a row, since the last success
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),       -- the backoff after a failure
    last_status      integer,                                  -- the receiver's last HTTP status
    last_error       text,
    last_attempt_at  timestamptz,
    last_success_at  timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_encounter ON webhooks (encounter_id);

CREATE TABLE webhook_progress (
    webhook_id         uuid        NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    encounter_id       uuid        NOT NULL,
    delivered_version  integer     NOT NULL DEFAULT 0,  -- every event up to it was answered 2xx
    lease_owner        text,
    lease_until        timestamptz,
    PRIMARY KEY (webhook_id, encounter_id)
);

-- The server (fracas_writer, migrations/0007_writer_role.sql) registers, delivers and deletes.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fracas_writer') THEN
        GRANT SELECT, INSERT, UPDATE, DELETE ON webhooks, webhook_progress TO fracas_writer;
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'fracas: cannot grant webhooks to fracas_writer';
END
$$;
