"""Places of Power: the flagship ruleset."""
