"""Live streams: WebSocket and Server-Sent Events, the per-encounter feeds, presence."""
