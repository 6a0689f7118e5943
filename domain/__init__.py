"""Fracas domain: the rules of each game, pure (no I/O, no clock, no randomness but the Dice handed in)."""
