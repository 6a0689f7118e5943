-- Bearer tokens of an encounter: the GM's, players' (bound to combatants), spectators'.
-- Only a SHA-256 of each secret is stored. A token's role, encounter and combatants never
-- change; revoking sets revoked_at, and every write checks it in the same statement.
CREATE TABLE tokens (
    id             uuid        PRIMARY KEY,
    encounter_id   uuid        NOT NULL REFERENCES encounters (id),
    role           text        NOT NULL CHECK (role IN ('gm', 'player', 'spectator')),
    combatant_ids  text[]      NOT NULL DEFAULT '{}',
    label          text        NOT NULL DEFAULT '',
    secret_hash    bytea       NOT NULL UNIQUE,
    created_at     timestamptz NOT NULL DEFAULT now(),
    revoked_at     timestamptz
);
CREATE INDEX tokens_encounter ON tokens (encounter_id, created_at);
