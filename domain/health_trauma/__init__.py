"""The Health/Trauma ruleset (shared/rules/health-trauma-combat.txt): health, Trauma, injuries,
dying and death, through the ``Ruleset`` contract only."""
