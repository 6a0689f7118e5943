"""Novus, 1st edition (Firehawk Games): shared/rules/novus-combat.txt, with novus-gaps.md."""
