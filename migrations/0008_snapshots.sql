-- State snapshots: a cache of an encounter's fold, never history. The latest snapshot per
-- encounter and per fold, where ``fold`` is the fingerprint of the exact domain code that folded
-- it (domain/core/snapshot.py): a server with other code ignores it. A snapshot names the version
-- it was folded to and the hash of the event at that version: a load uses it only while the log
-- still holds that event (the log is the truth). Deleting every row changes nothing but the
-- speed of cold loads (server/snapshots.py).
CREATE TABLE snapshots (
    encounter_id  uuid        NOT NULL REFERENCES encounters (id) ON DELETE CASCADE,
    fold          text        NOT NULL,
    version       integer     NOT NULL CHECK (version >= 1),
    last_hash     bytea       NOT NULL,
    state         bytea       NOT NULL,
    taken_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (encounter_id, fold)
);

-- The server (fracas_writer, migrations/0007_writer_role.sql) writes, replaces and deletes
-- snapshots; events stay SELECT and INSERT only.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fracas_writer') THEN
        GRANT SELECT, INSERT, UPDATE, DELETE ON snapshots TO fracas_writer;
    END IF;
EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'fracas: cannot grant snapshots to fracas_writer';
END
$$;
