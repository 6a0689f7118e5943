"""The event store and what keeps it: PostgreSQL, appends and group commit, the encounter cache, snapshots, migrations, export and import, the projector process."""
