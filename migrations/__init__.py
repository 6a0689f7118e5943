"""Numbered SQL migrations (NNNN_name.sql), shipped as package data; applied by server.store.migrations."""
