"""The ``realms`` ruleset: RealmsRPG's combat chapter (shared/rules/realms-combat.txt), with the
publisher's tables the excerpt drops (shared/rules/realms-gaps.md)."""
