"""Who may do what: tokens, their redaction from logs, rate limits."""
