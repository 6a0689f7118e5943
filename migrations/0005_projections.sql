-- Read models built from the event log (projections/). Each projection follows the log in
-- commit order and records how far it has read in its checkpoint, in the same transaction
-- as the rows it writes (projections/runner.py).
--
-- Generations: every read-model row carries the generation it was built in. The live
-- generation of a projection is the one whose checkpoint is ``live``; readers take only its
-- rows, in one statement. ``fracas projections rebuild`` builds a new generation beside the
-- live one, then makes it live in one short transaction: readers never see a half-built
-- read model, and the server keeps serving meanwhile (projections/rebuild.py).
CREATE TABLE projection_checkpoints (
    projection       text        NOT NULL,
    generation       integer     NOT NULL,
    live             boolean     NOT NULL DEFAULT false,
    -- the last event read, in commit order: (transaction_id, global_position)
    transaction_id   xid8        NOT NULL DEFAULT '0',
    global_position  bigint      NOT NULL DEFAULT 0,
    events           bigint      NOT NULL DEFAULT 0,  -- events read into this generation
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (projection, generation)
);
CREATE UNIQUE INDEX projection_checkpoints_live ON projection_checkpoints (projection) WHERE live;

-- The encounter list (projections/encounter_list.py): one row per encounter. ``combatants``
-- counts those everyone sees; ``hidden_combatants`` those only the GM sees (``concealed``).
CREATE TABLE encounter_list (
    generation        integer     NOT NULL,
    encounter_id      uuid        NOT NULL,
    ruleset           text        NOT NULL,
    name              text        NOT NULL,
    status            text        NOT NULL,
    round             integer     NOT NULL DEFAULT 0,
    combatants        integer     NOT NULL DEFAULT 0,
    hidden_combatants integer     NOT NULL DEFAULT 0,
    concealed         jsonb       NOT NULL DEFAULT '[]',
    version           integer     NOT NULL,
    created_at        timestamptz NOT NULL,
    started_at        timestamptz,
    ended_at          timestamptz,
    last_activity     timestamptz NOT NULL,
    PRIMARY KEY (generation, encounter_id)
);
CREATE INDEX encounter_list_created ON encounter_list (generation, created_at DESC, encounter_id);
CREATE INDEX encounter_list_status ON encounter_list (generation, status, created_at DESC, encounter_id);

-- Per-combatant statistics (projections/combatant_statistics.py). Counts are kept per pair
-- (combatant, opponent): what a combatant did to or suffered from whom ('' for no one), so a
-- reader leaves out, in one sum, everything involving a combatant it may not see.
CREATE TABLE combatant_statistics (
    generation    integer NOT NULL,
    encounter_id  uuid    NOT NULL,
    combatant_id  text    NOT NULL,
    opponent_id   text    NOT NULL,
    stat          text    NOT NULL,
    value         bigint  NOT NULL,
    PRIMARY KEY (generation, encounter_id, combatant_id, opponent_id, stat)
);

-- The combatants the statistics are about, as they joined (and whether they have left).
CREATE TABLE combatant_statistics_combatants (
    generation    integer NOT NULL,
    encounter_id  uuid    NOT NULL,
    combatant_id  text    NOT NULL,
    seq           integer NOT NULL,
    name          text    NOT NULL,
    side          text    NOT NULL,
    controller    text    NOT NULL,
    removed       boolean NOT NULL DEFAULT false,
    PRIMARY KEY (generation, encounter_id, combatant_id)
);

-- Who attacks whom in each exchange: later steps of an exchange name only its attack id.
CREATE TABLE combatant_statistics_attacks (
    generation    integer NOT NULL,
    encounter_id  uuid    NOT NULL,
    attack_id     integer NOT NULL,
    attacker      text    NOT NULL,
    defender      text    NOT NULL,
    PRIMARY KEY (generation, encounter_id, attack_id)
);

-- How far into each encounter the statistics have read.
CREATE TABLE combatant_statistics_encounters (
    generation    integer NOT NULL,
    encounter_id  uuid    NOT NULL,
    version       integer NOT NULL,
    PRIMARY KEY (generation, encounter_id)
);
