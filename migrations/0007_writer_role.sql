-- The role the server's queries run as: it may read and append events, never change them.
-- The server's pool does SET ROLE fracas_writer on each connection (server/database.py), so
-- even a bug that sends UPDATE, DELETE or TRUNCATE on events is refused by PostgreSQL's
-- privileges, not only by the trigger of 0001_events.sql. Migrations, the projection runner
-- and rebuilds connect as the owner that ran this migration.
--
-- Roles belong to the whole cluster: several databases (one per test, or several Fracas
-- installations) share it, so this is a no-op where the role exists, and tolerates another
-- database's migration creating it at the same moment. Where the migrating user may not create
-- roles, nothing is granted and the server runs as that user (see README: "Database role").
DO $$
DECLARE
    here text := quote_ident(current_schema());
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'fracas_writer') THEN
        BEGIN
            CREATE ROLE fracas_writer NOLOGIN;
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN NULL;  -- another database's migration made it
            WHEN insufficient_privilege THEN
                RAISE NOTICE 'fracas: cannot create role fracas_writer; the server runs as %', current_user;
                RETURN;
        END;
    END IF;

    -- Every table the server reads and writes (tokens, idempotency keys, encounters, presence,
    -- read models, and those later migrations add) ...
    EXECUTE 'GRANT USAGE ON SCHEMA ' || here || ' TO fracas_writer';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ' || here || ' TO fracas_writer';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA ' || here
        || ' GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO fracas_writer';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA ' || here
        || ' GRANT USAGE, SELECT ON SEQUENCES TO fracas_writer';
    -- ... but events only SELECT and INSERT, and the migrations' record only SELECT.
    REVOKE ALL ON events, schema_migrations FROM fracas_writer;
    GRANT SELECT, INSERT ON events TO fracas_writer;
    GRANT SELECT ON schema_migrations TO fracas_writer;

    -- The owner running migrations (and the server) may SET ROLE fracas_writer. From
    -- PostgreSQL 16 a CREATEROLE user is made a member of the roles it creates with ADMIN but
    -- without SET: grant SET explicitly.
    IF current_setting('server_version_num')::int >= 160000 THEN
        IF NOT pg_has_role(current_user, 'fracas_writer', 'SET') THEN
            BEGIN
                EXECUTE 'GRANT fracas_writer TO ' || quote_ident(current_user) || ' WITH SET TRUE';
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE NOTICE 'fracas: cannot grant fracas_writer to %; the server runs as %', current_user, current_user;
            END;
        END IF;
    ELSIF NOT pg_has_role(current_user, 'fracas_writer', 'MEMBER') THEN
        BEGIN
            EXECUTE 'GRANT fracas_writer TO ' || quote_ident(current_user);
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE NOTICE 'fracas: cannot grant fracas_writer to %; the server runs as %', current_user, current_user;
        END;
    END IF;
END
$$;
