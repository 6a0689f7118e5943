"""Shared by every ruleset: encounter lifecycle, dice, Action Point budgets, initiative, errors."""
