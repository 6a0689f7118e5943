-- Registry of encounters: what is not an event. The dice seed stays secret here until
-- the encounter ends (its SHA-256 is published in EncounterOpened).
CREATE TABLE encounters (
    id          uuid        PRIMARY KEY,
    ruleset     text        NOT NULL,
    name        text        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    seed        bytea       NOT NULL
);
CREATE INDEX encounters_created ON encounters (created_at DESC, id);

-- A write's Idempotency-Key and the answer it got, stored with the events it appended.
CREATE TABLE idempotency_keys (
    scope         text        NOT NULL,
    key           text        NOT NULL,
    request_hash  bytea       NOT NULL,
    status        smallint    NOT NULL,
    response      bytea       NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
