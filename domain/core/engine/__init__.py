"""The engine every game runs on, used by composition: a ``Ruleset`` (the game, filling in what
``domain/core/game.py`` names) is given one of each part, and each part asks the game its hooks.

- ``fold``: events into the state (the lifecycle's steps, caches, resources refilled);
- ``lifecycle``: the lifecycle's commands decided (adding, initiative, starting, ending a turn);
- ``steps``: the turn and round steps put where they fall due;
- ``hidden``: who sees what, and a command decided for one from whom some are hidden;
- ``checks``: the refusals every game's commands share (whose turn, what is left to spend).
"""
