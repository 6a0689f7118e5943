"""Fracas server: HTTP API, event store on PostgreSQL, CLI."""
